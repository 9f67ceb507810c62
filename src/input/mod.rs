//! Mouse and touch input for human players: click or tap (or drag) a piece, its legal targets
//! light up, click or tap a target to move. Works for every family through [`model::input_paths`]: each legal
//! move is a short sequence of clicks, and the clicks so far narrow the candidates.
//! Illegal clicks only change the selection; the rules still check every request.
use bevy::{
    picking::mesh_picking::{MeshPickingSettings, ray_cast::RayCastVisibility},
    prelude::*,
};
use boardcraft_rules::Position;

use crate::{
    GameSystems,
    game::config::Players,
    game::match_state::{GameStarted, Match, MoveApplied, MoveRequested, PositionReset, TurnPhase},
    game::review::Review,
    view::board::{Board, CellMarker, CellMaterials},
    view::model::{self, CellId, InputPath, Place, Token, Tray},
    view::pieces::{Piece, PieceAt},
};

/// A click on the board, turned into a token. `level` is the clicked piece's level in its
/// stack (0 = bottom), when a piece was clicked.
#[derive(Message, Clone, Copy, Debug, PartialEq, Eq)]
pub struct BoardClicked {
    pub token: Token,
    pub level: Option<usize>,
}

/// Forget the current selection (right click, Escape).
#[derive(Message, Clone, Copy, Debug, Default)]
pub struct ClearSelection;

/// Lift one piece more (+1) or less (−1) from the selected tower (mouse wheel).
#[derive(Message, Clone, Copy, Debug)]
pub struct AdjustLift(pub i32);

/// The human's move being built: the legal moves with their click paths, the clicks so far,
/// and, when the clicks name several moves (a GIPF removal choice), the moves to choose from.
#[derive(Resource, Debug, Default)]
pub struct Selection {
    pub paths: Vec<InputPath>,
    pub clicks: Vec<Token>,
    /// Focus: how many pieces to lift from the selected tower, if the player said so.
    pub lift: Option<usize>,
    /// Moves the clicks cannot tell apart; the UI asks which one.
    pub choices: Vec<InputPath>,
    key: Option<(u64, u32)>,
}

impl Selection {
    /// A selection over these click paths, nothing clicked yet.
    pub fn new(paths: Vec<InputPath>) -> Self {
        Selection {
            paths,
            ..Default::default()
        }
    }

    fn fits(&self, p: &InputPath, clicks: &[Token]) -> bool {
        p.tokens.starts_with(clicks)
            && (self.lift.is_none() || p.lift.is_none() || p.lift == self.lift)
    }

    /// The paths that start with the clicks so far.
    pub fn candidates(&self) -> impl Iterator<Item = &InputPath> {
        self.paths.iter().filter(|p| self.fits(p, &self.clicks))
    }

    /// Tokens that would extend the clicks so far.
    pub fn next_tokens(&self) -> Vec<Token> {
        let n = self.clicks.len();
        let mut next: Vec<Token> = self
            .candidates()
            .filter_map(|p| p.tokens.get(n).copied())
            .collect();
        next.sort_by_key(|t| format!("{t:?}"));
        next.dedup();
        next
    }

    /// The lift counts the selected piece's moves offer, smallest first.
    pub fn lift_options(&self) -> Vec<usize> {
        let Some(first) = self.clicks.first() else {
            return Vec::new();
        };
        let mut counts: Vec<usize> = self
            .paths
            .iter()
            .filter(|p| p.tokens.first() == Some(first))
            .filter_map(|p| p.lift)
            .collect();
        counts.sort_unstable();
        counts.dedup();
        counts
    }

    pub fn clear(&mut self) {
        self.clicks.clear();
        self.lift = None;
        self.choices.clear();
    }

    /// Adds a click (with the clicked level's lift count, if it was a tower's piece); returns
    /// the move it completes, if it names exactly one.
    pub fn click(&mut self, token: Token, lift: Option<usize>) -> Option<InputPath> {
        self.choices.clear();
        let mut extended = self.clicks.clone();
        extended.push(token);
        let count =
            |sel: &Self, clicks: &[Token]| sel.paths.iter().filter(|p| sel.fits(p, clicks)).count();
        if count(self, &extended) > 0 {
            self.clicks = extended;
        } else {
            // Starting over with another piece (its own lift, if a level was clicked).
            self.lift = None;
            if count(self, &[token]) > 0 {
                self.clicks = vec![token];
            } else {
                self.clear();
                return None;
            }
        }
        if self.clicks.len() == 1 {
            // A click on a tower's level chooses how many pieces to lift, if that is a move.
            self.lift = lift.filter(|n| self.lift_options().contains(n));
        }
        let complete: Vec<InputPath> = self
            .candidates()
            .filter(|p| p.tokens == self.clicks)
            .cloned()
            .collect();
        if complete.is_empty() || self.candidates().count() > complete.len() {
            return None;
        }
        if complete.len() == 1 {
            self.clear();
            return complete.into_iter().next();
        }
        self.choices = complete;
        None
    }

    /// Steps the lift count of the selected tower through its options.
    pub fn adjust_lift(&mut self, by: i32) {
        let options = self.lift_options();
        if options.is_empty() || self.clicks.len() != 1 {
            return;
        }
        let current = self.lift.and_then(|n| options.iter().position(|o| *o == n));
        let next = match current {
            None if by > 0 => 0,
            None => options.len() - 1,
            Some(i) => (i as i32 + by).clamp(0, options.len() as i32 - 1) as usize,
        };
        self.lift = Some(options[next]);
    }
}

/// Cells of the last move (origin and landings), for a subtle highlight.
#[derive(Resource, Debug, Default)]
pub struct LastMove(pub Vec<CellId>);

pub mod camera_controls;
pub mod drag;
pub mod touch;
pub mod touch_camera;

pub fn plugin(app: &mut App) {
    app.add_plugins((
        camera_controls::plugin,
        selection_plugin,
        touch::plugin,
        touch_camera::plugin,
    ))
    .init_resource::<LastMove>()
    .insert_resource(MeshPickingSettings {
        require_markers: false,
        // Spot and dot pick targets are invisible discs.
        ray_cast_visibility: RayCastVisibility::Any,
    })
    .add_plugins(MeshPickingPlugin)
    .add_systems(
        Update,
        (
            keyboard_clear,
            // Scrolling a panel (the move list) is not choosing a lift.
            wheel_lift.run_if(not(bevy_egui::input::egui_wants_any_pointer_input)),
        )
            .before(refresh_paths)
            .in_set(GameSystems::Input),
    )
    .add_systems(
        Update,
        (remember_last_move, highlight_cells)
            .chain()
            .in_set(GameSystems::Sync),
    );
}

/// Clicks, taps and drags on the board become move requests: everything of the input that
/// needs no window, picking backend or egui (what the headless tests drive with
/// `Pointer` events).
pub fn selection_plugin(app: &mut App) {
    app.add_plugins(drag::plugin)
        .add_message::<BoardClicked>()
        .add_message::<ClearSelection>()
        .add_message::<AdjustLift>()
        .init_resource::<Selection>()
        .init_resource::<HeldClicks>()
        .add_observer(on_click)
        .add_systems(
            Update,
            (
                refresh_paths,
                hold_clicks.run_if(in_state(TurnPhase::Animating)),
                handle_clicks.run_if(
                    in_state(TurnPhase::Ready)
                        .and_then(crate::game::review::is_live)
                        .and_then(crate::learn::session::accepts_player_moves),
                ),
            )
                .chain()
                .in_set(GameSystems::Input),
        );
}

/// What a picked entity means: a cell, a piece on a cell (with its level), or a reserve.
pub(crate) fn click_of(
    entity: Entity,
    cells: &Query<&CellMarker>,
    pieces: &Query<&PieceAt, With<Piece>>,
) -> Option<BoardClicked> {
    if let Ok(cell) = cells.get(entity) {
        return Some(BoardClicked {
            token: Token::Cell(cell.0),
            level: None,
        });
    }
    let at = pieces.get(entity).ok()?;
    let token = match at.place {
        Place::Cell(c) => Token::Cell(c),
        Place::Tray(Tray::Reserve(side)) => Token::Reserve(side),
        Place::Tray(Tray::Captured(_)) => return None,
    };
    Some(BoardClicked {
        token,
        level: matches!(at.place, Place::Cell(_)).then_some(at.level),
    })
}

fn on_click(
    click: On<Pointer<Click>>,
    cells: Query<&CellMarker>,
    pieces: Query<&PieceAt, With<Piece>>,
    mut clicked: MessageWriter<BoardClicked>,
    mut clear: MessageWriter<ClearSelection>,
) {
    // Taps are read from the touch input (see `touch`): picking misses quick ones.
    if click.pointer_id.is_touch() {
        return;
    }
    match click.button {
        PointerButton::Primary => {
            if let Some(c) = click_of(click.entity, &cells, &pieces) {
                clicked.write(c);
            }
        }
        PointerButton::Secondary => {
            clear.write(ClearSelection);
        }
        PointerButton::Middle => {}
    }
}

fn keyboard_clear(keys: Res<ButtonInput<KeyCode>>, mut clear: MessageWriter<ClearSelection>) {
    if keys.just_pressed(KeyCode::Escape) {
        clear.write(ClearSelection);
    }
}

/// The mouse wheel over the board changes how many pieces to lift while a tower is selected
/// (otherwise it zooms: see the camera).
fn wheel_lift(
    scroll: Res<bevy::input::mouse::AccumulatedMouseScroll>,
    selection: Res<Selection>,
    mut adjust: MessageWriter<AdjustLift>,
) {
    if scroll.delta.y != 0.0 && !selection.lift_options().is_empty() {
        adjust.write(AdjustLift(if scroll.delta.y > 0.0 { 1 } else { -1 }));
    }
}

/// Recomputes the legal click paths whenever the position changes.
fn refresh_paths(
    mut selection: ResMut<Selection>,
    game: Option<Res<Match>>,
    board: Option<Res<Board>>,
    mut clear: MessageReader<ClearSelection>,
    mut adjust: MessageReader<AdjustLift>,
) {
    if clear.read().count() > 0 {
        selection.clear();
    }
    for AdjustLift(by) in adjust.read() {
        selection.adjust_lift(*by);
    }
    let (Some(game), Some(board)) = (game, board) else {
        return;
    };
    let key = (game.game_id, game.position.ply());
    if selection.key != Some(key) {
        selection.paths = model::input_paths(&game.position, &board.layout);
        selection.clear();
        selection.key = Some(key);
    }
}

/// Clicks and taps made while the last move is still landing, kept for when it has: a player
/// who taps their next piece as the opponent's lands is not ignored (and the browser tests,
/// which see the new position on the page a frame before its animation starts, do not lose
/// taps). Kept for that position only.
#[derive(Resource, Debug, Default)]
struct HeldClicks {
    clicks: Vec<BoardClicked>,
    key: Option<(u64, u32)>,
}

fn hold_clicks(
    mut clicks: MessageReader<BoardClicked>,
    game: Option<Res<Match>>,
    mut held: ResMut<HeldClicks>,
) {
    let key = game.map(|g| (g.game_id, g.position.ply()));
    if held.key != key {
        held.clicks.clear();
        held.key = key;
    }
    held.clicks.extend(clicks.read().copied());
}

fn handle_clicks(
    mut clicks: MessageReader<BoardClicked>,
    mut held: ResMut<HeldClicks>,
    view: Res<crate::view::pieces::BoardView>,
    mut selection: ResMut<Selection>,
    game: Res<Match>,
    players: Res<Players>,
    mut requests: MessageWriter<MoveRequested>,
) {
    let held = std::mem::take(&mut *held);
    if !players.of(game.position.side_to_move()).is_human() {
        clicks.clear();
        return;
    }
    let key = Some((game.game_id, game.position.ply()));
    let earlier = held.clicks.into_iter().filter(|_| held.key == key);
    for click in earlier.chain(clicks.read().copied()) {
        // A click on level `l` of a tower of height `h` lifts the top `h − l` pieces.
        let lift = match (click.token, click.level) {
            (Token::Cell(c), Some(level)) => {
                Some(view.place(Place::Cell(c)).len().saturating_sub(level))
            }
            _ => None,
        };
        if let Some(path) = selection.click(click.token, lift) {
            requests.write(MoveRequested {
                mv: path.mv,
                game_id: game.game_id,
                ply: game.position.ply(),
            });
            break;
        }
    }
}

fn remember_last_move(
    mut applied: MessageReader<MoveApplied>,
    mut started: MessageReader<GameStarted>,
    mut reset: MessageReader<PositionReset>,
    board: Option<Res<Board>>,
    game: Option<Res<Match>>,
    review: Option<Res<Review>>,
    mut shown: Local<Option<usize>>,
    mut last: ResMut<LastMove>,
) {
    let (Some(board), Some(game)) = (board, game) else {
        return;
    };
    let reviewed = review.and_then(|r| r.ply);
    // A game started with `--after` (or replayed after a reload), an undo or redo, and the
    // position under review show their last move too.
    let rebuilt = started.read().count() + reset.read().count() > 0;
    if rebuilt || reviewed != *shown {
        *shown = reviewed;
        let ply = reviewed.unwrap_or(game.history.len());
        last.0 = match ply.checked_sub(1) {
            Some(prev) => move_cells(&game.position_at(prev), &game.history[prev], &board.layout),
            None => Vec::new(),
        };
        applied.clear();
    }
    for m in applied.read() {
        last.0 = move_cells(&m.before, &m.played, &board.layout);
    }
}

/// The origin and every landing of a move.
fn move_cells(
    before: &boardcraft_rules::AnyPosition,
    played: &crate::game::match_state::PlayedMove,
    layout: &model::Layout,
) -> Vec<CellId> {
    let script = model::script(before, &played.mv, &played.effect, layout);
    let mut cells: Vec<CellId> = Vec::new();
    if let Some(Place::Cell(c)) = script
        .first()
        .and_then(|p| p.motions.first())
        .map(|m| m.from)
    {
        cells.push(c);
    }
    cells.extend(script.iter().filter_map(|p| p.landing));
    cells
}

fn highlight_cells(
    selection: Res<Selection>,
    last: Res<LastMove>,
    board: Option<Res<Board>>,
    materials: Option<Res<CellMaterials>>,
    game: Option<Res<Match>>,
    players: Res<Players>,
    phase: Option<Res<State<TurnPhase>>>,
    review: Option<Res<Review>>,
    mut cells: Query<(&CellMarker, &mut MeshMaterial3d<StandardMaterial>)>,
) {
    let (Some(board), Some(materials), Some(game)) = (board, materials, game) else {
        return;
    };
    let human_to_move = players.of(game.position.side_to_move()).is_human()
        && phase.is_some_and(|p| *p.get() == TurnPhase::Ready)
        && review.is_none_or(|r| r.is_live());
    let next = if human_to_move {
        selection.next_tokens()
    } else {
        Vec::new()
    };
    let selected = |id: CellId| human_to_move && selection.clicks.contains(&Token::Cell(id));
    // Only show targets once a piece is chosen; before that, every movable piece would light up.
    let show_targets = !selection.clicks.is_empty();
    for (cell, mut material) in &mut cells {
        let wanted = if selected(cell.0) {
            materials.selected.clone()
        } else if show_targets && next.contains(&Token::Cell(cell.0)) {
            materials.highlight.clone()
        } else if last.0.contains(&cell.0) {
            materials.last_move.clone()
        } else {
            materials.base(&board.layout, cell.0)
        };
        if material.0 != wanted {
            material.0 = wanted;
        }
    }
}
