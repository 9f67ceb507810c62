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
        "unknown-top-field.ron:5:5: unknown field `author` in the variant; the fields allowed here are: format_version, name, aliases, title, description, rules"
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

// ----- names: former names (aliases) and a name that differs from its file ------------------

#[test]
fn renamed_variants_answer_to_their_former_names() {
    for (old, new) in [
        ("gipf-seed", "gipf-steps"),
        ("gipf-seed-gipf", "gipf-steps-gipf-pieces"),
    ] {
        let v = boardcraft_rules::shipped_variant(old).unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(v.name, new);
        assert!(v.is_called(old) && v.is_called(new));
        assert_eq!(Variant::resolve(old).unwrap().name, new);
        assert_eq!(Variant::resolve(new).unwrap().content_hash, v.content_hash);
        // Only the current names are listed (the menu, `list`, the soak).
        assert!(!boardcraft_rules::shipped_variants().any(|n| n == old));
    }
    assert!(
        !Variant::resolve("gipf-steps")
            .unwrap()
            .is_called("gipf-seed-gipf")
    );
}

fn with_aliases(aliases: &str) -> String {
    let (_, text) = boardcraft_rules::variant::shipped_files()
        .iter()
        .find(|(f, _)| *f == "ugolki-hg-3x3.ron")
        .unwrap();
    text.replace(
        "    name: \"ugolki-hg-3x3\",\n",
        &format!("    name: \"ugolki-hg-3x3\",\n    aliases: {aliases},\n"),
    )
}

#[test]
fn a_mod_may_keep_its_former_names_too() {
    let v = Variant::from_ron("ugolki-hg-3x3.ron", &with_aliases("[\"my-corners\"]")).unwrap();
    assert_eq!(v.aliases, ["my-corners"]);
    assert!(v.is_called("my-corners"));
}

#[test]
fn bad_aliases_are_located_and_explained() {
    let text = with_aliases("[\"Old Name\", \"ugolki-hg-3x3\", \"old\", \"old\"]");
    let e = Variant::from_ron("ugolki-hg-3x3.ron", &text)
        .unwrap_err()
        .to_string();
    let lines: Vec<&str> = e.lines().collect();
    assert_eq!(
        lines,
        [
            "ugolki-hg-3x3.ron:7: field `aliases[0]`: `Old Name` is not a usable variant name: use lower-case letters, digits and '-'",
            "ugolki-hg-3x3.ron:7: field `aliases[1]`: `ugolki-hg-3x3` is the variant's own name; aliases are its former names",
            "ugolki-hg-3x3.ron:7: field `aliases[3]`: `old` is listed twice",
        ],
        "{e}"
    );
}

/// The name wins, but the file and the name disagree on what the variant is called: a warning
/// in the errors' form, on the line of `name`.
#[test]
fn a_name_that_differs_from_the_file_name_is_a_warning() {
    let (_, text) = boardcraft_rules::variant::shipped_files()
        .iter()
        .find(|(f, _)| *f == "halma-16.ron")
        .unwrap();
    let v = Variant::from_ron("mods/my-halma.ron", text).unwrap();
    assert_eq!(v.name, "halma-16");
    let warnings: Vec<String> = v.warnings.iter().map(ToString::to_string).collect();
    assert_eq!(
        warnings,
        [
            "mods/my-halma.ron:6: warning: field `name`: the variant is called `halma-16` but its file is `my-halma.ron`; the game, saves and `--variant` know it as `halma-16`, so rename the file to `halma-16.ron` or set `name: \"my-halma\"`"
        ]
    );
    // Asset paths count by their last component; a label that is no file name is not judged.
    assert!(
        Variant::from_ron("mods://halma-16.ron", text)
            .unwrap()
            .warnings
            .is_empty()
    );
    assert!(
        Variant::from_ron("pasted", text)
            .unwrap()
            .warnings
            .is_empty()
    );
}

#[test]
fn from_path_checks_the_name_against_the_real_file_name() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("corners.ron");
    std::fs::write(&path, with_aliases("[]")).unwrap();
    let v = Variant::from_path(&path).unwrap();
    assert_eq!(v.warnings.len(), 1, "{:?}", v.warnings);
    assert_eq!(v.warnings[0].problem.field.as_deref(), Some("name"));
    assert_eq!(v.warnings[0].problem.line, Some(6));
}
