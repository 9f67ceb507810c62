//! Errors in the frame every variant file shares (before any family's rules are read).
use boardcraft_rules::Variant;

fn error_of(file: &str) -> String {
    let path = format!("{}/tests/broken/frame/{file}", env!("CARGO_MANIFEST_DIR"));
    let text = std::fs::read_to_string(&path).unwrap();
    match Variant::from_ron(file, &text) {
        Ok(v) => panic!("{file} was accepted as {}", v.name),
        Err(e) => e.to_string(),
    }
}

#[test]
fn syntax_error_names_line_and_column() {
    assert_eq!(
        error_of("syntax-error.ron"),
        "syntax-error.ron:5:5: syntax error: Expected comma"
    );
}

#[test]
fn unknown_top_level_field_lists_the_allowed_ones() {
    assert_eq!(
        error_of("unknown-top-field.ron"),
        "unknown-top-field.ron:5:5: unknown field `author` in the variant; the fields allowed here are: format_version, name, title, description, rules"
    );
}

#[test]
fn unknown_family_lists_the_families() {
    assert_eq!(
        error_of("unknown-family.ron"),
        "unknown-family.ron:5:12: `Chess` is not a known choice for `rules` (the game family); use one of: Race, Focus, Gipf"
    );
}

#[test]
fn missing_field_is_named() {
    let e = error_of("missing-title.ron");
    assert!(e.starts_with("missing-title.ron:"), "{e}");
    assert!(
        e.ends_with("the field `title` in the variant is missing"),
        "{e}"
    );
}

#[test]
fn io_errors_name_the_file() {
    let e = Variant::from_path(std::path::Path::new("/nonexistent/x.ron")).unwrap_err();
    assert!(
        e.to_string()
            .starts_with("/nonexistent/x.ron: cannot read the file:"),
        "{e}"
    );
}

#[test]
fn unknown_shipped_name_lists_the_shipped_ones() {
    let e = Variant::resolve("no-such-game").unwrap_err().to_string();
    assert!(
        e.starts_with("no-such-game: no shipped variant is called `no-such-game`"),
        "{e}"
    );
}
