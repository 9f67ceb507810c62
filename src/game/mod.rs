//! The game's logic, headless: the match (the single writer of the rules state), the variants
//! it is played in, how it is set up, the review cursor, the computer player, the coach and a
//! plain-text status for observers. Nothing here draws or reads input devices; the view
//! (`crate::view`) follows what happens here and never the other way round.
pub mod coach;
pub mod computer;
pub mod config;
pub mod match_state;
pub mod review;
pub mod seat_names;
pub mod status;
pub mod variants;
