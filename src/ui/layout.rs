//! The window's shape, decided in one place, and where each part of the game screen goes for it.
//!
//! - [`Shape`]: **wide** (the board, the game's panel at the right: a desktop window, a tablet
//!   held sideways), **portrait** (a phone or tablet held upright: the board across the full
//!   width at the top, the status line and the main buttons in a bar under it, the move list and
//!   the less used actions in tabs below), **short landscape** (a phone held sideways: the board
//!   using the full height, a narrow panel beside it). [`decide`] picks it from the window's size
//!   in logical pixels (CSS pixels in the browser); [`Layout`] holds it for every screen.
//! - [`GameRegions`]: the rectangles of the game screen for the shape (egui points), planned
//!   once a frame before any panel is drawn: the board's, the game panel's and the online
//!   panel's. The board's region is the camera's viewport ([`BoardArea`], [`fit_viewport`]), so
//!   no panel ever covers a square, and the camera frames the board in it.
//! - Touch-sized UI: on phones and tablets ([`Layout::touch`]) every button is at least
//!   [`TAP`] points each way and text is larger; [`Settings::ui_scale`] scales the whole UI
//!   (egui's zoom factor) for people who want larger text.
//! - [`dialog`]: the windows (settings, saves, game over…) for the shape: centred over the
//!   board on a wide window, the screen's width less a margin and scrolling when narrow.
use bevy::{camera::Viewport, prelude::*, window::PrimaryWindow};
use bevy_egui::{EguiContexts, EguiPrimaryContextPass, egui};

use crate::{
    GameSystems, game::match_state::AppState, settings::Settings, view::camera::OrbitCamera,
};

/// Order of the UI systems within the egui pass: the background first, then panels, then
/// windows (which egui draws above panels anyway; the order keeps layout deterministic).
#[derive(SystemSet, Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum UiSystems {
    Background,
    Panels,
    Windows,
}

/// The game panel's width on a wide window (egui points).
pub const WIDE_PANEL: f32 = 310.0;
/// The smallest touch target, each way (points; CSS pixels at UI scale 1): Apple's 44 pt.
pub const TAP: f32 = 44.0;
/// Narrower than this (points), screens with columns (the menu, Learn) become one column.
pub const ONE_COLUMN_BELOW: f32 = 700.0;
/// Shorter than this (points), they become one column too (a phone held sideways).
pub const ONE_COLUMN_SHORTER: f32 = 560.0;
/// A portrait screen keeps at least this much height (points) under the board for the bar.
const PORTRAIT_MIN_BELOW: f32 = 220.0;

/// The shape of the window.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub enum Shape {
    #[default]
    Wide,
    Portrait,
    ShortLandscape,
}

impl Shape {
    /// The name the page publishes (`data-layout-shape`).
    pub fn name(self) -> &'static str {
        match self {
            Shape::Wide => "wide",
            Shape::Portrait => "portrait",
            Shape::ShortLandscape => "short-landscape",
        }
    }
}

/// The shape for a window of this size (logical pixels): taller than wide is portrait; a
/// landscape window too short (under 520) or too narrow (under 760) for the board beside a
/// full panel is short landscape; anything else is wide.
pub fn decide(size: Vec2) -> Shape {
    if size.y > size.x {
        Shape::Portrait
    } else if size.y < 520.0 || size.x < 760.0 {
        Shape::ShortLandscape
    } else {
        Shape::Wide
    }
}

/// Whether the UI is sized for fingers: every shape but wide, and wide windows whose shorter
/// side is phone- or tablet-sized (a tablet held sideways, 1024×600).
pub fn touch_sized(size: Vec2) -> bool {
    decide(size) != Shape::Wide || size.x.min(size.y) < 700.0
}

/// The window's shape and size, for every screen.
#[derive(Resource, Debug, Clone, Copy, PartialEq)]
pub struct Layout {
    pub shape: Shape,
    /// The window's size in logical pixels.
    pub window: Vec2,
    /// Touch-sized controls and larger text.
    pub touch: bool,
}

impl Default for Layout {
    fn default() -> Self {
        Layout {
            shape: Shape::Wide,
            window: Vec2::new(1280.0, 800.0),
            touch: false,
        }
    }
}

impl Layout {
    pub fn of(window: Vec2) -> Self {
        Layout {
            shape: decide(window),
            window,
            touch: touch_sized(window),
        }
    }
}

/// CSS pixels per logical pixel of the window: 1 on the desktop; in the browser the canvas's
/// size on the page over the window's logical size. Bevy's canvas in the browser is backed at
/// its CSS size while the window reports the device's pixel ratio as its scale factor, so on a
/// phone (ratio 2) the window's logical size is half the page's (seen in headless Chromium:
/// a 390-pixel-wide page gave a 195-wide window). The layout works in CSS pixels, where the
/// platforms' guidance (44-pixel touch targets) is written: the UI's zoom includes this factor.
#[derive(Resource, Debug, Clone, Copy, PartialEq)]
pub struct CssPixels(pub f32);

impl Default for CssPixels {
    fn default() -> Self {
        CssPixels(1.0)
    }
}

/// Where the game screen's parts go this frame (egui points, from the window's top left).
#[derive(Resource, Debug, Clone, Copy, PartialEq)]
pub struct GameRegions {
    pub shape: Shape,
    /// The board: the camera's viewport.
    pub board: egui::Rect,
    /// The game's panel (or the exercise's).
    pub panel: egui::Rect,
    /// Where the online panel starts and how wide it is (its height is its own).
    pub online: Option<egui::Rect>,
}

impl Default for GameRegions {
    fn default() -> Self {
        let screen = egui::Rect::from_min_size(egui::Pos2::ZERO, egui::vec2(1280.0, 800.0));
        game_regions(Shape::Wide, screen, 0.0)
    }
}

/// How much room the online panel took last frame: its width on a wide window, its height on
/// the others (0 when there is none).
#[derive(Resource, Debug, Default, Clone, Copy, PartialEq)]
pub struct OnlineExtent(pub f32);

/// The board's rectangle in logical pixels while a game is on screen (the camera's viewport);
/// `None` elsewhere (the camera then covers the window, hidden behind the menu).
#[derive(Resource, Debug, Default, Clone, Copy, PartialEq)]
pub struct BoardArea(pub Option<Rect>);

/// The regions of the game screen for a shape, in a screen rectangle (points), with an online
/// panel of this extent (0: none).
pub fn game_regions(shape: Shape, screen: egui::Rect, online: f32) -> GameRegions {
    let (w, h) = (screen.width(), screen.height());
    let at = |x: f32, y: f32, w: f32, h: f32| {
        egui::Rect::from_min_size(
            screen.min + egui::vec2(x, y),
            egui::vec2(w.max(0.0), h.max(0.0)),
        )
    };
    match shape {
        Shape::Wide => {
            let left = online.clamp(0.0, (w - WIDE_PANEL) / 2.0);
            GameRegions {
                shape,
                board: at(left, 0.0, w - WIDE_PANEL - left, h),
                panel: at(w - WIDE_PANEL, 0.0, WIDE_PANEL, h),
                online: (online > 0.0).then(|| at(0.0, 0.0, left, h)),
            }
        }
        Shape::Portrait => {
            let side = w.min(h - PORTRAIT_MIN_BELOW).max(h * 0.4);
            let strip = online.clamp(0.0, (h - side) * 0.5);
            GameRegions {
                shape,
                board: at(0.0, 0.0, w, side),
                online: (online > 0.0).then(|| at(0.0, side, w, strip)),
                panel: at(0.0, side + strip, w, h - side - strip),
            }
        }
        Shape::ShortLandscape => {
            let panel = (w - h * 1.2).clamp(230.0, 360.0).min(w * 0.5);
            let strip = online.clamp(0.0, h * 0.6);
            GameRegions {
                shape,
                board: at(0.0, 0.0, w - panel, h),
                online: (online > 0.0).then(|| at(w - panel, 0.0, panel, strip)),
                panel: at(w - panel, strip, panel, h - strip),
            }
        }
    }
}

pub fn plugin(app: &mut App) {
    app.init_resource::<Layout>()
        .init_resource::<GameRegions>()
        .init_resource::<OnlineExtent>()
        .init_resource::<BoardArea>()
        .init_resource::<CssPixels>()
        .add_systems(PreUpdate, follow_window)
        .add_systems(
            EguiPrimaryContextPass,
            (style, plan_game_screen)
                .chain()
                .in_set(UiSystems::Background),
        )
        .add_systems(
            OnExit(AppState::InGame),
            |mut area: ResMut<BoardArea>, mut online: ResMut<OnlineExtent>| {
                area.0 = None;
                online.0 = 0.0;
            },
        )
        .add_systems(Update, fit_viewport.in_set(GameSystems::Sync));
}

/// The shape follows the window's size.
pub fn follow_window(
    windows: Query<&Window, With<PrimaryWindow>>,
    css: Option<Res<CssPixels>>,
    mut layout: ResMut<Layout>,
) {
    let Ok(window) = windows.single() else {
        return;
    };
    let css = css.map_or(1.0, |c| c.0);
    let size = Vec2::new(window.resolution.width(), window.resolution.height()) * css;
    if size.x < 1.0 || size.y < 1.0 {
        return;
    }
    layout.set_if_neq(Layout::of(size));
}

/// The UI's look: a calm dark theme, text a little larger than egui's default; for fingers,
/// every control a tap high and larger text; the player's UI scale as egui's zoom.
fn style(
    mut contexts: EguiContexts,
    layout: Res<Layout>,
    settings: Res<Settings>,
    css: Res<CssPixels>,
    theme: Option<Res<super::theme::PageTheme>>,
    mut applied: Local<Option<(bool, u32, super::theme::PageTheme)>>,
) -> Result {
    // One egui point is the player's UI scale in CSS pixels.
    let scale = settings.ui_scale.clamp(0.75, 2.0) / css.0.max(0.1);
    let theme = theme.map(|t| t.clone()).unwrap_or_default();
    let key = (layout.touch, scale.to_bits(), theme);
    if applied.as_ref() == Some(&key) {
        return Ok(());
    }
    let ctx = contexts.ctx_mut()?;
    // The page's theme (Telegram's colours), else egui's dark visuals.
    ctx.set_visuals(key.2.visuals());
    *applied = Some(key);
    ctx.set_zoom_factor(scale);
    let touch = layout.touch;
    ctx.all_styles_mut(|style| {
        use egui::{FontFamily, FontId, TextStyle};
        let (body, small, heading) = if touch {
            (16.0, 14.0, 21.0)
        } else {
            (14.5, 12.0, 20.0)
        };
        style.text_styles = [
            (
                TextStyle::Heading,
                FontId::new(heading, FontFamily::Proportional),
            ),
            (TextStyle::Body, FontId::new(body, FontFamily::Proportional)),
            (
                TextStyle::Monospace,
                FontId::new(body - 0.5, FontFamily::Monospace),
            ),
            (
                TextStyle::Button,
                FontId::new(body, FontFamily::Proportional),
            ),
            (
                TextStyle::Small,
                FontId::new(small, FontFamily::Proportional),
            ),
        ]
        .into();
        style.spacing.item_spacing = egui::vec2(8.0, 6.0);
        style.spacing.button_padding = egui::vec2(8.0, 4.0);
        // Both ways: a window that grows out of touch sizes (a browser window widened, a
        // tablet page resized to a desktop's) gets egui's own sizes back.
        let plain = egui::Style::default();
        if touch {
            style.spacing.interact_size.y = TAP;
            style.spacing.icon_width = 22.0;
            style.spacing.icon_width_inner = 12.0;
            style.spacing.scroll.bar_width = 8.0;
            // A finger drags to scroll; selecting text by dragging would fight it.
            style.interaction.selectable_labels = false;
        } else {
            style.spacing.interact_size.y = plain.spacing.interact_size.y;
            style.spacing.icon_width = plain.spacing.icon_width;
            style.spacing.icon_width_inner = plain.spacing.icon_width_inner;
            style.spacing.scroll.bar_width = plain.spacing.scroll.bar_width;
            style.interaction.selectable_labels = plain.interaction.selectable_labels;
        }
    });
    Ok(())
}

/// Plans the game screen's regions for this frame; the board's becomes the camera's viewport.
fn plan_game_screen(
    mut contexts: EguiContexts,
    layout: Res<Layout>,
    online: Res<OnlineExtent>,
    state: Res<State<AppState>>,
    mut regions: ResMut<GameRegions>,
    mut area: ResMut<BoardArea>,
) -> Result {
    let ctx = contexts.ctx_mut()?;
    let planned = game_regions(layout.shape, ctx.content_rect(), online.0);
    regions.set_if_neq(planned);
    let board = (*state.get() == AppState::InGame).then(|| {
        let zoom = ctx.zoom_factor();
        let r = planned.board;
        Rect::new(
            r.min.x * zoom,
            r.min.y * zoom,
            r.max.x * zoom,
            r.max.y * zoom,
        )
    });
    area.set_if_neq(BoardArea(board));
    Ok(())
}

/// Keeps the board out from under the panels: the camera draws (and picks) only in the board's
/// region.
pub fn fit_viewport(
    area: Res<BoardArea>,
    windows: Query<&Window, With<PrimaryWindow>>,
    mut cameras: Query<&mut Camera, With<OrbitCamera>>,
) {
    let Ok(window) = windows.single() else {
        return;
    };
    let size = window.physical_size();
    let scale = window.scale_factor();
    let wanted = area.0.and_then(|r| {
        let min = (r.min * scale).round().max(Vec2::ZERO).as_uvec2().min(size);
        let max = (r.max * scale).round().max(Vec2::ZERO).as_uvec2().min(size);
        let span = max.saturating_sub(min);
        let whole = min == UVec2::ZERO && span == size;
        (span.x >= 32 && span.y >= 32 && !whole).then(|| Viewport {
            physical_position: min,
            physical_size: span,
            ..default()
        })
    });
    for mut camera in &mut cameras {
        let current = camera
            .viewport
            .as_ref()
            .map(|v| (v.physical_position, v.physical_size));
        let next = wanted
            .as_ref()
            .map(|v| (v.physical_position, v.physical_size));
        if current != next {
            camera.viewport = wanted.clone();
        }
    }
}

/// A window (settings, saves, game over…) laid out for the shape: centred over `over` (the
/// board while a game is on, else the screen), `width` points wide where that fits, else the
/// screen's width less a margin; no close cross: each
/// window has its own Close button, a tap wide. On a screen under 720 points tall, or when it
/// did not fit last frame, a window scrolls.
pub fn dialog<'a>(
    ctx: &egui::Context,
    title: impl Into<egui::WidgetText>,
    id: &str,
    width: f32,
    over: Option<egui::Rect>,
) -> egui::Window<'a> {
    let screen = ctx.content_rect();
    let over = over.unwrap_or(screen);
    let fits = width + 40.0 <= over.width();
    let width = if fits {
        width
    } else {
        (screen.width() - 40.0).max(200.0)
    };
    let centre = if fits { over.center() } else { screen.center() };
    let max_height = (screen.height() - 60.0).max(120.0);
    // A window that reached its height limit last frame did not fit (the Russian settings on a
    // 390×844 phone): it scrolls from now on, whatever the screen's height.
    let overflowed = ctx
        .memory(|m| m.area_rect(egui::Id::new(id)))
        .is_some_and(|r| r.height() >= max_height - 1.0);
    egui::Window::new(title)
        .id(egui::Id::new(id))
        .pivot(egui::Align2::CENTER_CENTER)
        .fixed_pos(centre)
        .collapsible(false)
        .resizable(false)
        .default_width(width)
        .max_width(width)
        .max_height(max_height)
        // Scrolling only once a window did not fit: a scrolling window keeps a height of its
        // own, far emptier than its content (the game-over window filled a 960×600 screen).
        .vscroll(overflowed)
}

/// The number of equal columns (at most `max`) in which buttons with these labels fit the
/// width available, each label on one line.
pub fn columns_for(ui: &egui::Ui, labels: &[&str], max: usize) -> usize {
    let widest = labels
        .iter()
        .map(|t| {
            egui::WidgetText::from(*t)
                .into_galley(
                    ui,
                    Some(egui::TextWrapMode::Extend),
                    f32::INFINITY,
                    egui::TextStyle::Button,
                )
                .size()
                .x
        })
        .fold(0.0, f32::max)
        + 2.0 * ui.spacing().button_padding.x
        + 4.0;
    let gap = ui.spacing().item_spacing.x;
    let fit = ((ui.available_width() + gap) / (widest + gap)).floor() as usize;
    fit.clamp(1, max.max(1))
}

/// Side by side on a wide screen, one under the other on a narrow one.
pub fn row_or_column<R>(
    ui: &mut egui::Ui,
    narrow: bool,
    add: impl FnOnce(&mut egui::Ui) -> R,
) -> R {
    if narrow {
        ui.vertical(add).inner
    } else {
        ui.horizontal_top(add).inner
    }
}

/// The height of a button: a tap on touch screens, else `normal`.
pub fn button_height(ui: &egui::Ui, normal: f32) -> f32 {
    normal.max(ui.spacing().interact_size.y)
}
