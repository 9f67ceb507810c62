//! Loading puzzle and lesson files into checked [`Puzzle`]s and [`Lesson`]s: the schema (RON,
//! unknown fields are errors), the format version, ids, texts in both languages, the variant,
//! the position text and every solution line read move by move with the rules.
use std::{collections::HashMap, path::Path};

use boardcraft_rules::{AnyMove, AnyPosition, Position, Variant};

use crate::{
    Difficulty, Goal, LessonFile, PuzzleEntry, PuzzleFile, StepEntry, Text,
    drawing::{Arrow, BoardSquare},
    error::{FileError, Problem, describe_ron_error, locate},
    format::FORMAT_VERSION,
};

/// What a puzzle and a lesson step share: a position of a variant, a goal and the solution
/// lines (each read move by move from the position).
#[derive(Clone, Debug)]
pub struct Exercise {
    pub variant: Variant,
    pub position: AnyPosition,
    pub goal: Goal,
    /// The solution lines as written, and as moves.
    pub solution_text: Vec<String>,
    pub lines: Vec<Vec<AnyMove>>,
}

impl Exercise {
    /// Whether `mv` is the first move of one of the solution lines (the engine-proven set of
    /// right first moves).
    pub fn is_right_first_move(&self, mv: &AnyMove) -> bool {
        self.lines.iter().any(|l| l.first() == Some(mv))
    }

    /// The opponent's answer after the player's moves `played` (their own moves and the
    /// answers so far, from the puzzle's position), if they follow a solution line that
    /// continues.
    pub fn reply_after(&self, played: &[AnyMove]) -> Option<&AnyMove> {
        self.lines
            .iter()
            .find(|l| l.len() > played.len() && l[..played.len()] == *played)
            .map(|l| &l[played.len()])
    }
}

#[derive(Clone, Debug)]
pub struct Puzzle {
    pub id: String,
    pub title: Text,
    pub hint: Text,
    pub difficulty: Difficulty,
    pub source: String,
    pub exercise: Exercise,
}

#[derive(Clone, Debug)]
pub struct Step {
    pub title: Text,
    pub text: Text,
    pub right: Text,
    pub wrong: Text,
    pub hint: Option<Text>,
    /// The squares to mark on the board, checked to be on it.
    pub marks: Vec<BoardSquare>,
    /// The arrows to draw (each a chain, hop by hop), checked to be on the board.
    pub arrows: Vec<Arrow>,
    pub exercise: Exercise,
}

#[derive(Clone, Debug)]
pub struct Lesson {
    pub id: String,
    pub family: String,
    pub title: Text,
    pub description: Option<Text>,
    pub steps: Vec<Step>,
}

/// Problems of one file, collected before they are located.
struct Problems<'a> {
    file: &'a str,
    text: &'a str,
    elements: usize,
    anchor: &'static str,
    list: Vec<Problem>,
}

impl<'a> Problems<'a> {
    /// No problems yet in `file` (`elements` list entries, each starting at its `anchor` field).
    fn new(file: &'a str, text: &'a str, elements: usize, anchor: &'static str) -> Self {
        Problems {
            file,
            text,
            elements,
            anchor,
            list: Vec::new(),
        }
    }

    fn check_version(&mut self, format_version: u32) {
        if format_version != FORMAT_VERSION {
            self.push(
                "format_version".into(),
                format!(
                    "format_version {format_version} is not supported; this version of Boardcraft reads format_version {FORMAT_VERSION}"
                ),
            );
        }
    }

    fn push(&mut self, field: String, message: impl Into<String>) {
        self.list.push(Problem {
            line: locate(self.text, &field, self.elements, self.anchor),
            column: None,
            field: Some(field),
            message: message.into(),
        });
    }

    fn finish(self) -> Result<(), FileError> {
        if self.list.is_empty() {
            Ok(())
        } else {
            Err(FileError {
                file: self.file.to_owned(),
                problems: self.list,
            })
        }
    }
}

fn parse_ron<T: serde::de::DeserializeOwned>(file: &str, text: &str) -> Result<T, FileError> {
    ron::Options::default()
        .from_str(text)
        .map_err(|e| FileError {
            file: file.to_owned(),
            problems: vec![Problem {
                line: Some(e.span.start.line),
                column: Some(e.span.start.col),
                field: None,
                message: describe_ron_error(&e.code),
            }],
        })
}

fn valid_id(id: &str) -> bool {
    !id.is_empty()
        && id.len() <= 80
        && id
            .chars()
            .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '-')
}

/// Variants by name, read once per load.
#[derive(Default)]
struct Variants {
    known: HashMap<String, Result<Variant, String>>,
}

impl Variants {
    fn get(&mut self, name: &str, base: Option<&Path>) -> Result<Variant, String> {
        self.known
            .entry(name.to_owned())
            .or_insert_with(|| {
                let direct = Variant::resolve(name);
                match (direct, base) {
                    (Ok(v), _) => Ok(v),
                    (Err(_), Some(dir)) if name.ends_with(".ron") => {
                        Variant::from_path(&dir.join(name)).map_err(|e| e.to_string())
                    }
                    (Err(e), _) => Err(e.to_string()),
                }
            })
            .clone()
    }
}

fn check_text(p: &mut Problems, field: String, t: &Text) {
    if t.en.trim().is_empty() {
        p.push(format!("{field}.en"), "the English text is empty");
    }
    if t.ru.trim().is_empty() {
        p.push(format!("{field}.ru"), "the Russian text is empty");
    }
}

/// Reads an exercise's variant, position and lines; problems go to `p` under `at`.
/// The exercise fields of a puzzle or step, as written.
struct Written<'a> {
    variant: &'a str,
    position: &'a str,
    goal: Goal,
    solutions: &'a [String],
}

fn exercise(
    p: &mut Problems,
    variants: &mut Variants,
    base: Option<&Path>,
    at: &str,
    written: Written,
) -> Option<Exercise> {
    let Written {
        variant,
        position,
        goal,
        solutions,
    } = written;
    let variant = match variants.get(variant, base) {
        Ok(v) => v,
        Err(e) => {
            p.push(format!("{at}.variant"), e.replace('\n', "; "));
            return None;
        }
    };
    let pos = match variant.position_from_text(position) {
        Ok(pos) => pos,
        Err(e) => {
            p.push(format!("{at}.position"), e.to_string());
            return None;
        }
    };
    if goal.moves() == 0 {
        p.push(format!("{at}.goal"), "a goal needs at least one move");
    }
    if solutions.is_empty() {
        p.push(
            format!("{at}.solutions"),
            "no solution is given: list the line (or lines) that solve it",
        );
    }
    let mut lines = Vec::new();
    for (j, line) in solutions.iter().enumerate() {
        let mut q = pos.clone();
        let mut moves = Vec::new();
        let mut ok = true;
        for token in line.split_whitespace() {
            let parsed = q.parse_move(token).and_then(|m| {
                q.play(&m)
                    .map(|_| m)
                    .map_err(|e| boardcraft_rules::NotationError::illegal(token, e.reason))
            });
            match parsed {
                Ok(m) => moves.push(m),
                Err(e) => {
                    p.push(
                        format!("{at}.solutions[{j}]"),
                        format!("move {} of the line: {e}", moves.len() + 1),
                    );
                    ok = false;
                    break;
                }
            }
        }
        if ok && moves.is_empty() {
            p.push(format!("{at}.solutions[{j}]"), "the line is empty");
            ok = false;
        }
        if ok {
            lines.push(moves);
        }
    }
    (lines.len() == solutions.len() && !lines.is_empty()).then(|| Exercise {
        variant,
        position: pos,
        goal,
        solution_text: solutions.to_vec(),
        lines,
    })
}

/// Reads a puzzle file's text. `file` labels the errors; `base` is the folder variant file
/// paths are relative to (for mods).
pub fn puzzles_from_ron(
    file: &str,
    text: &str,
    base: Option<&Path>,
) -> Result<Vec<Puzzle>, FileError> {
    let parsed: PuzzleFile = parse_ron(file, text)?;
    let mut p = Problems::new(file, text, parsed.puzzles.len(), "id");
    p.check_version(parsed.format_version);
    if parsed.puzzles.is_empty() {
        p.push("puzzles".into(), "the file holds no puzzle");
    }
    let mut variants = Variants::default();
    let mut seen = HashMap::new();
    let mut out = Vec::new();
    for (i, e) in parsed.puzzles.iter().enumerate() {
        let at = format!("puzzles[{i}]");
        let PuzzleEntry {
            id,
            variant,
            position,
            goal,
            solutions,
            difficulty,
            title,
            hint,
            source,
        } = e;
        if !valid_id(id) {
            p.push(
                format!("{at}.id"),
                format!("`{id}` is not a usable id: use lower-case letters, digits and '-'"),
            );
        } else if let Some(first) = seen.insert(id.clone(), i) {
            p.push(
                format!("{at}.id"),
                format!("the id `{id}` is used by puzzles[{first}] already"),
            );
        }
        check_text(&mut p, format!("{at}.title"), title);
        check_text(&mut p, format!("{at}.hint"), hint);
        if let Some(ex) = exercise(
            &mut p,
            &mut variants,
            base,
            &at,
            Written {
                variant,
                position,
                goal: *goal,
                solutions,
            },
        ) {
            out.push(Puzzle {
                id: id.clone(),
                title: title.clone(),
                hint: hint.clone(),
                difficulty: *difficulty,
                source: source.clone(),
                exercise: ex,
            });
        }
    }
    p.finish()?;
    Ok(out)
}

/// Reads a lesson file's text (see [`puzzles_from_ron`] for `file` and `base`).
pub fn lesson_from_ron(file: &str, text: &str, base: Option<&Path>) -> Result<Lesson, FileError> {
    let parsed: LessonFile = parse_ron(file, text)?;
    let mut p = Problems::new(file, text, parsed.steps.len(), "position");
    p.check_version(parsed.format_version);
    if !valid_id(&parsed.id) {
        p.push(
            "id".into(),
            format!(
                "`{}` is not a usable id: use lower-case letters, digits and '-'",
                parsed.id
            ),
        );
    }
    if !["Race", "Focus", "Gipf"].contains(&parsed.family.as_str()) {
        p.push(
            "family".into(),
            format!(
                "`{}` is not a game family: use Race, Focus or Gipf",
                parsed.family
            ),
        );
    }
    check_text(&mut p, "title".into(), &parsed.title);
    if let Some(d) = &parsed.description {
        check_text(&mut p, "description".into(), d);
    }
    if parsed.steps.is_empty() {
        p.push("steps".into(), "the lesson has no step");
    }
    let mut variants = Variants::default();
    let mut steps = Vec::new();
    for (i, s) in parsed.steps.iter().enumerate() {
        let at = format!("steps[{i}]");
        let StepEntry {
            title,
            variant,
            position,
            text: body,
            goal,
            solutions,
            right,
            wrong,
            hint,
            marks,
            arrows,
        } = s;
        for (name, t) in [
            ("title", title),
            ("text", body),
            ("right", right),
            ("wrong", wrong),
        ] {
            check_text(&mut p, format!("{at}.{name}"), t);
        }
        if let Some(h) = hint {
            check_text(&mut p, format!("{at}.hint"), h);
        }
        if let Some(ex) = exercise(
            &mut p,
            &mut variants,
            base,
            &at,
            Written {
                variant,
                position,
                goal: *goal,
                solutions,
            },
        ) {
            let family = ex.variant.rules.family_name();
            if family != parsed.family {
                p.push(
                    format!("{at}.variant"),
                    format!(
                        "`{variant}` is a {family} game; this lesson teaches {}",
                        parsed.family
                    ),
                );
            }
            let mut marked = Vec::new();
            for (j, name) in marks.iter().enumerate() {
                match crate::drawing::square(&ex.position, name) {
                    Ok(sq) => marked.push(sq),
                    Err(e) => p.push(format!("{at}.marks[{j}]"), e),
                }
            }
            let mut drawn = Vec::new();
            for (j, text) in arrows.iter().enumerate() {
                match crate::drawing::arrow(&ex.position, text) {
                    Ok(a) => drawn.push(a),
                    Err(e) => p.push(format!("{at}.arrows[{j}]"), e),
                }
            }
            steps.push(Step {
                title: title.clone(),
                text: body.clone(),
                right: right.clone(),
                wrong: wrong.clone(),
                hint: hint.clone(),
                marks: marked,
                arrows: drawn,
                exercise: ex,
            });
        }
    }
    p.finish()?;
    Ok(Lesson {
        id: parsed.id,
        family: parsed.family,
        title: parsed.title,
        description: parsed.description,
        steps,
    })
}

/// Reads a puzzle file from disk.
pub fn puzzles_from_path(path: &Path) -> Result<Vec<Puzzle>, FileError> {
    let label = path.display().to_string();
    let text = std::fs::read_to_string(path)
        .map_err(|e| FileError::whole(&label, format!("cannot read the file: {e}")))?;
    puzzles_from_ron(&label, &text, path.parent())
}

/// Reads a lesson file from disk.
pub fn lesson_from_path(path: &Path) -> Result<Lesson, FileError> {
    let label = path.display().to_string();
    let text = std::fs::read_to_string(path)
        .map_err(|e| FileError::whole(&label, format!("cannot read the file: {e}")))?;
    lesson_from_ron(&label, &text, path.parent())
}

/// Reads a manifest (`(files: [...])`).
pub fn manifest_from_ron(file: &str, text: &str) -> Result<Vec<String>, FileError> {
    let m: crate::Manifest = parse_ron(file, text)?;
    Ok(m.files)
}

/// Whether a file's text is a puzzle file (it has a `puzzles:` key) rather than a lesson.
pub fn is_puzzle_file(text: &str) -> bool {
    crate::error::has_key(text, "puzzles")
}

/// How the player's latest move went (see [`Exercise::judge`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Judgement {
    /// The goal is reached.
    Solved,
    /// The move does not reach the goal in the moves allowed (or is not legal).
    Wrong,
    /// On the way: the opponent answers with `reply`, then the player moves again.
    Continue { reply: AnyMove },
}

impl Exercise {
    /// Judges the player's latest move. `played` is every move since the exercise's position
    /// (player, reply, player …), the last one the player's. A first move is right only if it
    /// is one of the proven first moves; after it, any move that still forces the goal in the
    /// moves left is right (the solver checks it), not only the listed line's. The reply is the
    /// line's while the player follows a line, else the toughest defence (the one after which
    /// the goal needs the most moves). Cheap for the shipped exercises (a few thousand nodes).
    pub fn judge(&self, played: &[AnyMove]) -> Judgement {
        use boardcraft_ai::solver::Solver;

        use crate::goal::{Judge, reached};

        if played.is_empty() || played.len().is_multiple_of(2) {
            return Judgement::Wrong;
        }
        if !self.is_right_first_move(&played[0]) {
            return Judgement::Wrong;
        }
        let mut before = self.position.clone();
        for mv in &played[..played.len() - 1] {
            if before.play(mv).is_err() {
                return Judgement::Wrong;
            }
        }
        let last = &played[played.len() - 1];
        let mut after = before.clone();
        if after.play(last).is_err() {
            return Judgement::Wrong;
        }
        let n = self.goal.moves();
        let own = played.len().div_ceil(2) as u32;
        match self.goal {
            Goal::Play | Goal::LongestJump | Goal::CaptureMost => {
                return if played.len() == 1 {
                    Judgement::Solved
                } else {
                    Judgement::Wrong
                };
            }
            _ => {}
        }
        if own > n {
            return Judgement::Wrong;
        }
        if reached(self.goal, &before, last, &after) {
            return Judgement::Solved;
        }
        if own == n || after.is_game_over() {
            return Judgement::Wrong;
        }
        let judge = Judge(self.goal);
        let mut solver = Solver::new(&judge, crate::verify::NODE_LIMIT);
        let left = n - own;
        if !solver.move_solves(&before, last, left + 1).unwrap_or(false) {
            return Judgement::Wrong;
        }
        if let Some(reply) = self.reply_after(played) {
            return Judgement::Continue {
                reply: reply.clone(),
            };
        }
        let mut replies = Vec::new();
        after.legal_moves(&mut replies);
        let mut best: Option<(u32, AnyMove)> = None;
        for r in replies {
            let mut next = after.clone();
            next.play_unchecked(&r);
            if next.is_game_over() {
                continue;
            }
            let need = (1..=left)
                .find(|&k| solver.forces(&next, k).unwrap_or(false))
                .unwrap_or(left);
            if best.as_ref().is_none_or(|b| need > b.0) {
                best = Some((need, r));
            }
        }
        match best {
            Some((_, reply)) => Judgement::Continue { reply },
            None => Judgement::Wrong,
        }
    }
}
