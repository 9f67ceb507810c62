//! Saving, loading, deleting and listing games. A load is parsed and replayed through the rules
//! *before* anything changes: only a save that replays replaces the current game.
use std::sync::Arc;

use bevy::prelude::*;
use boardcraft_rules::{AnyPosition, Places, Position, Seat, Variant};
use boardcraft_saves::{
    Decided, Player, SaveError, SavedGame,
    slot::slot_key,
    store::{self, Loaded},
};

use super::{
    DeleteRequested, LoadRequested, Notice, PersistenceAction, PersistenceResult, SaveRequested,
    SaveSlots, SlotInfo, SlotResult,
};
use crate::{
    game::config::{PlayerKind, Players, VariantChoice},
    game::match_state::{EndCause, GameEnd, Match, StartGame},
    game::seat_names::SeatNames,
    game::variants::{EntryState, VariantLibrary},
    persistence::storage::{Storage, now_unix_secs},
};

impl From<PlayerKind> for Player {
    fn from(kind: PlayerKind) -> Player {
        match kind {
            PlayerKind::Human => Player::Human,
            PlayerKind::Computer(level) => Player::Computer(level),
            // In a save both people of an online game are people at the board.
            PlayerKind::Remote => Player::Human,
        }
    }
}

/// The game's player kind for a saved player.
pub fn player_kind(player: Player) -> PlayerKind {
    match player {
        Player::Human => PlayerKind::Human,
        Player::Computer(level) => PlayerKind::Computer(level),
    }
}

/// Who played each seat of a save, at its table of seats.
pub fn players_of(save: &SavedGame) -> Players {
    let seats = [save.white, save.black]
        .into_iter()
        .chain(save.others.iter().copied())
        .map(player_kind)
        .collect();
    Players::new(seats)
        .unwrap_or_else(|| Players::two(player_kind(save.white), player_kind(save.black)))
        .fitted(save.players.unwrap_or(2))
}

/// The save of the current game.
pub fn saved_game_of(game: &Match, players: &Players) -> SavedGame {
    let moves = game.history.iter().map(|m| m.notation.clone()).collect();
    let save = SavedGame::new(
        &game.variant,
        players.of(Seat::WHITE).into(),
        players.of(Seat::BLACK).into(),
        moves,
        game.position.outcome(),
    )
    .with_others(
        players
            .iter()
            .skip(2)
            .map(|(_, kind)| kind.into())
            .collect(),
    );
    // A game from another position than the variant's start (`--position`, a puzzle) keeps
    // that position, so that its moves replay from it.
    let start = game.start.to_text();
    let save = if start != game.variant.new_game().to_text() {
        save.with_start(start)
    } else {
        save
    };
    // An online resignation is the server's decided end: the save keeps it as a resignation.
    let resigned = game.resigned.or(match game.decided.map(|d| d.cause) {
        Some(EndCause::Resigned(side)) => Some(side),
        _ => None,
    });
    let save = match resigned {
        Some(side) => save.with_resignation(side),
        None => save,
    };
    let save = match game.decided.and_then(decision_of) {
        Some(decided) => save.with_decision(decided),
        None => save,
    };
    match now_unix_secs() {
        Some(now) => save.with_saved_at(now),
        None => save,
    }
}

/// An end decided outside the rules as the save keeps it (`None` for the ends the rules or a
/// resignation make, which the save keeps otherwise).
fn decision_of(end: GameEnd) -> Option<Decided> {
    match end.cause {
        EndCause::Timeout(side) => Some(Decided::Timeout(side)),
        EndCause::Abandoned(side) => Some(Decided::Abandoned(side)),
        EndCause::DrawAgreed => Some(Decided::DrawAgreed),
        EndCause::Aborted => Some(Decided::Aborted),
        EndCause::Rules(_) | EndCause::Resigned(_) => None,
    }
}

/// The game's end for a decision read from a save (an aborted online game loads aborted: no
/// winner, the position it stopped at).
fn end_of(decided: Decided) -> GameEnd {
    GameEnd::two(
        decided.winner(),
        match decided {
            Decided::Timeout(side) => EndCause::Timeout(side),
            Decided::Abandoned(side) => EndCause::Abandoned(side),
            Decided::DrawAgreed => EndCause::DrawAgreed,
            Decided::Aborted => EndCause::Aborted,
        },
    )
}

/// Whether stored bytes are a readable save (worth a backup when replaced).
fn is_save(bytes: &[u8]) -> bool {
    SavedGame::load_bytes(bytes).is_ok()
}

fn failed(action: PersistenceAction, slot: &str, error: SaveError) -> PersistenceResult {
    warn!("{action:?} `{slot}` failed: {error}");
    PersistenceResult::Failed {
        action,
        slot: slot.to_owned(),
        message: error.to_string(),
        error,
    }
}

fn notice(action: PersistenceAction, slot: &str, notice: Notice) -> PersistenceResult {
    info!("{action:?} `{slot}`: {notice}");
    PersistenceResult::Notice {
        action,
        slot: slot.to_owned(),
        message: notice.to_string(),
        notice,
    }
}

pub(super) fn save_games(
    mut requests: MessageReader<SaveRequested>,
    game: Option<Res<Match>>,
    players: Option<Res<Players>>,
    storage: Res<Storage>,
    mut results: MessageWriter<PersistenceResult>,
    mut slots: ResMut<SaveSlots>,
) {
    let mut changed = false;
    for request in requests.read() {
        let slot = &request.slot;
        let written = slot_key(slot).and_then(|key| {
            let game = game.as_deref().ok_or(SaveError::NoGame)?;
            let players = players.as_deref().cloned().unwrap_or_default();
            let text = saved_game_of(game, &players).to_ron();
            store::write(storage.raw(), &key, text.as_bytes(), is_save)
        });
        match written {
            Ok(report) => {
                info!("saved `{slot}` in {}", storage.location());
                results.write(PersistenceResult::Saved { slot: slot.clone() });
                if report.kept_damaged {
                    results.write(notice(
                        PersistenceAction::Save,
                        slot,
                        Notice::KeptDamagedFile,
                    ));
                }
                changed = true;
            }
            Err(error) => {
                results.write(failed(PersistenceAction::Save, slot, error));
            }
        }
    }
    if changed {
        slots.0 = list_slots(&storage);
    }
}

/// A save read and replayed, ready to replace the current game.
struct ReadyToLoad {
    loaded: Loaded<SavedGame>,
    variant: Arc<Variant>,
    /// The library entry of the variant (so hot reload follows the loaded game).
    entry_path: String,
    /// The saved start position, when the game did not start from the variant's.
    from: Option<AnyPosition>,
    line: String,
    /// The side that resigned, as the replay checked it.
    resigned: Option<Seat>,
    /// The end decided outside the rules, as the replay checked it.
    decided: Option<GameEnd>,
    warnings: Vec<boardcraft_saves::SaveWarning>,
}

fn prepare_load(
    slot: &str,
    storage: &Storage,
    library: &VariantLibrary,
) -> Result<ReadyToLoad, SaveError> {
    let key = slot_key(slot)?;
    let loaded = store::read(storage.raw(), &key, SavedGame::load_bytes)?;
    let (entry_path, variant) = find_variant(library, &loaded.value.variant)?;
    let replayed = loaded.value.replay(&variant)?;
    Ok(ReadyToLoad {
        from: loaded.value.start.is_some().then(|| replayed.start.clone()),
        line: replayed.line(),
        resigned: replayed.resigned,
        decided: replayed.decided.map(end_of),
        warnings: replayed.warnings,
        loaded,
        variant,
        entry_path,
    })
}

/// A save's bytes from elsewhere (a server's archive: `GET /api/games/{id}/save.ron`) as the
/// game to start, with its players, following its variant's library entry; replayed through
/// the rules like a loaded slot.
pub fn start_of_save_bytes(bytes: &[u8], library: &VariantLibrary) -> Result<StartGame, SaveError> {
    let save = SavedGame::load_bytes(bytes)?;
    let (entry_path, variant) = find_variant(library, &save.variant)?;
    let replayed = save.replay(&variant)?;
    Ok(StartGame {
        from: save.start.is_some().then(|| replayed.start.clone()),
        resigned: replayed.resigned,
        decided: replayed.decided.map(end_of),
        ..StartGame::new(variant, replayed.line())
            .with_players(players_of(&save))
            .following(entry_path)
    })
}

/// The playable variant called `name` in the library (shipped, mods, command line).
fn find_variant(library: &VariantLibrary, name: &str) -> Result<(String, Arc<Variant>), SaveError> {
    match library.find(&VariantChoice::Name(name.to_owned())) {
        Some(entry) => match &entry.state {
            EntryState::Ready(variant) => Ok((entry.path.clone(), variant.clone())),
            EntryState::Loading => Err(SaveError::VariantUnavailable {
                name: name.to_owned(),
                why: "its file is still loading".to_owned(),
            }),
            EntryState::Broken(why) => Err(SaveError::VariantUnavailable {
                name: name.to_owned(),
                why: why.clone(),
            }),
        },
        None if !library.settled() => Err(SaveError::VariantUnavailable {
            name: name.to_owned(),
            why: "the variants are still loading".to_owned(),
        }),
        None => Err(SaveError::UnknownVariant {
            name: name.to_owned(),
        }),
    }
}

pub(super) fn load_games(
    mut requests: MessageReader<LoadRequested>,
    storage: Res<Storage>,
    library: Res<VariantLibrary>,
    mut start: MessageWriter<StartGame>,
    mut results: MessageWriter<PersistenceResult>,
) {
    for request in requests.read() {
        let slot = &request.slot;
        let ready = match prepare_load(slot, &storage, &library) {
            Ok(ready) => ready,
            Err(error) => {
                // The current game is not touched.
                results.write(failed(PersistenceAction::Load, slot, error));
                continue;
            }
        };
        let save = &ready.loaded.value;
        info!(
            "loading `{slot}`: {} after {} moves",
            save.variant,
            save.moves.len()
        );
        start.write(StartGame {
            from: ready.from.clone(),
            resigned: ready.resigned,
            decided: ready.decided,
            ..StartGame::new(ready.variant.clone(), ready.line.clone())
                .with_players(players_of(&ready.loaded.value))
                .following(ready.entry_path.clone())
        });
        results.write(PersistenceResult::Loaded { slot: slot.clone() });
        if let Some(problem) = ready.loaded.recovered.clone() {
            results.write(notice(
                PersistenceAction::Load,
                slot,
                Notice::RecoveredFromBackup { problem },
            ));
        }
        for warning in ready.warnings {
            results.write(notice(PersistenceAction::Load, slot, Notice::Save(warning)));
        }
    }
}

pub(super) fn delete_games(
    mut requests: MessageReader<DeleteRequested>,
    storage: Res<Storage>,
    mut results: MessageWriter<PersistenceResult>,
    mut slots: ResMut<SaveSlots>,
) {
    let mut changed = false;
    for request in requests.read() {
        let slot = &request.slot;
        match slot_key(slot).and_then(|key| store::delete(storage.raw(), &key, is_save)) {
            Ok(_) => {
                info!("deleted `{slot}` (its last version is kept as a backup)");
                results.write(PersistenceResult::Deleted { slot: slot.clone() });
                changed = true;
            }
            Err(error) => {
                results.write(failed(PersistenceAction::Delete, slot, error));
            }
        }
    }
    if changed {
        slots.0 = list_slots(&storage);
    }
}

pub(super) fn refresh_slots(storage: Res<Storage>, mut slots: ResMut<SaveSlots>) {
    slots.0 = list_slots(&storage);
}

/// What a save says of its result: typed, or (a save written before the typed fields) the
/// words it was saved with.
fn slot_result(save: &SavedGame) -> SlotResult {
    let seats = save.players.unwrap_or(2);
    let end = if let Some(seat) = save.resigned {
        // Without replaying the game, the finishers before the resignation are unknown: the
        // others share the places above the resigning seat (with two seats: the other wins).
        let others: Vec<Seat> = Seat::all(seats).filter(|s| *s != seat).collect();
        Some(GameEnd {
            places: Places::from_groups(&[&others, &[seat]], seats),
            cause: EndCause::Resigned(seat),
        })
    } else if let Some(decided) = save.decided {
        Some(end_of(decided))
    } else {
        save.outcome.map(|o| GameEnd {
            places: o.places,
            cause: EndCause::Rules(o.reason),
        })
    };
    match (end, &save.result) {
        (Some(end), _) => SlotResult::Over(end),
        (None, Some(words)) => SlotResult::Described(words.clone()),
        (None, None) => SlotResult::Unfinished,
    }
}

/// Every save in the store, newest first (saves without a time last, by name). A save that
/// cannot be read is listed with its problem, so the player can see it and delete it.
pub fn list_slots(storage: &Storage) -> Vec<SlotInfo> {
    let names = match store::list_slots(storage.raw()) {
        Ok(names) => names,
        Err(e) => {
            warn!("cannot list the saves in {}: {e}", storage.location());
            return Vec::new();
        }
    };
    let mut listed: Vec<(Option<String>, SlotInfo)> = names
        .into_iter()
        .map(|slot| {
            let read = slot_key(&slot)
                .and_then(|key| store::read(storage.raw(), &key, SavedGame::load_bytes));
            match read {
                Ok(loaded) => {
                    let save = loaded.value;
                    let info = SlotInfo {
                        variant_title: if save.title.is_empty() {
                            save.variant.clone()
                        } else {
                            save.title.clone()
                        },
                        plies: save.moves.len(),
                        result: slot_result(&save),
                        seats: SeatNames::of_saved(&save.variant, save.players.unwrap_or(2)),
                        slot,
                    };
                    (save.saved_at, info)
                }
                Err(e) => (
                    None,
                    SlotInfo {
                        slot,
                        variant_title: String::new(),
                        plies: 0,
                        result: SlotResult::Unreadable(e),
                        seats: SeatNames::two(),
                    },
                ),
            }
        })
        .collect();
    listed.sort_by(|a, b| b.0.cmp(&a.0).then_with(|| a.1.slot.cmp(&b.1.slot)));
    listed.into_iter().map(|(_, info)| info).collect()
}
