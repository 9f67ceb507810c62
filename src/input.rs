//! Mouse input for human players: click (or drag) a piece, its legal targets light up, click
//! a target to move. Works for every family through [`view_model::input_paths`]: each legal
//! move is a short sequence of clicks, and the clicks so far narrow the candidates.
//! Illegal clicks only change the selection; the rules still check every request.
use bevy::{
    picking::mesh_picking::{MeshPickingSettings, ray_cast::RayCastVisibility},
    prelude::*,
};
use boardcraft_rules::Position;

use crate::{
    GameSystems,
    board::{Board, CellMarker, CellMaterials},
    config::Players,
    match_state::{GameStarted, Match, MoveApplied, MoveRequested, TurnPhase},
    pieces::{Piece, PieceAt},
    view_model::{self, CellId, InputPath, Place, Token, Tray},
};

/// A click on the board, turned into a token.
#[derive(Message, Clone, Copy, Debug, PartialEq, Eq)]
pub struct BoardClicked(pub Token);

/// Forget the current selection (right click, Escape).
#[derive(Message, Clone, Copy, Debug, Default)]
pub struct ClearSelection;

/// The human's move being built: the legal moves with their click paths, and the clicks so far.
#[derive(Resource, Debug, Default)]
pub struct Selection {
    pub paths: Vec<InputPath>,
    pub clicks: Vec<Token>,
    key: Option<(u64, u32)>,
}

impl Selection {
    /// The paths that start with the clicks so far.
    pub fn candidates(&self) -> impl Iterator<Item = &InputPath> {
        self.paths
            .iter()
            .filter(|p| p.tokens.starts_with(&self.clicks))
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

    /// Adds a click; returns the move it completes, if it completes exactly one.
    pub fn click(&mut self, token: Token) -> Option<view_model::InputPath> {
        let mut extended = self.clicks.clone();
        extended.push(token);
        let matches = |clicks: &[Token]| {
            self.paths
                .iter()
                .filter(|p| p.tokens.starts_with(clicks))
                .count()
        };
        if matches(&extended) > 0 {
            self.clicks = extended;
        } else if matches(&[token]) > 0 {
            // Starting over with another piece.
            self.clicks = vec![token];
        } else {
            self.clicks.clear();
            return None;
        }
        // Done when exactly one move remains and these clicks spell it completely.
        let chosen = {
            let mut left = self.candidates();
            let only = left.next()?;
            if left.next().is_some() || only.tokens != self.clicks {
                return None;
            }
            only.clone()
        };
        self.clicks.clear();
        Some(chosen)
    }
}

/// Cells of the last move (origin and landings), for a subtle highlight.
#[derive(Resource, Debug, Default)]
pub struct LastMove(pub Vec<CellId>);

pub fn plugin(app: &mut App) {
    app.add_message::<BoardClicked>()
        .add_message::<ClearSelection>()
        .init_resource::<Selection>()
        .init_resource::<LastMove>()
        .insert_resource(MeshPickingSettings {
            require_markers: false,
            // Spot and dot pick targets are invisible discs.
            ray_cast_visibility: RayCastVisibility::Any,
        })
        .add_plugins(MeshPickingPlugin)
        .add_observer(on_click)
        .add_observer(on_drag_start)
        .add_observer(on_drop)
        .add_systems(
            Update,
            (
                keyboard_clear,
                refresh_paths,
                handle_clicks.run_if(in_state(TurnPhase::Ready)),
            )
                .chain()
                .in_set(GameSystems::Input),
        )
        .add_systems(
            Update,
            (remember_last_move, highlight_cells)
                .chain()
                .in_set(GameSystems::Sync),
        );
}

/// What a picked entity means: a cell, a piece on a cell, or a piece in a reserve.
fn token_of(
    entity: Entity,
    cells: &Query<&CellMarker>,
    pieces: &Query<&PieceAt, With<Piece>>,
) -> Option<Token> {
    if let Ok(cell) = cells.get(entity) {
        return Some(Token::Cell(cell.0));
    }
    match pieces.get(entity).ok()?.place {
        Place::Cell(c) => Some(Token::Cell(c)),
        Place::Tray(Tray::Reserve(side)) => Some(Token::Reserve(side)),
        Place::Tray(Tray::Captured(_)) => None,
    }
}

fn on_click(
    click: On<Pointer<Click>>,
    cells: Query<&CellMarker>,
    pieces: Query<&PieceAt, With<Piece>>,
    mut clicked: MessageWriter<BoardClicked>,
    mut clear: MessageWriter<ClearSelection>,
) {
    match click.button {
        PointerButton::Primary => {
            if let Some(token) = token_of(click.entity, &cells, &pieces) {
                clicked.write(BoardClicked(token));
            }
        }
        PointerButton::Secondary => {
            clear.write(ClearSelection);
        }
        PointerButton::Middle => {}
    }
}

fn on_drag_start(
    drag: On<Pointer<DragStart>>,
    cells: Query<&CellMarker>,
    pieces: Query<&PieceAt, With<Piece>>,
    selection: Res<Selection>,
    mut clicked: MessageWriter<BoardClicked>,
) {
    if drag.button != PointerButton::Primary || !pieces.contains(drag.entity) {
        return;
    }
    if let Some(token) = token_of(drag.entity, &cells, &pieces) {
        // Dragging the selected piece keeps it selected rather than toggling.
        if selection.clicks.last() != Some(&token) {
            clicked.write(BoardClicked(token));
        }
    }
}

fn on_drop(
    drop: On<Pointer<DragDrop>>,
    cells: Query<&CellMarker>,
    pieces: Query<&PieceAt, With<Piece>>,
    mut clicked: MessageWriter<BoardClicked>,
) {
    if drop.button != PointerButton::Primary {
        return;
    }
    if let Some(token) = token_of(drop.entity, &cells, &pieces) {
        clicked.write(BoardClicked(token));
    }
}

fn keyboard_clear(keys: Res<ButtonInput<KeyCode>>, mut clear: MessageWriter<ClearSelection>) {
    if keys.just_pressed(KeyCode::Escape) {
        clear.write(ClearSelection);
    }
}

/// Recomputes the legal click paths whenever the position changes.
fn refresh_paths(
    mut selection: ResMut<Selection>,
    game: Option<Res<Match>>,
    board: Option<Res<Board>>,
    mut clear: MessageReader<ClearSelection>,
) {
    if clear.read().count() > 0 {
        selection.clicks.clear();
    }
    let (Some(game), Some(board)) = (game, board) else {
        return;
    };
    let key = (game.game_id, game.position.ply());
    if selection.key != Some(key) {
        selection.paths = view_model::input_paths(&game.position, &board.layout);
        selection.clicks.clear();
        selection.key = Some(key);
    }
}

fn handle_clicks(
    mut clicks: MessageReader<BoardClicked>,
    mut selection: ResMut<Selection>,
    game: Res<Match>,
    players: Res<Players>,
    mut requests: MessageWriter<MoveRequested>,
) {
    if !players.of(game.position.side_to_move()).is_human() {
        clicks.clear();
        return;
    }
    for BoardClicked(token) in clicks.read() {
        if let Some(path) = selection.click(*token) {
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
    board: Option<Res<Board>>,
    mut last: ResMut<LastMove>,
) {
    if started.read().count() > 0 {
        last.0.clear();
    }
    let Some(board) = board else {
        return;
    };
    for m in applied.read() {
        let script = view_model::script(&m.before, &m.played.mv, &m.played.effect, &board.layout);
        let mut cells: Vec<CellId> = Vec::new();
        if let Some(Place::Cell(c)) = script
            .first()
            .and_then(|p| p.motions.first())
            .map(|m| m.from)
        {
            cells.push(c);
        }
        cells.extend(script.iter().filter_map(|p| p.landing));
        last.0 = cells;
    }
}

fn highlight_cells(
    selection: Res<Selection>,
    last: Res<LastMove>,
    board: Option<Res<Board>>,
    materials: Option<Res<CellMaterials>>,
    game: Option<Res<Match>>,
    players: Res<Players>,
    phase: Option<Res<State<TurnPhase>>>,
    mut cells: Query<(&CellMarker, &mut MeshMaterial3d<StandardMaterial>)>,
) {
    let (Some(board), Some(materials), Some(game)) = (board, materials, game) else {
        return;
    };
    let human_to_move = players.of(game.position.side_to_move()).is_human()
        && phase.is_some_and(|p| *p.get() == TurnPhase::Ready);
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
