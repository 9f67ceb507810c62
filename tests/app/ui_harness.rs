//! The game's egui screens, headless: the headless app with the UI plugins (`ui::plugin`, the
//! online screens), egui's context on the UI camera with no window behind it (the screen is a
//! fixed 1280×800 points), AccessKit turned on. After each frame the screens' AccessKit tree —
//! what a screen reader, and so a player, is told: each widget's role, label, whether it is
//! enabled or selected — goes into kittest, whose queries find widgets the way a player would
//! (`s.get(Role::Button, "Undo")`: by role and words); a click becomes egui's pointer events
//! (move, press, release at the widget's centre), given to egui on the next frame through
//! bevy_egui's own input messages. The screens are the game's own systems, run by Bevy;
//! nothing is drawn on a GPU.
//!
//! A test reads what the screen shows through [`Screens::root`] (or the shortcuts below) and
//! what a click did through the app's resources and states ([`Screens::app`]).
use std::time::Duration;

use bevy::prelude::*;
use bevy_egui::{
    EguiContext, EguiInput, EguiOutput, EguiPreUpdateSet, PrimaryEguiContext, egui,
    input::EguiInputEvent,
};
use boardcraft::{
    automation::headless_app_with,
    game::config::{GameConfig, Players, VariantChoice},
    game::match_state::AppState,
    settings::{Language, Settings},
};
pub use egui::accesskit::Role;
pub use egui_kittest::kittest::{NodeT, Queryable};
use egui_kittest::{EventQueue, Node, kittest};

use crate::common::STEP;

/// The screen's size in egui points: the layout's default (a wide desktop window), so the
/// layout the screens plan and the screen egui gets agree.
pub const SCREEN: egui::Vec2 = egui::vec2(1280.0, 800.0);

/// The screen's size in egui points for the frames to come (a test may make it a phone's).
#[derive(Resource, Clone, Copy)]
struct ScreenSize(egui::Vec2);

/// The headless app with its screens, their AccessKit tree after the last frame and the
/// input waiting for the next one.
pub struct Screens {
    pub app: App,
    tree: Option<kittest::State>,
    pixels_per_point: f32,
    input: EventQueue,
}

/// What the UI needs besides the logic: the input and window messages bevy_egui reads (no
/// window is opened), the asset types its renderer keeps its textures and shader in, the
/// camera's and the board input's resources the panels read and write, and the screen's size.
fn ui_plugins(app: &mut App) {
    app.add_plugins((
        bevy::input::InputPlugin,
        bevy::window::WindowPlugin {
            primary_window: None,
            exit_condition: bevy::window::ExitCondition::DontExit,
            close_when_requested: false,
            ..default()
        },
    ))
    .init_asset::<Image>()
    .init_asset::<bevy::shader::Shader>()
    .add_plugins((
        boardcraft::view::camera::plugin,
        boardcraft::input::selection_plugin,
        boardcraft::ui::plugin,
        boardcraft::ui::online::plugin,
    ))
    .insert_resource(ScreenSize(SCREEN))
    .add_systems(
        PreUpdate,
        fixed_screen
            .after(EguiPreUpdateSet::InitContexts)
            .before(EguiPreUpdateSet::ProcessInput),
    );
}

/// bevy_egui takes the screen from the camera's window; there is none, so the screen is set.
fn fixed_screen(
    size: Res<ScreenSize>,
    mut inputs: Query<&mut EguiInput, With<PrimaryEguiContext>>,
) {
    for mut input in &mut inputs {
        input.screen_rect = Some(egui::Rect::from_min_size(egui::Pos2::ZERO, size.0));
    }
}

impl Screens {
    /// The game with its screens, `variant` after `after` (moves), in `language`; the app
    /// starts in `state` (the menu), else as `--variant` does (the game, once loaded).
    pub fn new(
        variant: &str,
        after: &str,
        players: Players,
        language: Language,
        state: Option<AppState>,
    ) -> Screens {
        let config = GameConfig {
            variant: VariantChoice::parse(variant),
            after: after.to_owned(),
            position: None,
            // More than two players ask for the variant's larger table, as `--seats` does.
            players: (players.count() > 2).then_some(players.count()),
        };
        let mut app = headless_app_with(config, players, STEP, ui_plugins);
        if let Some(state) = state {
            app.insert_state(state);
        }
        app.world_mut().resource_mut::<Settings>().language = language;
        let mut screens = Screens {
            app,
            tree: None,
            pixels_per_point: 1.0,
            input: EventQueue::default(),
        };
        // The context exists after the first frame; AccessKit output starts with the next.
        screens.frames(2);
        assert!(screens.tree.is_some(), "the UI has an AccessKit tree");
        screens
    }

    /// The menu, once the variant library has loaded.
    pub fn menu(language: Language) -> Screens {
        let mut screens = Screens::new(
            "ugolki-9qum",
            "",
            crate::common::humans(),
            language,
            Some(AppState::Menu),
        );
        screens.until(60, "the variant library", |s| {
            s.app
                .world()
                .resource::<boardcraft::game::variants::VariantLibrary>()
                .settled()
        });
        screens.frames(3);
        screens
    }

    /// Makes the screen `size` points (a phone's, say): egui's screen and the layout the
    /// screens plan for, from the next frame on (three frames are drawn).
    pub fn resize(&mut self, size: egui::Vec2) {
        self.app.insert_resource(ScreenSize(size));
        self.app
            .insert_resource(boardcraft::ui::layout::Layout::of(Vec2::new(
                size.x, size.y,
            )));
        self.frames(3);
    }

    /// Every label whose words contain `part`.
    pub fn labels_containing(&self, part: &str) -> Vec<Node<'_>> {
        let part = part.to_owned();
        self.root()
            .query_all_by(move |n| {
                n.role() == Role::Label && words(n).is_some_and(|w| w.contains(&part))
            })
            .collect()
    }

    /// One frame: the input queued by clicks goes to egui, the app updates, the screens'
    /// AccessKit tree is read.
    pub fn frame(&mut self) {
        let events = std::mem::take(&mut *self.input.lock());
        let world = self.app.world_mut();
        let context = world
            .query_filtered::<Entity, With<PrimaryEguiContext>>()
            .single(world)
            .ok();
        if let Some(context) = context {
            for event in events {
                world.write_message(EguiInputEvent { context, event });
            }
        }
        self.app.update();
        let world = self.app.world_mut();
        let mut contexts =
            world.query_filtered::<(&mut EguiContext, &mut EguiOutput), With<PrimaryEguiContext>>();
        let Ok((mut context, mut output)) = contexts.single_mut(world) else {
            return;
        };
        context.get_mut().enable_accesskit();
        self.pixels_per_point = output.pixels_per_point;
        if let Some(update) = output.platform_output.accesskit_update.take() {
            match &mut self.tree {
                Some(tree) => tree.update(update),
                None => self.tree = Some(kittest::State::new(update)),
            }
        }
    }

    pub fn frames(&mut self, n: u32) {
        for _ in 0..n {
            self.frame();
        }
    }

    /// Frames until `done` holds; panics after `seconds` of wall-clock time (assets and the
    /// server answer at the machine's pace, not the frames').
    pub fn until(&mut self, seconds: u64, what: &str, done: impl Fn(&Screens) -> bool) {
        let start = std::time::Instant::now();
        while !done(self) {
            if start.elapsed() > Duration::from_secs(seconds) {
                panic!(
                    "{what}: not reached within {seconds} s; the screen shows {:?}",
                    self.texts()
                );
            }
            self.frame();
            std::thread::sleep(Duration::from_millis(1));
        }
    }

    /// The screens' AccessKit root, to query (kittest's `Queryable`).
    pub fn root(&self) -> Node<'_> {
        let tree = self.tree.as_ref().expect("a frame was drawn");
        Node::new(tree.root(), &self.input, self.pixels_per_point)
    }

    /// The widgets of `role` whose words are `label` (a label's text is its AccessKit value;
    /// a button's label may end in a space: an empty right-hand text joins it).
    pub fn all(&self, role: Role, label: &str) -> Vec<Node<'_>> {
        self.root().query_all_by(matching(role, label)).collect()
    }

    /// The widget of `role` labelled `label`; panics (with what is on the screen) when there
    /// is none or more than one.
    pub fn get(&self, role: Role, label: &str) -> Node<'_> {
        let mut found = self.all(role, label);
        match found.len() {
            1 => found.remove(0),
            n => panic!(
                "{n} {role:?} “{label}” on the screen (one expected); it shows {:?}",
                self.texts()
            ),
        }
    }

    /// Whether a widget of `role` labelled `label` is on the screen.
    pub fn shows(&self, role: Role, label: &str) -> bool {
        !self.all(role, label).is_empty()
    }

    /// Whether a widget of `role` labelled `label` is inside the window titled `title`.
    pub fn shows_in(&self, title: &str, role: Role, label: &str) -> bool {
        self.get(Role::Window, title)
            .query_all_by(matching(role, label))
            .next()
            .is_some()
    }

    /// The widget of `role` labelled `label` inside the window titled `title`.
    pub fn get_in(&self, title: &str, role: Role, label: &str) -> Node<'_> {
        let window = self.get(Role::Window, title);
        let mut found: Vec<Node<'_>> = window.query_all_by(matching(role, label)).collect();
        match found.len() {
            1 => found.remove(0),
            n => panic!(
                "{n} {role:?} “{label}” in the window “{title}” (one expected); the screen shows {:?}",
                self.texts()
            ),
        }
    }

    /// Whether a text (a label's words, exactly) is on the screen.
    pub fn says(&self, text: &str) -> bool {
        self.shows(Role::Label, text)
    }

    /// Whether the button labelled `label` can be clicked.
    pub fn enabled(&self, label: &str) -> bool {
        !self.get(Role::Button, label).accesskit_node().is_disabled()
    }

    /// Whether the widget (a selectable button, a check box, a radio button) is on.
    pub fn selected(&self, role: Role, label: &str) -> bool {
        self.get(role, label).accesskit_node().toggled() == Some(egui::accesskit::Toggled::True)
    }

    /// Clicks the widget as a player would (pointer over its centre, pressed and released),
    /// then lets the click work through the app: its message or state change (a state is
    /// entered on the next frame), and the screen it leads to drawn.
    pub fn click(&mut self, role: Role, label: &str) {
        self.get(role, label).click();
        self.frames(4);
    }

    pub fn click_button(&mut self, label: &str) {
        self.click(Role::Button, label);
    }

    /// Clicks the widget in the window titled `title` (another of the same name may be
    /// outside it), as [`Screens::click`] does.
    pub fn click_in(&mut self, title: &str, role: Role, label: &str) {
        self.get_in(title, role, label).click();
        self.frames(4);
    }

    /// Every label and value on the screen (for failure messages).
    pub fn texts(&self) -> Vec<String> {
        let Some(tree) = &self.tree else {
            return Vec::new();
        };
        let root = Node::new(tree.root(), &self.input, self.pixels_per_point);
        root.children_recursive()
            .filter_map(|n| {
                let n = n.accesskit_node();
                words(&n).map(|t| format!("{:?} {t}", n.role()))
            })
            .collect()
    }
}

/// A widget's words: a label's text (its AccessKit value), any other widget's label; trimmed.
fn words(node: &kittest::AccessKitNode<'_>) -> Option<String> {
    let text = if node.role() == Role::Label {
        node.value()
    } else {
        node.label()
    };
    text.map(|t| t.trim().to_owned())
}

/// A query's predicate: the widget's role is `role` and its words are `label`.
fn matching(role: Role, label: &str) -> impl Fn(&kittest::AccessKitNode<'_>) -> bool + 'static {
    let label = label.to_owned();
    move |n| n.role() == role && words(n).is_some_and(|w| w == label)
}
