//! SPEC.md §11 "Globs" and §11.1 "Globs", row by row: each pattern against paths relative to
//! the holder directory.

use super::*;
use crate::rules::Dialect::{self, Claude, Cline, Copilot, Cursor, Kiro, Windsurf};

fn matches(dialect: Dialect, pattern: &str, path: &str) -> bool {
    Pattern::new(dialect, pattern)
        .unwrap_or_else(|e| panic!("{pattern}: {e:?}"))
        .matches(path.as_bytes())
}

#[test]
fn star_is_any_run_but_a_slash_and_question_one_character_but_a_slash() {
    assert!(matches(Claude, "src/*.rs", "src/main.rs"));
    assert!(!matches(Claude, "src/*.rs", "src/a/main.rs"));
    assert!(matches(Claude, "src/?.rs", "src/a.rs"));
    assert!(!matches(Claude, "src/?.rs", "src/ab.rs"));
    assert!(!matches(Claude, "a?b", "a/b"));
    assert!(
        matches(Claude, "?.rs", "é.rs"),
        "one character, not one byte"
    );
}

#[test]
fn double_star_as_a_whole_element_is_any_number_of_elements_none_included() {
    for path in ["src/x.rs", "src/a/x.rs", "src/a/b/c/x.rs"] {
        assert!(matches(Claude, "src/**/x.rs", path), "{path}");
    }
    assert!(matches(Claude, "**/x.rs", "x.rs"));
    assert!(matches(Claude, "src/**", "src/a/b"));
    // `**` that is not a whole element is `*`.
    assert!(matches(Claude, "a**b/c", "axxb/c"));
    assert!(!matches(Claude, "a**b/c", "ax/xb/c"));
}

#[test]
fn classes_alternatives_and_their_fine_points() {
    assert!(matches(Claude, "[abc].rs", "b.rs"));
    assert!(!matches(Claude, "[!abc].rs", "b.rs"));
    assert!(!matches(Claude, "[^abc].rs", "b.rs"));
    assert!(matches(Claude, "[^abc].rs", "d.rs"));
    assert!(
        matches(Claude, "[]x].md", "].md"),
        "`]` right after `[` is literal"
    );
    assert!(matches(Claude, "[!]x].md", "y.md"));
    assert!(matches(Claude, "[a-c].md", "b.md"), "ranges by code point");
    assert!(matches(Claude, "*.{rs,go}", "main.go"));
    assert!(
        matches(Claude, "{src/{a,b},lib}/*.rs", "src/b/x.rs"),
        "braces nest"
    );
    assert!(matches(Claude, "{src/{a,b},lib}/*.rs", "lib/x.rs"));
    assert!(!matches(Claude, "{src/{a,b},lib}/*.rs", "src/c/x.rs"));
    assert!(matches(Claude, "a\\b", "a\\b"), "a backslash is literal");
    assert!(
        matches(Claude, ".github/*.yml", ".github/ci.yml"),
        "dot names match like others"
    );
    assert!(matches(Claude, "*", ".env"));
}

#[test]
fn an_invalid_pattern_is_refused() {
    for pattern in ["[abc", "src/{a,b", "src/a,b}", "{a,{b}"] {
        assert!(Pattern::new(Claude, pattern).is_err(), "{pattern}");
    }
}

#[test]
fn vs_code_dialects_match_at_any_depth_and_a_leading_slash_anchors() {
    for dialect in [Copilot, Cursor, Windsurf, Kiro] {
        assert!(matches(dialect, "*.ts", "src/app/x.ts"), "{dialect:?}");
        assert!(matches(dialect, "src/*.ts", "web/src/x.ts"), "{dialect:?}");
        assert!(
            !matches(dialect, "/src/*.ts", "web/src/x.ts"),
            "{dialect:?}"
        );
        assert!(matches(dialect, "/src/*.ts", "src/x.ts"), "{dialect:?}");
    }
    for dialect in [Claude, Cline] {
        assert!(
            !matches(dialect, "*.ts", "src/x.ts"),
            "{dialect:?}: anchored"
        );
        assert!(matches(dialect, "*.ts", "x.ts"), "{dialect:?}");
        assert!(
            matches(dialect, "/src/*.ts", "src/x.ts"),
            "{dialect:?}: `/` removed"
        );
    }
}

#[test]
fn copilot_folds_ascii_case_and_the_others_do_not() {
    assert!(matches(Copilot, "**/*.TS", "src/x.ts"));
    assert!(matches(Copilot, "SRC/**", "src/A.ts"));
    assert!(!matches(Copilot, "É.md", "é.md"), "ASCII letters only");
    assert!(!matches(Cursor, "**/*.TS", "src/x.ts"));
    assert!(!matches(Claude, "*.TS", "x.ts"));
}

#[test]
fn the_holder_directory_itself_matches_only_double_star() {
    assert!(matches(Claude, "**", ""));
    assert!(!matches(Claude, "*", ""));
    assert!(!matches(Claude, "**/*", ""));
    assert!(matches(Copilot, "**", ""));
    assert!(!matches(Copilot, "*", ""));
}

#[test]
fn a_name_that_is_not_utf8_is_one_character_for_question_mark() {
    let pattern = Pattern::new(Claude, "?.md").unwrap();
    assert!(pattern.matches(b"\xff.md"));
    assert!(Pattern::new(Claude, "*.md").unwrap().matches(b"a\xff.md"));
}

#[test]
fn a_hostile_pattern_matches_in_time_linear_in_its_length_times_the_paths() {
    let pattern = format!("{}b", "*a".repeat(200));
    let name = "a".repeat(5_000);
    assert!(!matches(Claude, &pattern, &name));
    assert!(
        Pattern::new(Claude, &"{a,b}".repeat(30)).is_err(),
        "2^30 patterns"
    );
    assert!(
        Pattern::new(Claude, &"{".repeat(1_000_000)).is_err(),
        "no deep recursion"
    );
    let deep = format!("{}x", "**/".repeat(100));
    let path = ["d"; 2_000].join("/");
    assert!(!matches(Claude, &deep, &path));
}
