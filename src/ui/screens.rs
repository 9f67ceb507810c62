//! Which screen shows and which windows are open over it, as Bevy states: the screens run
//! their systems `run_if(in_state(..))` and set themselves up and tear themselves down in
//! `OnEnter` / `OnExit`, and a button changes a screen or a window by setting its
//! [`NextState`] (it shows from the next frame).
//!
//! - [`AppState`] (the game's own, `game::match_state`): loading, the main menu, a game,
//!   Learn, a game that cannot start.
//! - [`MenuPage`]: what the main menu shows, the menu itself or the Lobby. It stays put while a
//!   game is played, so leaving a game started from the Lobby (a pairing, an archived game)
//!   leads back to the Lobby, until the Lobby's Back.
//! - [`Screen`]: the two together, the screen the player sees (computed from both).
//! - Windows over the screens, each open or closed on its own (several may be open at once,
//!   as before): [`SettingsWindow`], [`SavesWindow`], [`OnlineWindow`] ("Play online": create
//!   or join an invite game), and [`ResignDialog`] ("Does White resign?"), which exists only
//!   during a game and so closes whenever the game screen is left.
use bevy::prelude::*;

use crate::game::match_state::AppState;

/// What the main menu shows.
#[derive(States, Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum MenuPage {
    /// The menu: variants, players, start, the ways to other screens.
    #[default]
    Main,
    /// The Lobby (`ui::online::lobby`): account, pairing, seeks, challenges, archive, leaders.
    Lobby,
}

/// The screen the player sees; none while loading or when the game cannot start.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Screen {
    Menu,
    Lobby,
    Game,
    Learn,
}

impl ComputedStates for Screen {
    type SourceStates = (AppState, MenuPage);

    fn compute((app, page): (AppState, MenuPage)) -> Option<Self> {
        match (app, page) {
            (AppState::Menu, MenuPage::Main) => Some(Screen::Menu),
            (AppState::Menu, MenuPage::Lobby) => Some(Screen::Lobby),
            (AppState::InGame, _) => Some(Screen::Game),
            (AppState::Learn, _) => Some(Screen::Learn),
            (AppState::Loading | AppState::Failed, _) => None,
        }
    }
}

/// The settings window (over any screen).
#[derive(States, Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum SettingsWindow {
    #[default]
    Closed,
    Open,
}

/// The save / load window (over the menu or a game).
#[derive(States, Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum SavesWindow {
    #[default]
    Closed,
    Open,
}

/// The "Play online" window (over the menu or the Lobby); its form is
/// `ui::online::play::OnlineForm`.
#[derive(States, Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum OnlineWindow {
    #[default]
    Closed,
    Open,
}

/// Asking "does White resign?" during a game.
#[derive(SubStates, Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
#[source(AppState = AppState::InGame)]
pub enum ResignDialog {
    #[default]
    Closed,
    Asking,
}

pub fn plugin(app: &mut App) {
    app.init_state::<MenuPage>()
        .add_computed_state::<Screen>()
        .init_state::<SettingsWindow>()
        .init_state::<SavesWindow>()
        .init_state::<OnlineWindow>()
        .add_sub_state::<ResignDialog>();
}
