//! Variant files: the RON schema shared by all families, validation with errors a modder can
//! act on, and the shipped variants embedded at build time.
//!
//! A file looks like
//! ```ron
//! (
//!     format_version: 1,
//!     name: "ugolki-hg-3x3",
//!     aliases: [], // optional: former names, which still find this variant
//!     title: "Ugolki 3×3 (Happy Games)",
//!     description: "…",
//!     rules: Race( /* the family's fields */ ),
//! )
//! ```
//! Unknown fields are errors everywhere; `rules` names the family (`Race`, `Focus`, `Gipf`).
//!
//! A variant is known by its `name` (saves record it, `--variant` and the CLI's `<variant>` take
//! it); the file should be called `<name>.ron`. A file whose `name` differs from its file name
//! still loads — the name wins — but gets a [`VariantWarning`], because the two then disagree on
//! what the variant is called. `aliases` lists former names: when a variant is renamed, its old
//! name goes there, so that saves and command lines naming it keep working ([`Variant::is_called`],
//! [`shipped_variant`]).
use std::{fmt, path::Path, sync::Arc};

use serde::Deserialize;

use crate::{AnyPosition, focus, gipf, race};

/// The schema version this build reads.
pub const FORMAT_VERSION: u32 = 1;

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct VariantFile {
    format_version: u32,
    name: String,
    #[serde(default)]
    aliases: Vec<String>,
    title: String,
    #[serde(default)]
    description: String,
    rules: FamilySpec,
}

#[derive(Debug, Deserialize)]
enum FamilySpec {
    Race(race::RaceSpec),
    Focus(focus::FocusSpec),
    Gipf(gipf::GipfSpec),
}

/// The validated rules of one family, shared cheaply between positions.
#[derive(Clone, Debug)]
pub enum FamilyRules {
    Race(Arc<race::RaceRules>),
    Focus(Arc<focus::FocusRules>),
    Gipf(Arc<gipf::GipfRules>),
}

impl FamilyRules {
    /// The family's name as written in variant files.
    pub fn family_name(&self) -> &'static str {
        match self {
            FamilyRules::Race(_) => "Race",
            FamilyRules::Focus(_) => "Focus",
            FamilyRules::Gipf(_) => "Gipf",
        }
    }
}

/// A validated variant: what a game is started from.
#[derive(Clone, Debug)]
pub struct Variant {
    pub name: String,
    /// Former names that still find this variant (see [`Variant::is_called`]).
    pub aliases: Vec<String>,
    pub title: String,
    pub description: String,
    /// The rules for the seat count being played ([`Variant::players`]; the fewest the variant
    /// offers until [`Variant::with_players`] picks another).
    pub rules: FamilyRules,
    /// The rules for every seat count the variant offers, fewest seats first.
    pub seatings: Vec<(usize, FamilyRules)>,
    /// FNV-1a hash of the file's text, so a save can tell whether its variant file changed.
    pub content_hash: u64,
    /// What is odd about the file without making it unusable (its `name` differs from its file
    /// name). Front-ends show them; `validate` prints them.
    pub warnings: Vec<VariantWarning>,
}

impl Variant {
    /// Parses and validates a variant file. `file` labels errors and warnings; if it ends in
    /// `.ron`, it is also the file name the variant's `name` is checked against (a path or an
    /// asset path such as `mods://my-game.ron` is fine: its last component counts).
    pub fn from_ron(file: &str, text: &str) -> Result<Variant, VariantError> {
        let options = ron::Options::default()
            .with_default_extension(ron::extensions::Extensions::UNWRAP_VARIANT_NEWTYPES);
        let parsed: VariantFile = options.from_str(text).map_err(|e| VariantError {
            file: file.to_owned(),
            problems: vec![Problem {
                line: Some(e.span.start.line),
                column: Some(e.span.start.col),
                field: None,
                message: describe_ron_error(&e.code),
            }],
        })?;
        let located = |errors: Vec<FieldError>| VariantError {
            file: file.to_owned(),
            problems: errors
                .into_iter()
                .map(|fe| {
                    let line = locate_field(text, &fe.field);
                    Problem {
                        line,
                        column: None,
                        field: Some(fe.field),
                        message: fe.message,
                    }
                })
                .collect(),
        };
        let mut errors = Vec::new();
        if parsed.format_version != FORMAT_VERSION {
            errors.push(FieldError::new(
                "format_version",
                format!(
                    "format_version {} is not supported; this version of Boardcraft reads format_version {FORMAT_VERSION}",
                    parsed.format_version
                ),
            ));
        }
        if !is_valid_name(&parsed.name) {
            errors.push(FieldError::new(
                "name",
                format!(
                    "`{}` is not a usable variant name: use lower-case letters, digits and '-' (like \"ugolki-hg-3x3\")",
                    parsed.name
                ),
            ));
        }
        for (i, alias) in parsed.aliases.iter().enumerate() {
            let field = format!("aliases[{i}]");
            if !is_valid_name(alias) {
                errors.push(FieldError::new(
                    field,
                    format!(
                        "`{alias}` is not a usable variant name: use lower-case letters, digits and '-'"
                    ),
                ));
            } else if *alias == parsed.name {
                errors.push(FieldError::new(
                    field,
                    format!("`{alias}` is the variant's own name; aliases are its former names"),
                ));
            } else if parsed.aliases[..i].contains(alias) {
                errors.push(FieldError::new(field, format!("`{alias}` is listed twice")));
            }
        }
        if parsed.title.trim().is_empty() {
            errors.push(FieldError::new("title", "the title must not be empty"));
        }
        let seatings = match parsed.rules {
            FamilySpec::Race(spec) => spec.validate_all().map(|all| {
                all.into_iter()
                    .map(|r| (r.seat_count(), FamilyRules::Race(Arc::new(r))))
                    .collect::<Vec<_>>()
            }),
            FamilySpec::Focus(spec) => spec.validate_all().map(|all| {
                all.into_iter()
                    .map(|r| (r.seat_count(), FamilyRules::Focus(Arc::new(r))))
                    .collect::<Vec<_>>()
            }),
            FamilySpec::Gipf(spec) => spec
                .validate()
                .map(|r| vec![(2, FamilyRules::Gipf(Arc::new(r)))]),
        };
        let seatings = match seatings {
            Ok(seatings) if errors.is_empty() => seatings,
            Ok(_) => return Err(located(errors)),
            Err(family_errors) => {
                errors.extend(family_errors.into_iter().map(|mut fe| {
                    fe.field = format!("rules.{}", fe.field);
                    fe
                }));
                return Err(located(errors));
            }
        };
        let mut warnings = Vec::new();
        if let Some(stem) = file_stem(file)
            && stem != parsed.name
        {
            warnings.push(VariantWarning {
                file: file.to_owned(),
                problem: Problem {
                    line: locate_field(text, "name"),
                    column: None,
                    field: Some("name".to_owned()),
                    message: format!(
                        "the variant is called `{name}` but its file is `{stem}.ron`; the game, saves and `--variant` know it as `{name}`, so rename the file to `{name}.ron` or set `name: \"{stem}\"`",
                        name = parsed.name
                    ),
                },
            });
        }
        Ok(Variant {
            name: parsed.name,
            aliases: parsed.aliases,
            title: parsed.title,
            description: parsed.description,
            rules: seatings[0].1.clone(),
            seatings,
            content_hash: fnv1a(text.as_bytes()),
            warnings,
        })
    }

    /// The number of seats of the table being played.
    pub fn players(&self) -> usize {
        match &self.rules {
            FamilyRules::Race(r) => r.seat_count(),
            FamilyRules::Focus(r) => r.seat_count(),
            FamilyRules::Gipf(_) => 2,
        }
    }

    /// The seat counts the variant offers, fewest first.
    pub fn player_counts(&self) -> Vec<usize> {
        self.seatings.iter().map(|(n, _)| *n).collect()
    }

    /// The variant played by `players` seats, or an error naming the seat counts it offers.
    pub fn for_players(&self, players: usize) -> Result<Variant, PlayerCountError> {
        self.with_players(players).ok_or_else(|| PlayerCountError {
            variant: self.name.clone(),
            asked: players,
            offered: self.player_counts(),
        })
    }

    /// The variant played by `players` seats, if it offers that many.
    pub fn with_players(&self, players: usize) -> Option<Variant> {
        let (_, rules) = self.seatings.iter().find(|(n, _)| *n == players)?;
        Some(Variant {
            rules: rules.clone(),
            ..self.clone()
        })
    }

    /// Whether `name` names this variant: its name or one of its former names (`aliases`).
    pub fn is_called(&self, name: &str) -> bool {
        self.name == name || self.aliases.iter().any(|a| a == name)
    }

    /// Reads and validates a variant file from disk.
    pub fn from_path(path: &Path) -> Result<Variant, VariantError> {
        let label = path.display().to_string();
        let text = std::fs::read_to_string(path)
            .map_err(|e| VariantError::whole_file(&label, format!("cannot read the file: {e}")))?;
        Variant::from_ron(&label, &text)
    }

    /// A shipped variant by name, or a variant file by path (anything ending in `.ron` or
    /// containing a path separator). This is how the CLI and the app read `<variant>`.
    pub fn resolve(name_or_path: &str) -> Result<Variant, VariantError> {
        if name_or_path.ends_with(".ron")
            || name_or_path.contains(std::path::MAIN_SEPARATOR)
            || name_or_path.contains('/')
        {
            Variant::from_path(Path::new(name_or_path))
        } else {
            shipped_variant(name_or_path)
        }
    }

    /// The start position of this variant.
    pub fn new_game(&self) -> AnyPosition {
        match &self.rules {
            FamilyRules::Race(r) => AnyPosition::Race(race::RacePosition::new(r.clone())),
            FamilyRules::Focus(r) => AnyPosition::Focus(focus::FocusPosition::new(r.clone())),
            FamilyRules::Gipf(r) => AnyPosition::Gipf(gipf::GipfPosition::new(r.clone())),
        }
    }
}

/// A seat count a variant does not offer.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{variant} is played by {} players, not {asked}", offered.iter().map(|n| n.to_string()).collect::<Vec<_>>().join(", "))]
pub struct PlayerCountError {
    pub variant: String,
    pub asked: usize,
    pub offered: Vec<usize>,
}

/// The file name without `.ron` of a label that ends in `.ron` (a path, or an asset path such
/// as `mods://x.ron`).
fn file_stem(label: &str) -> Option<&str> {
    let file = label.rsplit(['/', '\\', ':']).next()?;
    file.strip_suffix(".ron")
}

fn is_valid_name(name: &str) -> bool {
    !name.is_empty()
        && name.len() <= 64
        && name
            .chars()
            .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '-')
}

mod embedded {
    include!(concat!(env!("OUT_DIR"), "/shipped.rs"));
}

/// The shipped variant files as `(file name, text)`, in manifest order.
pub fn shipped_files() -> &'static [(&'static str, &'static str)] {
    embedded::SHIPPED
}

/// The names of the shipped variants (file names without `.ron`), in manifest order.
pub fn shipped_variants() -> impl Iterator<Item = &'static str> {
    embedded::SHIPPED
        .iter()
        .map(|(file, _)| file.trim_end_matches(".ron"))
}

/// A shipped variant by name, or by a former name (one of its `aliases`): a save or a command
/// line from before a rename still finds it.
pub fn shipped_variant(name: &str) -> Result<Variant, VariantError> {
    let file = format!("{name}.ron");
    let load = |f: &str, text: &str| Variant::from_ron(&format!("assets/variants/{f}"), text);
    if let Some((f, text)) = embedded::SHIPPED.iter().find(|(f, _)| *f == file) {
        return load(f, text);
    }
    // Only a name that is no file's is looked up among the aliases, so parsing every file is
    // the rare path.
    let renamed = embedded::SHIPPED
        .iter()
        .filter_map(|(f, text)| load(f, text).ok())
        .find(|v| v.aliases.iter().any(|a| a == name));
    match renamed {
        Some(v) => Ok(v),
        None => Err(VariantError::whole_file(
            name,
            format!(
                "no shipped variant is called `{name}`; shipped: {}",
                shipped_variants().collect::<Vec<_>>().join(", ")
            ),
        )),
    }
}

/// One problem in a family's rules, found by validation: the field (a path such as
/// `white_camp` or `setup[3]`) and what is wrong with it, in a modder's words.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FieldError {
    pub field: String,
    pub message: String,
}

impl FieldError {
    pub fn new(field: impl Into<String>, message: impl Into<String>) -> Self {
        FieldError {
            field: field.into(),
            message: message.into(),
        }
    }
}

/// Why a variant file was rejected: every problem found, each with the file, the line (and
/// column) where it is known, and the field.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct VariantError {
    pub file: String,
    pub problems: Vec<Problem>,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Problem {
    pub line: Option<usize>,
    pub column: Option<usize>,
    pub field: Option<String>,
    pub message: String,
}

impl VariantError {
    fn whole_file(file: &str, message: String) -> Self {
        VariantError {
            file: file.to_owned(),
            problems: vec![Problem {
                line: None,
                column: None,
                field: None,
                message,
            }],
        }
    }
}

/// Something odd about a variant file that still loads, in the errors' `file:line: field`
/// form, its message starting with `warning:`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct VariantWarning {
    pub file: String,
    pub problem: Problem,
}

impl fmt::Display for VariantWarning {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write_problem(f, &self.file, &self.problem, "warning: ")
    }
}

/// `file:line[:column]: <prefix>field `f`: message`.
fn write_problem(f: &mut fmt::Formatter<'_>, file: &str, p: &Problem, prefix: &str) -> fmt::Result {
    write!(f, "{file}")?;
    if let Some(line) = p.line {
        write!(f, ":{line}")?;
        if let Some(col) = p.column {
            write!(f, ":{col}")?;
        }
    }
    write!(f, ": {prefix}")?;
    if let Some(field) = &p.field {
        write!(f, "field `{field}`: ")?;
    }
    write!(f, "{}", p.message)
}

impl fmt::Display for VariantError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, p) in self.problems.iter().enumerate() {
            if i > 0 {
                writeln!(f)?;
            }
            write_problem(f, &self.file, p, "")?;
        }
        Ok(())
    }
}

impl std::error::Error for VariantError {}

/// RON's messages, reworded where they would puzzle a modder.
fn describe_ron_error(code: &ron::Error) -> String {
    use ron::Error as E;
    match code {
        E::NoSuchStructField {
            expected,
            found,
            outer,
        } => {
            let place = outer
                .as_deref()
                .map(|o| format!(" in {}", friendly(o)))
                .unwrap_or_default();
            format!(
                "unknown field `{found}`{place}; the fields allowed here are: {}",
                expected.join(", ")
            )
        }
        E::MissingStructField { field, outer } => {
            let place = outer
                .as_deref()
                .map(|o| format!(" in {}", friendly(o)))
                .unwrap_or_default();
            format!("the field `{field}`{place} is missing")
        }
        E::NoSuchEnumVariant {
            expected,
            found,
            outer,
        } => {
            let place = outer
                .as_deref()
                .map(|o| format!(" for {}", friendly(o)))
                .unwrap_or_default();
            format!(
                "`{found}` is not a known choice{place}; use one of: {}",
                expected.join(", ")
            )
        }
        E::DuplicateStructField { field, .. } => format!("the field `{field}` is given twice"),
        other => format!("syntax error: {other}"),
    }
}

/// A Rust type name as a modder would call the place in the file.
fn friendly(type_name: &str) -> String {
    match type_name {
        "VariantFile" => "the variant".to_owned(),
        "FamilySpec" => "`rules` (the game family)".to_owned(),
        "Race" | "Focus" | "Gipf" => format!("`rules: {type_name}(…)`"),
        "SeatSpec" => "a seat of `seats` (`(name: …, home: …, target: …)`)".to_owned(),
        "RegionSpec" => "a region of `regions` (`(name: …, cells: […])`)".to_owned(),
        other => match other.strip_suffix("Spec") {
            Some(family) => format!("`rules: {family}(…)`"),
            None => format!("`{other}`"),
        },
    }
}

/// The 1-based line of `field` (a path such as `rules.gipf_reserve.white` or `rules.camps[2]`)
/// in the file: each named segment is looked for as `name:` after the previous one, so
/// `white` is found inside `gipf_reserve`, not in an earlier `reserve`. A segment that is not
/// written (a missing field) leaves the line of the last one found.
fn locate_field(text: &str, field: &str) -> Option<usize> {
    let mut from = 0;
    let mut found = None;
    // An index (`seats.3[2].target`) picks the entry: the next key is looked for that many
    // times over (the third `target:` of the list).
    let mut skip = 0;
    for segment in field.split('.') {
        let name = segment.split('[').next().unwrap_or("");
        let index = segment
            .split('[')
            .nth(1)
            .and_then(|i| i.trim_end_matches(']').parse::<usize>().ok());
        if !name.is_empty() {
            for _ in 0..=skip {
                if let Some(at) = find_key(text, name, from) {
                    found = Some(at);
                    from = at + name.len();
                }
            }
        }
        skip = index.unwrap_or(0);
    }
    found.map(|at| text[..at].matches('\n').count() + 1)
}

/// Byte offset of the first `name:` at or after `from` that is a whole word outside comments.
fn find_key(text: &str, name: &str, from: usize) -> Option<usize> {
    let mut offset = 0;
    for line in text.split_inclusive('\n') {
        let line_start = offset;
        offset += line.len();
        if offset <= from {
            continue;
        }
        let code = line.split("//").next().unwrap_or("");
        let mut search = from.saturating_sub(line_start).min(code.len());
        while !code.is_char_boundary(search) {
            search += 1;
        }
        while let Some(rel) = code[search..].find(name) {
            let at = search + rel;
            let before_ok = code[..at]
                .chars()
                .next_back()
                .is_none_or(|c| !(c.is_alphanumeric() || c == '_'));
            if before_ok && code[at + name.len()..].trim_start().starts_with(':') {
                return Some(line_start + at);
            }
            search = at + name.len();
        }
    }
    None
}

/// FNV-1a, 64 bit: a stable content hash (not for security).
pub fn fnv1a(bytes: &[u8]) -> u64 {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for &b in bytes {
        h ^= u64::from(b);
        h = h.wrapping_mul(0x0000_0100_0000_01b3);
    }
    h
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn locates_fields_by_name() {
        let text = "(\n  format_version: 1,\n  rules: Race(\n    white_camp: [\"a1\"], // white_camp\n  ),\n)";
        assert_eq!(locate_field(text, "rules.white_camp[0]"), Some(4));
        assert_eq!(locate_field(text, "format_version"), Some(2));
        assert_eq!(locate_field(text, "rules.black_camp"), Some(3));
        let nested =
            "(\n  reserve: (white: 1, black: 2),\n  gipf_reserve: (\n    white: 3,\n  ),\n)";
        assert_eq!(locate_field(nested, "rules.gipf_reserve.white"), Some(4));
        assert_eq!(locate_field(nested, "reserve.white"), Some(2));
    }

    #[test]
    fn every_shipped_variant_is_valid_and_named_after_its_file() {
        let mut names = std::collections::HashSet::new();
        for (file, text) in shipped_files() {
            let v = Variant::from_ron(file, text).unwrap_or_else(|e| panic!("{e}"));
            assert_eq!(format!("{}.ron", v.name), *file);
            assert_eq!(v.warnings, [], "{file}");
            // A name or alias that two files share would make one of them unreachable.
            for name in std::iter::once(&v.name).chain(&v.aliases) {
                assert!(names.insert(name.clone()), "`{name}` names two variants");
            }
        }
    }

    #[test]
    fn file_stems_of_labels() {
        assert_eq!(file_stem("assets/variants/halma-16.ron"), Some("halma-16"));
        assert_eq!(file_stem("mods://my-game.ron"), Some("my-game"));
        assert_eq!(file_stem(r"C:\mods\my-game.ron"), Some("my-game"));
        assert_eq!(file_stem("my-game.ron"), Some("my-game"));
        assert_eq!(file_stem("pasted text"), None);
    }
}
