//! What the player sees and hears of the game: the board layout and its meshes, the piece
//! entities, the animation of every landing, the sounds, the camera, full or light graphics, the
//! reviewed position on the board, and the view model that turns a rules position into places,
//! pieces and trays. It follows the game's messages (`crate::game`) and never decides what the
//! rules decide.
pub mod animation;
pub mod audio;
pub mod badges;
pub mod board;
pub mod camera;
pub mod camera_turn;
pub mod graphics;
pub mod lesson_marks;
pub mod model;
pub mod pieces;
pub mod render_trim;
pub mod review_board;
pub mod seat_look;
