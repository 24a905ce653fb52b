//! SPEC.md §10, sessions, and their fine points in §11.1: what newly applies as an agent touches
//! paths, given once, omitted once, within the session's budgets, each directory looked up
//! once. Every test is named after the rule it pins.

mod support;

use std::sync::Arc;

use agentsmd_core::{chain, render, Chain, ErrorKind, Outcome, Reason, Session};
use support::{at, custom, omitted, os, paths, text, Op, TestFs, Tree};

fn touch(session: &Session, path: impl AsRef<std::path::Path>) -> Chain {
    let path = path.as_ref();
    session
        .touch(path)
        .unwrap_or_else(|err| panic!("touch({}): {err}", path.display()))
}

fn contents(chain: &Chain) -> Vec<String> {
    chain.files.iter().map(|f| text(&f.content)).collect()
}

/// A repository of three levels and a sibling, each with its file.
fn repository() -> Tree {
    let tree = Tree::new();
    tree.file("AGENTS.md", "root\n");
    tree.file("a/AGENTS.md", "a\n");
    tree.file("a/b/AGENTS.md", "b\n");
    tree.file("a/b/main.rs", "fn main() {}\n");
    tree.file("c/AGENTS.md", "c\n");
    tree
}

// ---------------------------------------------------------------------------------------------
// §10 touch
// ---------------------------------------------------------------------------------------------

#[test]
fn s10_the_first_touch_is_the_chain_of_its_path() {
    let tree = repository();
    let options = os(&tree).report(true);
    let session = Session::new(options.clone()).unwrap();
    let path = tree.path("a/b/main.rs");
    assert_eq!(touch(&session, &path), chain(&path, &options).unwrap());
}

#[test]
fn s10_a_later_touch_gives_only_what_the_session_has_not_given_in_chain_order() {
    let tree = repository();
    let session = Session::new(os(&tree)).unwrap();
    assert_eq!(
        contents(&touch(&session, tree.path("a"))),
        ["root\n", "a\n"]
    );
    assert_eq!(
        contents(&touch(&session, tree.path("a/b/main.rs"))),
        ["b\n"]
    );
    assert_eq!(contents(&touch(&session, tree.path("c/new.rs"))), ["c\n"]);
    // Given once: touching again gives nothing.
    assert!(touch(&session, tree.path("a/b/main.rs")).files.is_empty());
    assert!(touch(&session, tree.path("a/b")).files.is_empty());
}

#[test]
fn s10_a_path_outside_root_gives_an_empty_delta() {
    let tree = repository();
    let outside = Tree::new();
    outside.file("AGENTS.md", "outside\n");
    let session = Session::new(os(&tree)).unwrap();
    assert_eq!(touch(&session, outside.path("x.rs")), Chain::default());
    assert_eq!(
        contents(&touch(&session, tree.path("c"))),
        ["root\n", "c\n"]
    );
}

#[test]
fn s10_extra_and_overlays_are_given_by_the_first_touch_inside_root() {
    let tree = repository();
    let home = Tree::new();
    let extra = home.file("user.md", "user\n");
    home.file("overlay/AGENTS.md", "overlay\n");
    let outside = Tree::new();
    let options = os(&tree).extra([extra]).overlays([home.path("overlay")]);
    let session = Session::new(options).unwrap();
    assert_eq!(touch(&session, outside.path("x")), Chain::default());
    assert_eq!(
        contents(&touch(&session, tree.path("a"))),
        ["user\n", "root\n", "a\n", "overlay\n"]
    );
    assert_eq!(contents(&touch(&session, tree.path("c"))), ["c\n"]);
}

#[test]
fn s10_nearest_is_an_invalid_argument_with_a_session() {
    let tree = repository();
    let error = Session::new(os(&tree).nearest(true)).unwrap_err();
    assert_eq!(error.kind(), ErrorKind::InvalidArgument);
}

#[test]
fn s10_invalid_options_fail_at_the_first_touch_as_a_chain_does() {
    let tree = repository();
    let session = Session::new(os(&tree).names(["a//b"])).unwrap();
    let error = session.touch(tree.path("a")).unwrap_err();
    assert_eq!(error.kind(), ErrorKind::InvalidArgument);
}

// ---------------------------------------------------------------------------------------------
// §10 omitted once, budgets bound the session
// ---------------------------------------------------------------------------------------------

#[test]
fn s10_omitted_once_each_file_left_out_is_reported_by_one_delta() {
    let tree = repository();
    tree.file("CLAUDE.md", "shadowed\n");
    let options = os(&tree).names(["AGENTS.md", "CLAUDE.md"]);
    let session = Session::new(options).unwrap();
    let first = touch(&session, tree.path("a"));
    assert_eq!(
        omitted(&first.omitted),
        [(
            at(&tree, "CLAUDE.md"),
            9,
            Reason::Shadowed,
            at(&tree, "AGENTS.md")
        )]
    );
    assert!(touch(&session, tree.path("c")).omitted.is_empty());
}

#[test]
fn s10_budgets_bound_the_session_and_the_first_file_over_ends_it() {
    let tree = repository();
    // "root\n" (5) and "a\n" (2) fit 8; "b\n" (2) does not; "c\n" would, but the session ended.
    let session = Session::new(os(&tree).budget(8)).unwrap();
    assert_eq!(
        contents(&touch(&session, tree.path("a"))),
        ["root\n", "a\n"]
    );
    let second = touch(&session, tree.path("a/b"));
    assert!(second.files.is_empty());
    assert_eq!(
        omitted(&second.omitted),
        [(
            at(&tree, "a/b/AGENTS.md"),
            2,
            Reason::OverBudget,
            String::new()
        )]
    );
    let third = touch(&session, tree.path("c"));
    assert!(third.files.is_empty());
    assert_eq!(
        omitted(&third.omitted),
        [(
            at(&tree, "c/AGENTS.md"),
            2,
            Reason::OverBudget,
            String::new()
        )]
    );
    // Each reported once.
    assert_eq!(touch(&session, tree.path("a/b")), Chain::default());
}

#[test]
fn s10_the_rendered_budget_counts_each_non_empty_deltas_rendering() {
    let tree = repository();
    let first_rendering = {
        let session = Session::new(os(&tree)).unwrap();
        render(&touch(&session, tree.path("a")).files).len() as u64
    };
    let second_rendering = {
        let session = Session::new(os(&tree)).unwrap();
        touch(&session, tree.path("a"));
        render(&touch(&session, tree.path("a/b")).files).len() as u64
    };
    // Room for both renderings, wrappers included: both deltas fit; one byte less, the second
    // is over.
    let both = first_rendering + second_rendering;
    let session = Session::new(os(&tree).rendered_budget(both)).unwrap();
    touch(&session, tree.path("a"));
    assert_eq!(contents(&touch(&session, tree.path("a/b"))), ["b\n"]);
    let session = Session::new(os(&tree).rendered_budget(both - 1)).unwrap();
    touch(&session, tree.path("a"));
    let over = touch(&session, tree.path("a/b"));
    assert!(over.files.is_empty());
    assert_eq!(over.omitted[0].reason, Reason::OverBudget);
}

// ---------------------------------------------------------------------------------------------
// §10 given once: imports; errors leave the record as it was
// ---------------------------------------------------------------------------------------------

#[test]
fn s10_an_import_the_session_already_gave_is_a_duplicate() {
    let tree = Tree::new();
    tree.file("a/AGENTS.md", "a\n@../shared.md\n");
    tree.file("c/AGENTS.md", "c\n@../shared.md\n");
    tree.file("shared.md", "shared\n");
    let session = Session::new(os(&tree).imports(true)).unwrap();
    let first = touch(&session, tree.path("a"));
    assert_eq!(contents(&first), ["a\nshared\n"]);
    let second = touch(&session, tree.path("c"));
    assert_eq!(contents(&second), ["c\n"]);
    assert_eq!(second.imports.len(), 1);
    assert!(second.imports[0].duplicate);
}

#[test]
fn s10_a_failing_touch_leaves_the_record_as_it_was() {
    let tree = repository();
    tree.file("a/b/AGENTS.md", "far too large for the limit\n");
    let session = Session::new(os(&tree).max_bytes(10)).unwrap();
    let error = session.touch(tree.path("a/b")).unwrap_err();
    assert_eq!(error.kind(), ErrorKind::TooLarge);
    // Nothing of the failed touch was given: the next one gives root and a.
    assert_eq!(
        contents(&touch(&session, tree.path("a"))),
        ["root\n", "a\n"]
    );
}

// ---------------------------------------------------------------------------------------------
// §10 each directory looked up once
// ---------------------------------------------------------------------------------------------

#[test]
fn s10_each_directory_is_looked_up_once_per_session() {
    let fs = TestFs::new()
        .file("AGENTS.md", "root\n")
        .file("a/AGENTS.md", "a\n")
        .file("a/one.rs", "1\n")
        .file("a/two.rs", "2\n")
        .file("a/b/AGENTS.md", "b\n")
        .build();
    let session = Session::new(custom(&fs)).unwrap();
    assert_eq!(contents(&touch(&session, "a/one.rs")), ["root\n", "a\n"]);
    let lists = |fs: &Arc<TestFs>| fs.asked(Op::List);
    assert_eq!(lists(&fs), [".", "a"]);
    assert!(touch(&session, "a/two.rs").files.is_empty());
    assert!(touch(&session, "a").files.is_empty());
    assert_eq!(contents(&touch(&session, "a/b/new.rs")), ["b\n"]);
    // Only the new directory was listed, and no file was read twice.
    assert_eq!(lists(&fs), [".", "a", "a/b"]);
    assert_eq!(fs.reads_of("AGENTS.md"), 1);
    assert_eq!(fs.reads_of("a/AGENTS.md"), 1);
}

#[test]
fn s10_over_a_batched_file_system_a_touch_asks_one_batch_of_each_for_what_is_new() {
    let fs = TestFs::new()
        .file("AGENTS.md", "root\n")
        .file("a/AGENTS.md", "a\n")
        .file("a/b/AGENTS.md", "b\n")
        .file("c/AGENTS.md", "c\n")
        .batched()
        .build();
    let session = Session::new(custom(&fs)).unwrap();
    assert_eq!(
        contents(&touch(&session, "a/b/x.rs")),
        ["root\n", "a\n", "b\n"]
    );
    assert_eq!(fs.batches_of(Op::ListMany), 1);
    assert_eq!(fs.batches_of(Op::ReadMany), 1);
    assert_eq!(contents(&touch(&session, "c/y.rs")), ["c\n"]);
    assert_eq!(fs.batches_of(Op::ListMany), 2);
    assert_eq!(fs.batches_of(Op::ReadMany), 2);
    assert!(touch(&session, "a/b/z.rs").files.is_empty());
    assert_eq!(fs.batches_of(Op::ListMany), 2, "nothing new to list");
    assert_eq!(fs.batches_of(Op::ReadMany), 2, "nothing new to read");
    assert_eq!(fs.calls(), [], "no single question");
}

// ---------------------------------------------------------------------------------------------
// §10 threads, §11.1 deltas report once
// ---------------------------------------------------------------------------------------------

#[test]
fn s10_a_session_shared_between_threads_gives_each_file_once() {
    let tree = Tree::new();
    for i in 0..8 {
        for j in 0..8 {
            tree.file(format!("d{i}/e{j}/AGENTS.md"), format!("{i}{j}\n"));
        }
    }
    tree.file("AGENTS.md", "root\n");
    let session = Arc::new(Session::new(os(&tree)).unwrap());
    let threads: Vec<_> = (0..8)
        .map(|i| {
            let session = Arc::clone(&session);
            let paths: Vec<_> = (0..8).map(|j| tree.path(format!("d{j}/e{i}/f"))).collect();
            std::thread::spawn(move || {
                let mut given = Vec::new();
                for path in paths {
                    given.extend(paths_of(&session.touch(path).unwrap()));
                }
                given
            })
        })
        .collect();
    let mut given: Vec<String> = threads
        .into_iter()
        .flat_map(|t| t.join().unwrap())
        .collect();
    given.sort();
    let mut want: Vec<String> = vec![at(&tree, "AGENTS.md")];
    for i in 0..8 {
        for j in 0..8 {
            want.push(at(&tree, &format!("d{i}/e{j}/AGENTS.md")));
        }
    }
    want.sort();
    assert_eq!(given, want);
}

fn paths_of(chain: &Chain) -> Vec<String> {
    paths(&chain.files)
}

#[test]
fn s11_1_a_later_deltas_probes_are_those_no_earlier_delta_reported() {
    let tree = repository();
    let session = Session::new(os(&tree).report(true)).unwrap();
    touch(&session, tree.path("a"));
    let second = touch(&session, tree.path("a/b/main.rs"));
    let probes: Vec<_> = second
        .probes
        .iter()
        .map(|p| (text(&p.path), p.outcome))
        .collect();
    assert_eq!(probes, [(at(&tree, "a/b/AGENTS.md"), Outcome::Included)]);
}

#[test]
fn s11_1_max_imports_counts_one_touchs_import_reads() {
    let tree = Tree::new();
    tree.file("a/AGENTS.md", "@../one.md\n");
    tree.file("c/AGENTS.md", "@../two.md\n");
    tree.file("one.md", "one\n");
    tree.file("two.md", "two\n");
    let session = Session::new(os(&tree).imports(true).max_imports(1)).unwrap();
    assert_eq!(contents(&touch(&session, tree.path("a"))), ["one\n"]);
    assert_eq!(contents(&touch(&session, tree.path("c"))), ["two\n"]);
}

#[test]
fn s10_each_fragment_directory_is_looked_up_once_per_session() {
    let fs = TestFs::new()
        .file("AGENTS.md", "root\n")
        .file("AGENTS.d/style.md", "style\n")
        .file("a/AGENTS.d/api.md", "api\n")
        .file("a/one.rs", "1\n")
        .build();
    let session = Session::new(custom(&fs).fragments(["AGENTS.d"])).unwrap();
    assert_eq!(
        contents(&touch(&session, "a/one.rs")),
        ["root\n", "style\n", "api\n"]
    );
    let asked = fs.calls().len();
    assert!(touch(&session, "a/two.rs").files.is_empty());
    // The second touch stats its path; nothing else is asked again.
    let again: Vec<_> = fs.calls()[asked..].to_vec();
    assert_eq!(again, [(Op::Stat, b"a/two.rs".to_vec())]);
    // A directory already looked up is known to be one: not even its stat is asked.
    assert!(touch(&session, "a").files.is_empty());
    assert_eq!(fs.calls().len(), asked + 1);
    assert_eq!(
        fs.asked(Op::List)
            .iter()
            .filter(|d| *d == "AGENTS.d")
            .count(),
        1
    );
}

#[test]
fn s10_a_failing_touch_takes_back_the_imports_it_expanded() {
    let tree = Tree::new();
    tree.file("AGENTS.md", "root\n");
    tree.file("a/AGENTS.md", "a\n@../shared.md\n");
    tree.file(
        "a/b/AGENTS.md",
        "far too large for the limit of this session\n",
    );
    tree.file("c/AGENTS.md", "c\n@../shared.md\n");
    tree.file("shared.md", "shared\n");
    let session = Session::new(os(&tree).imports(true).max_bytes(20)).unwrap();
    assert_eq!(contents(&touch(&session, tree.path("x"))), ["root\n"]);
    // a's file imports shared.md, then b's is too large: the touch fails, and gave nothing.
    let error = session.touch(tree.path("a/b")).unwrap_err();
    assert_eq!(error.kind(), ErrorKind::TooLarge);
    // So shared.md is no duplicate at c: it was never given.
    let c = touch(&session, tree.path("c"));
    assert_eq!(contents(&c), ["c\nshared\n"]);
    assert!(!c.imports[0].duplicate);
}

#[test]
fn s11_1_within_one_touch_a_file_reported_twice_by_its_chain_is_reported_twice() {
    let tree = Tree::new();
    tree.file("AGENTS.md", "root rules, too long for the budget\n");
    tree.file("a/AGENTS.md", "a\n");
    // `a` is a fragment directory of the root and a directory of the walk: its AGENTS.md is
    // met twice, and left out twice, once the budget has ended.
    let options = os(&tree).fragments(["a"]).budget(4).report(true);
    let path = tree.path("a/x");
    let session = Session::new(options.clone()).unwrap();
    assert_eq!(touch(&session, &path), chain(&path, &options).unwrap());
}
