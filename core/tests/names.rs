//! SPEC.md §9 and its fine points in §11.1 ("Names"): names of several elements, and
//! `all_names`, on the OS and through a custom file system. Every test is named after the rule
//! it pins.

mod support;

use agentsmd_core::{Chain, ErrorKind, Options, Outcome, Reason, Source};
use std::sync::Arc;

use support::{at, custom, err, ok, omitted, os, paths, text, Op, TestFs, Tree};

use Reason::{OverBudget, Shadowed, Superseded};

fn probes(chain: &Chain) -> Vec<(String, Outcome)> {
    let probes = chain.probes.iter().filter(|p| p.source == Source::Chain);
    probes.map(|p| (text(&p.path), p.outcome)).collect()
}

fn by(path: String, size: u64, reason: Reason, by: String) -> (String, u64, Reason, String) {
    (path, size, reason, by)
}

// ---------------------------------------------------------------------------------------------
// §9 A name of several elements
// ---------------------------------------------------------------------------------------------

#[test]
fn s9_a_name_of_several_elements_names_the_file_below_each_directory() {
    let tree = Tree::new();
    tree.file(".claude/CLAUDE.md", "root\n");
    tree.file("a/.claude/CLAUDE.md", "a\n");
    tree.dir("a/b/.claude");
    let options = os(&tree).names([".claude/CLAUDE.md"]).report(true);
    let result = ok(tree.path("a/b/main.rs"), &options);
    assert_eq!(
        paths(&result.files),
        [
            at(&tree, ".claude/CLAUDE.md"),
            at(&tree, "a/.claude/CLAUDE.md")
        ]
    );
    assert!(result.omitted.is_empty());
    // Its probe is D/A/B, found or not.
    assert_eq!(
        probes(&result),
        [
            (at(&tree, ".claude/CLAUDE.md"), Outcome::Included),
            (at(&tree, "a/.claude/CLAUDE.md"), Outcome::Included),
            (at(&tree, "a/b/.claude/CLAUDE.md"), Outcome::NotFound),
        ]
    );
}

#[test]
fn s9_names_of_one_and_several_elements_shadow_in_names_order() {
    let tree = Tree::new();
    tree.file("AGENTS.md", "agents\n");
    tree.file(".github/copilot-instructions.md", "copilot\n");
    tree.file("a/.github/copilot-instructions.md", "a copilot\n");
    let options = os(&tree).names(["AGENTS.md", ".github/copilot-instructions.md"]);
    let result = ok(tree.path("a"), &options);
    assert_eq!(
        paths(&result.files),
        [
            at(&tree, "AGENTS.md"),
            at(&tree, "a/.github/copilot-instructions.md")
        ]
    );
    assert_eq!(
        omitted(&result.omitted),
        [by(
            at(&tree, ".github/copilot-instructions.md"),
            8,
            Shadowed,
            at(&tree, "AGENTS.md")
        )]
    );
}

#[test]
fn s9_the_last_element_must_be_listed_under_exactly_that_spelling() {
    let tree = Tree::new();
    tree.file(".claude/claude.md", "lower case\n");
    tree.file("a/.claude/CLAUDE.md", "exact\n");
    let result = ok(tree.path("a"), &os(&tree).names([".claude/CLAUDE.md"]));
    assert_eq!(paths(&result.files), [at(&tree, "a/.claude/CLAUDE.md")]);
    assert!(result.omitted.is_empty());
}

#[test]
fn s9_a_first_element_that_is_no_directory_probes_not_found_and_is_no_error() {
    let tree = Tree::new();
    tree.file(".claude", "a file, not a directory\n");
    tree.file("CLAUDE.md", "fallback\n");
    let options = os(&tree)
        .names([".claude/CLAUDE.md", "CLAUDE.md"])
        .report(true);
    let result = ok(tree.path(""), &options);
    assert_eq!(paths(&result.files), [at(&tree, "CLAUDE.md")]);
    assert_eq!(
        probes(&result),
        [
            (at(&tree, ".claude/CLAUDE.md"), Outcome::NotFound),
            (at(&tree, "CLAUDE.md"), Outcome::Included),
        ]
    );
}

#[test]
fn s9_a_last_element_that_is_no_regular_file_is_no_file() {
    let tree = Tree::new();
    tree.dir(".claude/CLAUDE.md");
    tree.file("CLAUDE.md", "fallback\n");
    let options = os(&tree)
        .names([".claude/CLAUDE.md", "CLAUDE.md"])
        .report(true);
    let result = ok(tree.path(""), &options);
    assert_eq!(paths(&result.files), [at(&tree, "CLAUDE.md")]);
    assert_eq!(
        probes(&result),
        [
            (at(&tree, ".claude/CLAUDE.md"), Outcome::NotAFile),
            (at(&tree, "CLAUDE.md"), Outcome::Included),
        ]
    );
}

#[test]
#[cfg_attr(
    windows,
    ignore = "Wine makes no symbolic links (support::MAKES_LINKS)"
)]
fn s9_links_on_the_way_are_followed() {
    let tree = Tree::new();
    tree.file("shared/CLAUDE.md", "shared\n");
    tree.symlink(".claude", "shared");
    tree.file("a/real.md", "linked file\n");
    tree.symlink("a/.claude/CLAUDE.md", "../real.md");
    let result = ok(tree.path("a"), &os(&tree).names([".claude/CLAUDE.md"]));
    assert_eq!(
        paths(&result.files),
        [
            at(&tree, ".claude/CLAUDE.md"),
            at(&tree, "a/.claude/CLAUDE.md")
        ]
    );
    assert_eq!(
        result
            .files
            .iter()
            .map(|f| text(&f.content))
            .collect::<Vec<_>>(),
        ["shared\n", "linked file\n"]
    );
}

#[test]
#[cfg_attr(
    windows,
    ignore = "Wine makes no symbolic links (support::MAKES_LINKS)"
)]
fn s9_a_first_element_leading_out_of_a_confined_root_is_omitted_as_escapes() {
    let outside = Tree::new();
    outside.file("CLAUDE.md", "secret\n");
    let tree = Tree::new();
    tree.symlink(
        ".claude",
        outside.root().to_str().expect("a UTF-8 temporary path"),
    );
    tree.file("AGENTS.md", "agents\n");
    let options = os(&tree)
        .names([".claude/CLAUDE.md", "AGENTS.md"])
        .confine(true);
    let result = ok(tree.path(""), &options);
    assert_eq!(paths(&result.files), [at(&tree, "AGENTS.md")]);
    assert_eq!(
        omitted(&result.omitted),
        [by(
            at(&tree, ".claude/CLAUDE.md"),
            0,
            Reason::Escapes,
            String::new()
        )]
    );
}

#[test]
fn s9_invalid_names_are_invalid_arguments_before_any_io() {
    let tree = Tree::new();
    for name in [
        &b"a//b"[..],
        b"./b",
        b"a/.",
        b"a/../b",
        b"/a/b",
        b"a/b/",
        b"a/\0b",
        b"",
    ] {
        let options = os(&tree).names([name]);
        let error = err(tree.path("missing/deeper"), &options);
        assert_eq!(
            error.kind(),
            ErrorKind::InvalidArgument,
            "{name:?}: {error}"
        );
        let fs = TestFs::new().file("a/b", "a file\n").build();
        let error = err("a", &custom(&fs).names([name]));
        assert_eq!(
            error.kind(),
            ErrorKind::InvalidArgument,
            "{name:?}: {error}"
        );
        assert!(fs.calls().is_empty(), "{name:?}: asked {:?}", fs.calls());
    }
}

#[test]
fn s9_a_custom_file_system_names_the_file_below_each_directory() {
    let fs = TestFs::new()
        .file(".claude/CLAUDE.md", "root\n")
        .file("a/.claude", "a file\n")
        .file("a/b/.claude/CLAUDE.md", "b\n")
        .file("a/b/.claude/other.md", "other\n")
        .build();
    let options = custom(&fs).names([".claude/CLAUDE.md"]);
    let result = ok("a/b", &options);
    assert_eq!(
        paths(&result.files),
        [".claude/CLAUDE.md", "a/b/.claude/CLAUDE.md"]
    );
}

#[test]
fn s9_a_custom_file_system_asked_in_batches_gives_the_same_chain() {
    let build = |batched: bool| {
        let fs = TestFs::new()
            .file("AGENTS.md", "agents\n")
            .file(".claude/CLAUDE.md", "root\n")
            .file("a/.claude/CLAUDE.md", "a\n")
            .dir("a/b");
        match batched {
            true => fs.batched().build(),
            false => fs.build(),
        }
    };
    let asked = |fs: &Arc<TestFs>, all_names| {
        let options = custom(fs)
            .names([".claude/CLAUDE.md", "AGENTS.md"])
            .all_names(all_names)
            .report(true);
        ok("a/b", &options)
    };
    for all_names in [false, true] {
        let batched = build(true);
        let result = asked(&batched, all_names);
        assert_eq!(result, asked(&build(false), all_names));
        // SPEC §3.1: one listing batch, the names' directories in it, and one read batch.
        assert_eq!(batched.batches_of(Op::ListMany), 1);
        assert_eq!(batched.batches_of(Op::ReadMany), 1);
        assert_eq!(batched.calls(), [], "no single question");
        let want: &[&str] = match all_names {
            false => &[".claude/CLAUDE.md", "a/.claude/CLAUDE.md"],
            true => &[".claude/CLAUDE.md", "AGENTS.md", "a/.claude/CLAUDE.md"],
        };
        assert_eq!(paths(&result.files), want);
    }
}

// ---------------------------------------------------------------------------------------------
// §9 `all_names`
// ---------------------------------------------------------------------------------------------

#[test]
fn s9_all_names_includes_every_name_found_in_names_order() {
    let tree = Tree::new();
    tree.file("CLAUDE.local.md", "root local\n");
    tree.file("CLAUDE.md", "root\n");
    tree.file("a/CLAUDE.md", "a\n");
    tree.file("a/.claude/CLAUDE.md", "a nested\n");
    let names = ["CLAUDE.md", ".claude/CLAUDE.md", "CLAUDE.local.md"];
    let options = os(&tree).names(names).all_names(true);
    let result = ok(tree.path("a/file.rs"), &options);
    assert_eq!(
        paths(&result.files),
        [
            at(&tree, "CLAUDE.md"),
            at(&tree, "CLAUDE.local.md"),
            at(&tree, "a/CLAUDE.md"),
            at(&tree, "a/.claude/CLAUDE.md"),
        ]
    );
    assert!(result.omitted.is_empty(), "nothing is shadowed");
}

#[test]
fn s9_without_all_names_the_first_name_stands_as_in_section_1() {
    let tree = Tree::new();
    tree.file("CLAUDE.md", "root\n");
    tree.file("CLAUDE.local.md", "root local\n");
    let options = os(&tree).names(["CLAUDE.md", "CLAUDE.local.md"]);
    let result = ok(tree.path(""), &options);
    assert_eq!(paths(&result.files), [at(&tree, "CLAUDE.md")]);
    assert_eq!(
        omitted(&result.omitted),
        [by(
            at(&tree, "CLAUDE.local.md"),
            11,
            Shadowed,
            at(&tree, "CLAUDE.md")
        )]
    );
}

#[test]
fn s9_all_names_budgets_and_probes_are_per_file() {
    let tree = Tree::new();
    tree.file("CLAUDE.md", "12345\n");
    tree.file("CLAUDE.local.md", "1234567890\n");
    tree.file("a/CLAUDE.md", "a\n");
    let options = os(&tree)
        .names(["CLAUDE.md", "CLAUDE.local.md"])
        .all_names(true)
        .budget(10)
        .report(true);
    let result = ok(tree.path("a"), &options);
    assert_eq!(paths(&result.files), [at(&tree, "CLAUDE.md")]);
    // The first file over the budget ends the chain (§1).
    assert_eq!(
        omitted(&result.omitted),
        [
            by(at(&tree, "CLAUDE.local.md"), 11, OverBudget, String::new()),
            by(at(&tree, "a/CLAUDE.md"), 2, OverBudget, String::new()),
        ]
    );
    assert_eq!(
        probes(&result),
        [
            (at(&tree, "CLAUDE.md"), Outcome::Included),
            (at(&tree, "CLAUDE.local.md"), Outcome::OverBudget),
            (at(&tree, "a/CLAUDE.md"), Outcome::OverBudget),
            (at(&tree, "a/CLAUDE.local.md"), Outcome::NotFound),
        ]
    );
}

#[test]
fn s9_all_names_with_nearest_keeps_every_file_of_the_nearest_directory() {
    let tree = Tree::new();
    tree.file("CLAUDE.md", "root\n");
    tree.file("CLAUDE.local.md", "root local\n");
    tree.file("a/CLAUDE.local.md", "a local\n");
    tree.file("a/.claude/CLAUDE.md", "a nested\n");
    let names = ["CLAUDE.md", ".claude/CLAUDE.md", "CLAUDE.local.md"];
    let options = os(&tree).names(names).all_names(true).nearest(true);
    let result = ok(tree.path("a/b/c"), &options);
    assert_eq!(
        paths(&result.files),
        [
            at(&tree, "a/.claude/CLAUDE.md"),
            at(&tree, "a/CLAUDE.local.md")
        ]
    );
    // A superseded file's `by` is the nearest directory's first file in `names` order.
    let nearest = at(&tree, "a/.claude/CLAUDE.md");
    assert_eq!(
        omitted(&result.omitted),
        [
            by(at(&tree, "CLAUDE.md"), 5, Superseded, nearest.clone()),
            by(at(&tree, "CLAUDE.local.md"), 11, Superseded, nearest),
        ]
    );
}

#[test]
fn s9_all_names_through_a_custom_file_system() {
    let fs = TestFs::new()
        .file("CLAUDE.md", "root\n")
        .file("CLAUDE.local.md", "root local\n")
        .file("a/.claude/CLAUDE.md", "a nested\n")
        .build();
    let names = ["CLAUDE.md", ".claude/CLAUDE.md", "CLAUDE.local.md"];
    let result = ok("a", &custom(&fs).names(names).all_names(true));
    assert_eq!(
        paths(&result.files),
        ["CLAUDE.md", "CLAUDE.local.md", "a/.claude/CLAUDE.md"]
    );
    assert!(result.omitted.is_empty());
}

#[test]
fn s9_all_names_is_off_by_default() {
    assert!(!Options::default().all_names);
}

#[test]
#[cfg(unix)]
fn every_rule_here_holds_through_batches() {
    support::rerun_through_batches(&[]);
}
