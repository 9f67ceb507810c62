//! Which seat the board is seen from, and the camera turning to it. The seat's home is at the
//! bottom of the screen: at a table of more than two, the person to move when several people
//! share this screen, otherwise the one person playing (seat 0 when nobody at this screen
//! plays). Two-seat games keep their rule: White's side unless Black is the only person here.
//! The camera turns between turns only, easing so the players can follow the board round.
use std::f32::consts::{FRAC_PI_2, PI, TAU};

use bevy::prelude::*;
use boardcraft_rules::{Position, Seat};

use crate::{
    game::config::Players,
    game::match_state::{Match, TurnPhase},
    view::{
        animation::Animating,
        board::Board,
        camera::{CameraSystems, OrbitCamera},
    },
};

/// How long a turn of the camera from one seat to another takes.
pub const TURN_SECONDS: f32 = 0.4;

/// The camera's turn around the board (radians; 0 = seat 0's side of a two-seat board at the
/// bottom), easing from `from` to `to`.
#[derive(Component, Clone, Copy, Debug, Default, PartialEq)]
pub struct CameraTurn {
    pub angle: f32,
    pub from: f32,
    pub to: f32,
    /// 0 → 1 through the turn.
    pub progress: f32,
}

impl CameraTurn {
    fn settle(&mut self, angle: f32) {
        *self = CameraTurn {
            angle,
            from: angle,
            to: angle,
            progress: 1.0,
        };
    }

    /// Starts turning towards `angle` the short way round.
    fn start(&mut self, angle: f32) {
        let mut delta = (angle - self.angle).rem_euclid(TAU);
        if delta > PI {
            delta -= TAU;
        }
        self.from = self.angle;
        self.to = self.angle + delta;
        self.progress = 0.0;
    }

    fn advance(&mut self, seconds: f32) {
        if self.progress >= 1.0 {
            return;
        }
        self.progress = (self.progress + seconds / TURN_SECONDS).min(1.0);
        let t = self.progress;
        let eased = t * t * (3.0 - 2.0 * t);
        self.angle = self.from + (self.to - self.from) * eased;
    }
}

pub fn plugin(app: &mut App) {
    app.add_systems(
        Update,
        (add_turn, turn_to_seat)
            .chain()
            .in_set(CameraSystems::Place)
            .before(crate::view::camera::place_camera),
    );
}

fn add_turn(
    mut commands: Commands,
    cameras: Query<Entity, (With<OrbitCamera>, Without<CameraTurn>)>,
) {
    for e in &cameras {
        commands.entity(e).insert(CameraTurn::default());
    }
}

/// The seat the board should be seen from, or `None` to stay as it is (a computer to move
/// while several people share the screen).
pub fn facing_seat(seats: usize, to_move: Seat, players: &Players) -> Option<Seat> {
    let humans: Vec<Seat> = Seat::all(seats)
        .filter(|s| players.of(*s).is_human())
        .collect();
    if seats <= 2 {
        return Some(if humans == [Seat::BLACK] {
            Seat::BLACK
        } else {
            Seat::WHITE
        });
    }
    match humans.as_slice() {
        [] => Some(Seat::WHITE),
        [one] => Some(*one),
        _ => humans.contains(&to_move).then_some(to_move),
    }
}

/// The camera turn that puts a home lying at `angle` from the board's centre at the bottom.
pub fn turn_for(angle: f32) -> f32 {
    angle + FRAC_PI_2
}

fn turn_to_seat(
    time: Res<Time>,
    game: Option<Res<Match>>,
    board: Option<Res<Board>>,
    players: Res<Players>,
    phase: Option<Res<State<TurnPhase>>>,
    animation: Option<Res<Animating>>,
    mut cameras: Query<(&mut OrbitCamera, &mut CameraTurn)>,
) {
    let (Some(game), Some(board)) = (game, board) else {
        return;
    };
    // The animation starts in the frame the move is applied, before the phase follows.
    let animating = phase.is_some_and(|p| *p.get() == TurnPhase::Animating)
        || animation.is_some_and(|a| a.is_running());
    let seat = facing_seat(
        game.position.seat_count(),
        game.position.side_to_move(),
        &players,
    );
    for (mut cam, mut turn) in &mut cameras {
        if let Some(seat) = seat {
            let goal = turn_for(board.layout.seat_angle(seat));
            if board.is_changed() {
                // A new board is shown from its seat at once.
                turn.settle(goal);
            } else if !animating
                && ((goal - turn.to).rem_euclid(TAU)).min((turn.to - goal).rem_euclid(TAU)) > 1e-3
            {
                turn.start(goal);
            }
            if cam.facing != seat {
                cam.facing = seat;
            }
        }
        turn.advance(time.delta_secs());
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_turn_eases_the_short_way_round() {
        let mut turn = CameraTurn::default();
        turn.settle(0.1);
        turn.start(TAU - 0.1);
        assert!((turn.to - -0.1).abs() < 1e-5, "{}", turn.to);
        turn.advance(TURN_SECONDS / 2.0);
        assert!((turn.angle - 0.0).abs() < 1e-5, "{}", turn.angle);
        turn.advance(TURN_SECONDS);
        assert_eq!(turn.angle, turn.to);
    }

    #[test]
    fn seat_zero_of_a_two_seat_board_needs_no_turn() {
        assert_eq!(turn_for(-FRAC_PI_2), 0.0);
        assert!((turn_for(FRAC_PI_2) - PI).abs() < 1e-6);
    }
}
