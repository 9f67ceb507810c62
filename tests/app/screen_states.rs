//! Screens and windows as states (`ui::screens`): the Lobby is a page of the main menu that
//! stays put during a game; being in the lobby follows the page, not the drawing.
use bevy::{
    prelude::*,
    state::{app::StatesPlugin, state::FreelyMutableState},
};
use boardcraft::{
    game::match_state::AppState,
    online::lobby::{Lobby, LobbyCommand},
    ui::{
        online::lobby as lobby_screen,
        screens::{self, MenuPage, Screen},
    },
};

/// The lobby commands written in the last update.
#[derive(Resource, Default)]
struct Heard(Vec<LobbyCommand>);

fn hear(mut commands: MessageReader<LobbyCommand>, mut heard: ResMut<Heard>) {
    heard.0 = commands.read().cloned().collect();
}

/// The states and the Lobby screen's plugin, without egui (its drawing never runs) and without
/// the lobby's network (the commands are only heard).
fn app() -> App {
    let mut app = App::new();
    app.add_plugins((MinimalPlugins, StatesPlugin))
        .init_state::<AppState>()
        .init_resource::<Lobby>()
        .init_resource::<Heard>()
        .add_message::<LobbyCommand>()
        .add_plugins((screens::plugin, lobby_screen::plugin))
        .add_systems(Last, hear);
    app
}

fn go<S: FreelyMutableState>(app: &mut App, to: S) {
    app.world_mut().resource_mut::<NextState<S>>().set(to);
    app.update();
}

fn screen(app: &App) -> Option<Screen> {
    app.world()
        .get_resource::<State<Screen>>()
        .map(|s| *s.get())
}

fn heard(app: &App) -> Vec<LobbyCommand> {
    app.world().resource::<Heard>().0.clone()
}

#[test]
fn the_lobby_is_a_page_of_the_menu_kept_during_a_game() {
    let mut app = app();
    app.update();
    assert_eq!(screen(&app), None, "nothing shows while loading");
    go(&mut app, AppState::Menu);
    assert_eq!(screen(&app), Some(Screen::Menu));
    assert!(heard(&app).is_empty());

    // Opening the Lobby enters the lobby.
    go(&mut app, MenuPage::Lobby);
    assert_eq!(screen(&app), Some(Screen::Lobby));
    assert_eq!(heard(&app), vec![LobbyCommand::Enter]);

    // A game started from it does not leave the lobby, and leaving the game leads back to it.
    go(&mut app, AppState::InGame);
    assert_eq!(screen(&app), Some(Screen::Game));
    assert!(heard(&app).is_empty());
    go(&mut app, AppState::Menu);
    assert_eq!(screen(&app), Some(Screen::Lobby));

    // Its Back (or the page's back button) leaves the lobby, once.
    app.world_mut().resource_mut::<Lobby>().entered = true;
    app.update();
    assert!(
        heard(&app).is_empty(),
        "an entered lobby is not entered again"
    );
    go(&mut app, MenuPage::Main);
    assert_eq!(screen(&app), Some(Screen::Menu));
    assert_eq!(heard(&app), vec![LobbyCommand::Leave]);
    app.update();
    assert!(heard(&app).is_empty());
}
