//! Errors of puzzle and lesson files: every problem found, each with the file, the line (and
//! column where RON knows it) and the field, in the same form as variant files'.
use std::fmt;

pub use boardcraft_rules::variant::Problem;

/// Why a puzzle or lesson file was rejected.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FileError {
    pub file: String,
    pub problems: Vec<Problem>,
}

impl FileError {
    pub fn whole(file: &str, message: impl Into<String>) -> Self {
        FileError {
            file: file.to_owned(),
            problems: vec![Problem {
                line: None,
                column: None,
                field: None,
                message: message.into(),
            }],
        }
    }
}

impl fmt::Display for FileError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, p) in self.problems.iter().enumerate() {
            if i > 0 {
                writeln!(f)?;
            }
            write!(f, "{}", self.file)?;
            if let Some(line) = p.line {
                write!(f, ":{line}")?;
                if let Some(col) = p.column {
                    write!(f, ":{col}")?;
                }
            }
            write!(f, ": ")?;
            if let Some(field) = &p.field {
                write!(f, "field `{field}`: ")?;
            }
            write!(f, "{}", p.message)?;
        }
        Ok(())
    }
}

impl std::error::Error for FileError {}

/// RON's messages in a modder's words.
pub(crate) fn describe_ron_error(code: &ron::Error) -> String {
    use ron::Error as E;
    let place = |outer: &Option<String>| {
        outer
            .as_deref()
            .map(|o| format!(" in {}", friendly(o)))
            .unwrap_or_default()
    };
    match code {
        E::NoSuchStructField {
            expected,
            found,
            outer,
        } => format!(
            "unknown field `{found}`{}; the fields allowed here are: {}",
            place(outer),
            expected.join(", ")
        ),
        E::MissingStructField { field, outer } => {
            format!("the field `{field}`{} is missing", place(outer))
        }
        E::NoSuchEnumVariant {
            expected,
            found,
            outer,
        } => format!(
            "`{found}` is not a known choice{}; use one of: {}",
            place(outer).replacen(" in ", " for ", 1),
            expected.join(", ")
        ),
        E::DuplicateStructField { field, .. } => format!("the field `{field}` is given twice"),
        other => format!("syntax error: {other}"),
    }
}

fn friendly(type_name: &str) -> String {
    match type_name {
        "PuzzleFile" => "the puzzle file".into(),
        "PuzzleEntry" => "a puzzle".into(),
        "LessonFile" => "the lesson file".into(),
        "StepEntry" => "a lesson step".into(),
        "Text" => "a text (`(en: \"…\", ru: \"…\")`)".into(),
        "Goal" => "`goal`".into(),
        "Difficulty" => "`difficulty`".into(),
        "Manifest" => "the manifest".into(),
        other => format!("`{other}`"),
    }
}

/// Byte offsets of every `name:` key (a whole word followed by `:`, outside `//` comments
/// and outside strings) at or after `from`.
fn keys(text: &str, name: &str, from: usize) -> Vec<usize> {
    let mut out = Vec::new();
    let bytes = text.as_bytes();
    let mut in_string = false;
    let mut i = 0;
    while i < bytes.len() {
        let c = bytes[i];
        if in_string {
            if c == b'\\' {
                i += 2;
                continue;
            }
            if c == b'"' {
                in_string = false;
            }
            i += 1;
            continue;
        }
        if c == b'"' {
            in_string = true;
        } else if c == b'/' && bytes.get(i + 1) == Some(&b'/') {
            while i < bytes.len() && bytes[i] != b'\n' {
                i += 1;
            }
            continue;
        } else if i >= from
            && text[i..].starts_with(name)
            && (i == 0 || !(bytes[i - 1].is_ascii_alphanumeric() || bytes[i - 1] == b'_'))
            && text[i + name.len()..].trim_start().starts_with(':')
        {
            out.push(i);
        }
        i += 1;
    }
    out
}

fn line_of(text: &str, at: usize) -> usize {
    text[..at].matches('\n').count() + 1
}

/// The line of a field such as `puzzles[3].hint.ru` or `steps[2].solutions[0]`: the list key,
/// then the element (the (n+1)-th occurrence of the field's first key after the list key when
/// every element writes it, else of `anchor`, a key every element has), then the nested keys.
pub(crate) fn locate(text: &str, field: &str, elements: usize, anchor: &str) -> Option<usize> {
    let mut segments = field.split('.');
    let first = segments.next()?;
    let Some((list, index)) = first
        .split_once('[')
        .and_then(|(l, i)| Some((l, i.trim_end_matches(']').parse::<usize>().ok()?)))
    else {
        return keys(text, first, 0).first().map(|&at| line_of(text, at));
    };
    let start = *keys(text, list, 0).first()?;
    let rest: Vec<&str> = segments.collect();
    let mut at = start;
    let mut rest_iter = rest.iter().map(|s| s.split('[').next().unwrap_or(""));
    let key = rest_iter.next();
    match key {
        Some(k) if keys(text, k, start).len() == elements => {
            at = keys(text, k, start).get(index).copied().unwrap_or(start);
        }
        Some(k) => {
            let element = keys(text, anchor, start)
                .get(index)
                .copied()
                .unwrap_or(start);
            at = keys(text, k, element).first().copied().unwrap_or(element);
        }
        None => {
            if let Some(&e) = keys(text, anchor, start).get(index) {
                at = e;
            }
        }
    }
    for k in rest_iter {
        if let Some(&next) = keys(text, k, at).first() {
            at = next;
        }
    }
    Some(line_of(text, at))
}

/// Whether the text has a `name:` key outside comments and strings.
pub(crate) fn has_key(text: &str, name: &str) -> bool {
    !keys(text, name, 0).is_empty()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fields_are_found_in_their_element() {
        let text = "(\n puzzles: [\n  (id: \"a\", hint: (en: \"x\", ru: \"y\")),\n  (id: \"b\", // hint: no\n   hint: (en: \"hint: z\",\n    ru: \"w\"),\n  ),\n ],\n)";
        assert_eq!(locate(text, "puzzles[1].hint.ru", 2, "id"), Some(6));
        assert_eq!(locate(text, "puzzles[0].hint", 2, "id"), Some(3));
        assert_eq!(locate(text, "puzzles[1].source", 2, "id"), Some(4));
        assert_eq!(locate(text, "puzzles[1]", 2, "id"), Some(4));
    }
}
