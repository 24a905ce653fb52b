//! One test (at least) per rule of SPEC.md §1–4, each named after the rule it pins. OS tests
//! build their tree in a temporary directory and pass it as an explicit `root`, since the
//! machine's real ancestors may hold instruction files; custom-FS tests use [`TestFs`], which
//! records what the walk asked it.

mod support;

use std::path::{Component, Path};
use std::sync::Arc;

use agentsmd_core::{
    chain, render, Cancel, Chain, Error, ErrorKind, File, Options, Reason, DEFAULT_MAX_BYTES,
    DEFAULT_NAME, PART_ID,
};
use support::{
    at, custom, err, fs_root, not_a_directory, ok, omitted, os, path, paths, text, within, Bytes,
    Fault, Op, TestFs, Tree,
};

use Reason::{OverBudget, Shadowed};

fn contents(files: &[File]) -> Vec<String> {
    files.iter().map(|file| text(&file.content)).collect()
}

fn over(path: impl Into<String>, size: u64) -> (String, u64, Reason, String) {
    (path.into(), size, OverBudget, String::new())
}

fn shadowed(
    path: impl Into<String>,
    size: u64,
    by: impl Into<String>,
) -> (String, u64, Reason, String) {
    (path.into(), size, Shadowed, by.into())
}

/// Whether `name` is valid as Go's `fs.ValidPath` defines, written independently of the library.
fn valid_fs_name(name: &str) -> bool {
    name == "."
        || (!name.is_empty()
            && !name.contains('\0')
            && name.split('/').all(|e| !matches!(e, "" | "." | "..")))
}

// ---------------------------------------------------------------------------------------------
// §1 Chain: order and option defaults
// ---------------------------------------------------------------------------------------------

#[test]
fn chain_is_root_first_nearest_last_one_per_directory() {
    let tree = Tree::new();
    tree.file("AGENTS.md", "root\n");
    tree.file("a/AGENTS.md", "a\n");
    tree.dir("a/b");
    tree.file("a/b/c/AGENTS.md", "c\n");
    tree.file("a/b/c/d/AGENTS.md", "below the start: never read\n");
    tree.file("sibling/AGENTS.md", "not an ancestor\n");
    let result = ok(tree.path("a/b/c"), &os(&tree));
    assert_eq!(
        paths(&result.files),
        [
            at(&tree, "AGENTS.md"),
            at(&tree, "a/AGENTS.md"),
            at(&tree, "a/b/c/AGENTS.md")
        ]
    );
    assert_eq!(contents(&result.files), ["root\n", "a\n", "c\n"]);
    assert!(result.omitted.is_empty());
}

#[test]
fn names_default_to_agents_md() {
    assert_eq!(DEFAULT_NAME, "AGENTS.md");
    let fs = TestFs::new()
        .file("CLAUDE.md", "other name\n")
        .file("AGENTS.override.md", "other name\n")
        .file("a/AGENTS.md", "default name\n")
        .build();
    let result = ok("a", &custom(&fs));
    assert_eq!(paths(&result.files), ["a/AGENTS.md"]);
    assert!(result.omitted.is_empty());
}

#[test]
fn root_defaults_to_fs_root() {
    let tree = Tree::new();
    tree.file("AGENTS.md", "tree root\n");
    tree.file("a/AGENTS.md", "leaf\n");
    // The zero root is `/` (on Windows the path's prefix root, `C:\`): a path anywhere is
    // within it, and the walk is the one an explicit root gives. (Ancestors of the temporary
    // directory may hold files of their own, so only the tree's two are known to be there, last.)
    let default = ok(tree.path("a"), &Options::default());
    let explicit = ok(tree.path("a"), &Options::new().root(fs_root(&tree.root())));
    assert_eq!(default, explicit);
    let n = default.files.len();
    assert!(n >= 2, "{default:?}");
    assert_eq!(
        paths(&default.files[n - 2..]),
        [at(&tree, "AGENTS.md"), at(&tree, "a/AGENTS.md")]
    );
    assert!(chain("/", &Options::default()).is_ok());
    assert!(chain(fs_root(&tree.root()), &Options::default()).is_ok());
}

#[test]
fn custom_fs_root_defaults_to_dot() {
    let fs = TestFs::new()
        .file("AGENTS.md", "fs root\n")
        .file("a/AGENTS.md", "a\n")
        .dir("a/b")
        .build();
    let result = ok("a/b", &custom(&fs));
    assert_eq!(paths(&result.files), ["AGENTS.md", "a/AGENTS.md"]);
    assert_eq!(fs.asked(Op::List), [".", "a", "a/b"]);
}

#[test]
fn extra_comes_first_in_order() {
    let tree = Tree::new();
    let second = tree.file("home/second.md", "second\n");
    let first = tree.file("home/first.md", "first\n");
    tree.file("repo/AGENTS.md", "repo\n");
    tree.file("repo/a/AGENTS.md", "leaf\n");
    let options = Options::new()
        .root(tree.path("repo"))
        .extra(vec![second, first]);
    let result = ok(tree.path("repo/a"), &options);
    assert_eq!(
        paths(&result.files),
        [
            at(&tree, "home/second.md"),
            at(&tree, "home/first.md"),
            at(&tree, "repo/AGENTS.md"),
            at(&tree, "repo/a/AGENTS.md")
        ]
    );
    assert_eq!(
        contents(&result.files),
        ["second\n", "first\n", "repo\n", "leaf\n"]
    );
}

#[test]
fn extra_is_first_charge_on_budget() {
    let tree = Tree::new();
    let extra = tree.file("home/user.md", "0123456789");
    tree.file("repo/AGENTS.md", "0123456789");
    let options = Options::new()
        .root(tree.path("repo"))
        .extra(vec![extra])
        .budget(15);
    let result = ok(tree.path("repo"), &options);
    assert_eq!(paths(&result.files), [at(&tree, "home/user.md")]);
    assert_eq!(
        omitted(&result.omitted),
        [over(at(&tree, "repo/AGENTS.md"), 10)]
    );

    // An extra over budget ends the chain before it starts.
    let result = ok(tree.path("repo"), &options.budget(5));
    assert!(result.files.is_empty());
    assert_eq!(
        omitted(&result.omitted),
        [
            over(at(&tree, "home/user.md"), 10),
            over(at(&tree, "repo/AGENTS.md"), 10)
        ]
    );
}

#[test]
fn missing_extra_is_skipped() {
    let tree = Tree::new();
    let present = tree.file("home/present.md", "present\n");
    let mut extras = vec![tree.path("home/missing.md"), present];
    // And a dangling link, where this host makes links.
    if support::MAKES_LINKS {
        extras.push(tree.symlink("home/dangling.md", "nowhere.md"));
    }
    tree.file("repo/AGENTS.md", "repo\n");
    let options = Options::new().root(tree.path("repo")).extra(extras);
    let result = ok(tree.path("repo"), &options);
    assert_eq!(
        paths(&result.files),
        [at(&tree, "home/present.md"), at(&tree, "repo/AGENTS.md")]
    );
    assert!(result.omitted.is_empty());
}

#[test]
#[cfg_attr(
    windows,
    ignore = "no symbolic links under Wine: see support::MAKES_LINKS"
)]
fn an_extra_whose_link_loops_or_runs_through_a_file_is_skipped_like_a_missing_one() {
    // SPEC.md §1: it leads nowhere. Only a link does: `plain/user.md` with `plain` a file is an
    // error (extra_stat_error_other_than_not_found_is_error).
    let tree = Tree::new();
    tree.file("home/plain", "a file, not a directory");
    let looping = tree.symlink("home/loop.md", "loop.md");
    let through = tree.symlink("home/through.md", "plain/user.md");
    tree.file("repo/AGENTS.md", "repo\n");
    let options = Options::new()
        .root(tree.path("repo"))
        .extra(vec![looping, through])
        .report(true);
    let result = ok(tree.path("repo"), &options);
    assert_eq!(paths(&result.files), [at(&tree, "repo/AGENTS.md")]);
    assert!(result.omitted.is_empty());
    // Probed as a missing one is (SPEC.md §5.7).
    use agentsmd_core::{Outcome, Source};
    let extras: Vec<(String, Outcome)> = result
        .probes
        .iter()
        .filter(|probe| probe.source == Source::Extra)
        .map(|probe| (text(&probe.path), probe.outcome))
        .collect();
    assert_eq!(
        extras,
        [
            (at(&tree, "home/loop.md"), Outcome::NotFound),
            (at(&tree, "home/through.md"), Outcome::NotFound),
        ]
    );
}

#[test]
fn extra_not_regular_file_is_error() {
    let tree = Tree::new();
    tree.file("repo/AGENTS.md", "repo\n");
    let dir = tree.dir("home/rules.md");
    #[cfg(unix)]
    let not_files = [dir, tree.fifo("home/fifo.md")];
    // Windows has no FIFO in a directory.
    #[cfg(windows)]
    let not_files = [dir];
    for extra in not_files {
        let options = Options::new()
            .root(tree.path("repo"))
            .extra(vec![extra.clone()]);
        let path = tree.path("repo");
        let error = within(10, move || chain(path, &options)).unwrap_err();
        assert_eq!(error.kind(), ErrorKind::InvalidArgument, "{error}");
        assert!(error.to_string().contains(&text(&extra)), "{error}");
    }
}

#[test]
fn extra_stat_error_other_than_not_found_is_error() {
    let tree = Tree::new();
    tree.file("home/plain", "a file, not a directory");
    tree.file("repo/AGENTS.md", "repo\n");
    let options = Options::new()
        .root(tree.path("repo"))
        .extra(vec![tree.path("home/plain/user.md")]);
    let error = err(tree.path("repo"), &options);
    assert_eq!(error.kind(), ErrorKind::Io, "{error}");
    assert_eq!(error.os_code(), Some(not_a_directory()), "{error}");
}

#[test]
fn extra_stays_os_path_with_custom_fs() {
    let tree = Tree::new();
    let extra = tree.file("home/user.md", "user\n");
    let fs = TestFs::new().file("AGENTS.md", "fs\n").build();
    let options = custom(&fs).extra(vec![extra.clone()]);
    let result = ok(".", &options);
    assert_eq!(paths(&result.files), [text(&extra), "AGENTS.md".into()]);
    assert_eq!(contents(&result.files), ["user\n", "fs\n"]);
    assert!(fs.calls().iter().all(|(_, name)| name != extra.bytes()));
}

// ---------------------------------------------------------------------------------------------
// §1 Names
// ---------------------------------------------------------------------------------------------

#[test]
fn names_match_exact_spelling_only() {
    let tree = Tree::new();
    tree.file("agents.md", "lower case\n");
    tree.file("AGENTS.MD", "upper-case extension\n");
    tree.file("Agents.md", "mixed case\n");
    // Windows folds case (the three are one file there, spelled `agents.md`) and drops a
    // trailing space: no name ends in one there.
    #[cfg(unix)]
    tree.file("AGENTS.md ", "trailing space\n");
    tree.file("a/AGENTS.md", "exact\n");
    let result = ok(tree.path("a"), &os(&tree));
    assert_eq!(paths(&result.files), [at(&tree, "a/AGENTS.md")]);
    assert!(result.omitted.is_empty());
}

#[test]
fn custom_fs_case_variant_listing_does_not_match() {
    // A case-insensitive FS would answer a stat or read of AGENTS.md with agents.md; the
    // directory lists agents.md only, so AGENTS.md is not its file.
    let fs = TestFs::new()
        .file("agents.md", "lower case\n")
        .file("a/AGENTS.md", "exact\n")
        .case_insensitive()
        .build();
    let result = ok("a", &custom(&fs));
    assert_eq!(paths(&result.files), ["a/AGENTS.md"]);
    assert!(result.omitted.is_empty());
    assert!(!fs.asked(Op::Stat).contains(&"AGENTS.md".to_string()));
    assert!(!fs.asked(Op::Read).contains(&"AGENTS.md".to_string()));
}

#[test]
fn first_listed_name_wins_and_others_are_shadowed() {
    let tree = Tree::new();
    tree.file("AGENTS.md", "root agents\n");
    tree.file("CLAUDE.md", "root claude\n");
    tree.file("a/AGENTS.md", "a agents\n");
    tree.file("a/CLAUDE.md", "a claude\n");
    tree.file("a/AGENTS.override.md", "a override\n");
    tree.file("a/b/CLAUDE.md", "b claude\n");
    let options = os(&tree).names(["AGENTS.override.md", "AGENTS.md", "CLAUDE.md"]);
    let result = ok(tree.path("a/b"), &options);
    assert_eq!(
        paths(&result.files),
        [
            at(&tree, "AGENTS.md"),
            at(&tree, "a/AGENTS.override.md"),
            at(&tree, "a/b/CLAUDE.md")
        ]
    );
    assert_eq!(
        contents(&result.files),
        ["root agents\n", "a override\n", "b claude\n"]
    );
    assert_eq!(
        omitted(&result.omitted),
        [
            shadowed(at(&tree, "CLAUDE.md"), 12, at(&tree, "AGENTS.md")),
            shadowed(
                at(&tree, "a/AGENTS.md"),
                9,
                at(&tree, "a/AGENTS.override.md")
            ),
            shadowed(
                at(&tree, "a/CLAUDE.md"),
                9,
                at(&tree, "a/AGENTS.override.md")
            ),
        ]
    );
}

#[test]
fn many_names_are_deduplicated_keeping_the_first_of_each() {
    // 50,000 names, each given twice, the second time in reverse order.
    let distinct: Vec<String> = (0..50_000).map(|i| format!("N{i}.md")).collect();
    let mut given: Vec<&str> = distinct.iter().map(String::as_str).collect();
    given.extend(distinct.iter().rev().map(String::as_str));
    let tree = Tree::new();
    tree.file("N49999.md", "last\n");
    tree.file("N7.md", "seventh\n");
    tree.file("N123.md", "other\n");
    let options = os(&tree).names(&given);
    let result = ok(tree.path(""), &options);
    // The order is the first mention's: N7, N123, N49999; each reported once.
    assert_eq!(paths(&result.files), [at(&tree, "N7.md")]);
    assert_eq!(
        omitted(&result.omitted),
        [
            shadowed(at(&tree, "N123.md"), 6, at(&tree, "N7.md")),
            shadowed(at(&tree, "N49999.md"), 5, at(&tree, "N7.md")),
        ]
    );
}

#[test]
fn shadowed_reports_by_and_reported_size() {
    let fs = TestFs::new()
        .file("AGENTS.override.md", "override\n")
        .file_sized("AGENTS.md", "short", 12345)
        .build();
    let options = custom(&fs).names(["AGENTS.override.md", "AGENTS.md"]);
    let result = ok(".", &options);
    assert_eq!(paths(&result.files), ["AGENTS.override.md"]);
    assert_eq!(
        omitted(&result.omitted),
        [shadowed("AGENTS.md", 12345, "AGENTS.override.md")]
    );
    assert_eq!(fs.reads_of("AGENTS.md"), 0, "a shadowed file is not read");
}

#[test]
fn duplicate_names_count_once() {
    let fs = TestFs::new()
        .file("AGENTS.override.md", "override\n")
        .file("AGENTS.md", "agents\n")
        .build();
    let options = custom(&fs).names(["AGENTS.override.md", "AGENTS.md", "AGENTS.override.md"]);
    let result = ok(".", &options);
    assert_eq!(paths(&result.files), ["AGENTS.override.md"]);
    assert_eq!(
        omitted(&result.omitted),
        [shadowed("AGENTS.md", 7, "AGENTS.override.md")]
    );
    assert_eq!(fs.reads_of("AGENTS.override.md"), 1);
}

// FIFOs, Unix sockets and /dev/null: Windows has none in a directory.
#[test]
#[cfg(unix)]
fn only_regular_files_count_fifo_never_blocks() {
    use agentsmd_core::fs::{FileSystem, OsFs};
    use std::io::Read;
    use support::os_name;
    let tree = Tree::new();
    tree.fifo("AGENTS.md");
    tree.file("CLAUDE.md", "fallback\n");
    tree.fifo("a/AGENTS.md");
    let options = os(&tree).names(["AGENTS.md", "CLAUDE.md"]);
    let path = tree.path("a");
    let result = within(10, move || chain(path, &options)).unwrap();
    assert_eq!(paths(&result.files), [at(&tree, "CLAUDE.md")]);
    assert!(result.omitted.is_empty(), "a FIFO is no file: {result:?}");

    // Even a FIFO swapped in between the stat and the read does not block: the OS read refuses
    // it at once.
    let fifo = tree.path("AGENTS.md");
    let read = within(10, move || {
        let mut buf = [0; 10];
        OsFs.open(&os_name(&fifo))?.read(&mut buf)
    });
    assert!(read.is_err(), "{read:?}");
}

#[test]
#[cfg(unix)]
fn socket_and_device_are_no_file() {
    let tree = Tree::new();
    let _listener = tree.socket("AGENTS.md");
    tree.file("CLAUDE.md", "root fallback\n");
    tree.symlink("a/AGENTS.md", "/dev/null");
    tree.file("a/CLAUDE.md", "a fallback\n");
    let options = os(&tree).names(["AGENTS.md", "CLAUDE.md"]);
    let path = tree.path("a");
    let result = within(10, move || chain(path, &options)).unwrap();
    assert_eq!(
        paths(&result.files),
        [at(&tree, "CLAUDE.md"), at(&tree, "a/CLAUDE.md")]
    );
    assert!(result.omitted.is_empty());
}

#[test]
#[cfg_attr(
    windows,
    ignore = "no symbolic links under Wine: see support::MAKES_LINKS"
)]
fn dangling_link_is_no_file() {
    let tree = Tree::new();
    tree.symlink("AGENTS.md", "missing.md");
    tree.file("CLAUDE.md", "fallback\n");
    tree.symlink("a/AGENTS.md", "../nowhere/AGENTS.md");
    let options = os(&tree).names(["AGENTS.md", "CLAUDE.md"]);
    let result = ok(tree.path("a"), &options);
    assert_eq!(paths(&result.files), [at(&tree, "CLAUDE.md")]);
    assert!(result.omitted.is_empty());
}

/// The chain of `tree` at `rel`, with and without confinement: the same answer either way.
fn ok_both(tree: &Tree, rel: &str, names_looked_for: &[&str]) -> Chain {
    let plain = os(tree).names(names_looked_for);
    let result = ok(tree.path(rel), &plain);
    let confined = plain.confine(true);
    assert_eq!(ok(tree.path(rel), &confined), result, "confined");
    result
}

#[test]
#[cfg_attr(
    windows,
    ignore = "no symbolic links under Wine: see support::MAKES_LINKS"
)]
fn link_that_loops_is_no_file_and_the_next_name_stands() {
    let tree = Tree::new();
    tree.file("AGENTS.md", "root\n");
    // `ln -s AGENTS.md sub/AGENTS.md`: the link names itself (ELOOP).
    tree.symlink("sub/AGENTS.md", "AGENTS.md");
    tree.file("sub/CLAUDE.md", "claude\n");
    tree.symlink("sub/deeper/AGENTS.md", "loop-b");
    tree.symlink("sub/deeper/loop-b", "AGENTS.md");
    let result = ok_both(&tree, "sub/deeper", &["AGENTS.md", "CLAUDE.md"]);
    assert_eq!(
        paths(&result.files),
        [at(&tree, "AGENTS.md"), at(&tree, "sub/CLAUDE.md")]
    );
    assert!(result.omitted.is_empty());
}

#[test]
#[cfg_attr(
    windows,
    ignore = "no symbolic links under Wine: see support::MAKES_LINKS"
)]
fn link_through_a_non_directory_is_no_file() {
    let tree = Tree::new();
    tree.file("AGENTS.md", "root\n");
    tree.file("file", "a regular file\n");
    // `AGENTS.md -> ../file/x`: the target runs through a file (ENOTDIR).
    tree.symlink("a/AGENTS.md", "../file/x");
    tree.file("a/b/AGENTS.md", "b\n");
    let result = ok_both(&tree, "a/b", &["AGENTS.md"]);
    assert_eq!(
        paths(&result.files),
        [at(&tree, "AGENTS.md"), at(&tree, "a/b/AGENTS.md")]
    );
}

#[test]
#[cfg_attr(
    windows,
    ignore = "no symbolic links under Wine: see support::MAKES_LINKS"
)]
fn directory_of_the_walk_that_is_a_looping_link_lists_nothing() {
    let tree = Tree::new();
    tree.file("AGENTS.md", "root\n");
    tree.file("a/AGENTS.md", "a\n");
    tree.symlink("a/loop", "loop");
    tree.file("file", "a regular file\n");
    tree.symlink("a/through", "../file/x");
    for below in ["a/loop/b/new.txt", "a/through/b/new.txt"] {
        let result = ok_both(&tree, below, &["AGENTS.md"]);
        assert_eq!(
            paths(&result.files),
            [at(&tree, "AGENTS.md"), at(&tree, "a/AGENTS.md")],
            "{below}"
        );
    }
}

#[test]
#[cfg_attr(
    windows,
    ignore = "no symbolic links under Wine: see support::MAKES_LINKS"
)]
fn start_path_that_is_a_looping_link_does_not_exist() {
    let tree = Tree::new();
    tree.file("AGENTS.md", "root\n");
    tree.file("a/AGENTS.md", "a\n");
    tree.symlink("a/self", "self");
    tree.file("file", "a regular file\n");
    tree.symlink("a/through", "../file/x");
    // Its parent is the start, as for a file about to be created.
    for start in ["a/self", "a/through"] {
        let result = ok_both(&tree, start, &["AGENTS.md"]);
        assert_eq!(
            paths(&result.files),
            [at(&tree, "AGENTS.md"), at(&tree, "a/AGENTS.md")],
            "{start}"
        );
    }
}

#[test]
#[cfg_attr(
    windows,
    ignore = "no symbolic links under Wine: see support::MAKES_LINKS"
)]
fn link_to_regular_file_is_a_file() {
    let tree = Tree::new();
    tree.file("shared/rules.md", "linked\n");
    tree.symlink("a/AGENTS.md", "../shared/rules.md");
    let result = ok(tree.path("a"), &os(&tree));
    // Named by the link, not by its target: no link is resolved in a path.
    assert_eq!(paths(&result.files), [at(&tree, "a/AGENTS.md")]);
    assert_eq!(contents(&result.files), ["linked\n"]);
}

#[test]
fn directory_named_like_instruction_file_is_no_file() {
    let tree = Tree::new();
    tree.file("AGENTS.md/AGENTS.md", "inside the directory\n");
    tree.file("CLAUDE.md", "fallback\n");
    let options = os(&tree).names(["AGENTS.md", "CLAUDE.md"]);
    let result = ok(tree.root(), &options);
    assert_eq!(paths(&result.files), [at(&tree, "CLAUDE.md")]);
    assert!(result.omitted.is_empty());
}

#[test]
fn custom_fs_non_regular_entries_are_no_file() {
    let fs = TestFs::new()
        .dir("AGENTS.md")
        .file("CLAUDE.md", "root fallback\n")
        .other("a/AGENTS.md")
        .file("a/CLAUDE.md", "a fallback\n")
        .build();
    let options = custom(&fs).names(["AGENTS.md", "CLAUDE.md"]);
    let result = ok("a", &options);
    assert_eq!(paths(&result.files), ["CLAUDE.md", "a/CLAUDE.md"]);
    assert!(result.omitted.is_empty());
    assert_eq!(fs.asked(Op::Read), ["CLAUDE.md", "a/CLAUDE.md"]);
}

#[test]
fn invalid_name_is_invalid_argument_before_any_io() {
    let bad: [&[u8]; 8] = [
        b"",
        b".",
        b"..",
        // A name of several elements is valid (SPEC §9); one with an empty element is not.
        b"a//b",
        b"/AGENTS.md",
        b"AGENTS.md/",
        b"A\0B",
        b"\0",
    ];
    for name in bad {
        let fs = TestFs::new().file("AGENTS.md", "x\n").build();
        let options = custom(&fs).names(vec![b"AGENTS.md".to_vec(), name.to_vec()]);
        let error = err(".", &options);
        assert_eq!(
            error.kind(),
            ErrorKind::InvalidArgument,
            "{name:?}: {error}"
        );
        assert!(fs.calls().is_empty(), "{name:?}: {:?}", fs.calls());
    }
    // On the OS too, and the message names the name.
    let tree = Tree::new();
    let options = os(&tree).names(["dir/../AGENTS.md"]);
    let error = err(tree.root(), &options);
    assert_eq!(error.kind(), ErrorKind::InvalidArgument);
    assert!(error.to_string().contains("dir/../AGENTS.md"), "{error}");
}

// ---------------------------------------------------------------------------------------------
// §1 Paths
// ---------------------------------------------------------------------------------------------

#[test]
fn os_paths_are_absolute_and_cleaned_lexically() {
    let tree = Tree::new();
    tree.file("home/user.md", "user\n");
    tree.file("AGENTS.md", "root\n");
    tree.file("a/AGENTS.md", "a\n");
    // The tree as a path relative to the current directory, which the library makes absolute.
    // On Windows, relative to the current directory of the tree's drive (`C:..\..\x`, SPEC.md
    // §8.2): the current directory may be on another drive.
    let root = tree.root();
    #[cfg(unix)]
    let (mut relative, cwd) = (Vec::new(), std::env::current_dir().unwrap());
    #[cfg(windows)]
    let (mut relative, cwd) = {
        let Some(Component::Prefix(drive)) = root.components().next() else {
            panic!("{} has no drive", root.display());
        };
        let drive = drive.as_os_str();
        let cwd = std::path::absolute(drive).unwrap();
        (drive.as_encoded_bytes().to_vec(), cwd)
    };
    let ups = cwd
        .components()
        .filter(|c| matches!(c, Component::Normal(_)))
        .count();
    relative.extend_from_slice("../".repeat(ups).as_bytes());
    relative.extend_from_slice(root.strip_prefix(fs_root(&root)).unwrap().bytes());
    let with = |suffix: &str| {
        let mut path = relative.clone();
        path.extend_from_slice(suffix.as_bytes());
        path
    };
    let options = Options::new()
        .root(path(with("/./")))
        .extra([path(with("//home/./x/../user.md"))]);
    let result = ok(with("/a/./b/../new.txt"), &options);
    assert_eq!(
        paths(&result.files),
        [
            at(&tree, "home/user.md"),
            at(&tree, "AGENTS.md"),
            at(&tree, "a/AGENTS.md")
        ]
    );
    for file in &result.files {
        assert!(Path::new(&text(&file.path)).is_absolute());
    }
}

#[test]
#[cfg_attr(
    windows,
    ignore = "no symbolic links under Wine: see support::MAKES_LINKS"
)]
fn cleaning_does_not_resolve_symbolic_links() {
    let tree = Tree::new();
    tree.file("AGENTS.md", "lexical parent\n");
    tree.file("real/AGENTS.md", "physical parent\n");
    tree.file("real/sub/AGENTS.md", "through the link\n");
    tree.symlink("link", "real/sub");
    // `link/..` is the tree as text; through the link it would be `real`.
    let result = ok(tree.path("link/.."), &os(&tree));
    assert_eq!(paths(&result.files), [at(&tree, "AGENTS.md")]);
    // A directory reached through a link keeps the link's name.
    let result = ok(tree.path("link"), &os(&tree));
    assert_eq!(
        paths(&result.files),
        [at(&tree, "AGENTS.md"), at(&tree, "link/AGENTS.md")]
    );
    assert_eq!(
        contents(&result.files),
        ["lexical parent\n", "through the link\n"]
    );
}

/// Path elements that are not UTF-8: bytes that are not on Unix; on Windows, where a path is
/// UTF-16, an unpaired surrogate, which WTF-8 holds (SPEC.md §8.2).
#[cfg(unix)]
const NOT_UTF8: [&[u8]; 3] = [b"\xe9", b"\xff", b"\xfe"];
#[cfg(windows)]
const NOT_UTF8: [&[u8]; 3] = [b"\xed\xa0\x80", b"\xed\xbf\xbf", b"\xed\xa0\x81"];

#[test]
#[cfg_attr(
    windows,
    ignore = "no name that is not UTF-16 under Wine: see support::MAKES_LINKS"
)]
fn non_utf8_path_works() {
    let [e9, ff, fe] = NOT_UTF8;
    let cafe = [b"caf", e9].concat();
    let sub = [&cafe[..], b"/sub", ff].concat();
    let tree = Tree::new();
    tree.file([&cafe[..], b"/AGENTS.md"].concat(), "latin-1 directory\n");
    tree.file([&sub[..], b"/AGENTS.md"].concat(), "deeper\n");
    let extra = tree.file([b"home", fe, b".md"].concat(), "extra\n");
    let options = Options::new()
        .root(tree.path(&cafe))
        .extra(vec![extra.clone()]);
    let result = ok(tree.path([&sub[..], b"/new.txt"].concat()), &options);
    let got: Vec<&[u8]> = result.files.iter().map(|f| f.path.bytes()).collect();
    assert_eq!(
        got,
        [
            extra.bytes(),
            tree.path([&cafe[..], b"/AGENTS.md"].concat()).bytes(),
            tree.path([&sub[..], b"/AGENTS.md"].concat()).bytes()
        ]
    );
    let rendered = render(&result.files);
    let needle = tree.path([&sub[..], b"/AGENTS.md"].concat());
    assert!(
        rendered
            .windows(needle.bytes().len())
            .any(|w| w == needle.bytes()),
        "the path is rendered byte for byte"
    );
}

#[test]
fn nul_in_os_path_is_invalid_argument() {
    let tree = Tree::new();
    tree.file("AGENTS.md", "root\n");
    let error = err(tree.path("a\0b"), &os(&tree));
    assert_eq!(error.kind(), ErrorKind::InvalidArgument, "{error}");
    let error = err(tree.root(), &Options::new().root(tree.path("r\0")));
    assert_eq!(error.kind(), ErrorKind::InvalidArgument, "{error}");
    let error = err(tree.root(), &os(&tree).extra(vec![tree.path("user\0.md")]));
    assert_eq!(error.kind(), ErrorKind::InvalidArgument, "{error}");
}

#[test]
fn custom_fs_names_must_be_valid() {
    let bad: [&[u8]; 11] = [
        b"", b"/", b"/a", b"a/", b"./a", b"a/./b", b"a/../b", b"..", b"a//b", b"a\0b", b"./",
    ];
    for name in bad {
        let fs = TestFs::new().file("a/AGENTS.md", "x\n").build();
        let error = err(name, &custom(&fs));
        assert_eq!(
            error.kind(),
            ErrorKind::InvalidArgument,
            "{name:?}: {error}"
        );
        // An empty root is the zero value, the FS root.
        if !name.is_empty() {
            let options = custom(&fs).root(path(name));
            let error = err("a", &options);
            assert_eq!(
                error.kind(),
                ErrorKind::InvalidArgument,
                "{name:?}: {error}"
            );
        }
        assert!(fs.calls().is_empty(), "{name:?}: {:?}", fs.calls());
    }
    // `.` alone is the root, and a valid name works.
    let fs = TestFs::new().file("a/AGENTS.md", "x\n").build();
    assert_eq!(ok(".", &custom(&fs)).files.len(), 0);
    assert_eq!(ok("a", &custom(&fs)).files.len(), 1);
}

#[test]
fn a_path_or_root_over_4096_bytes_is_an_invalid_argument_before_any_io() {
    // A custom file system: the name as given. 4,096 bytes is a path; 4,097 is not.
    let at_limit = "d/".repeat(2_047) + "xy";
    assert_eq!(at_limit.len(), 4_096);
    let over = at_limit.clone() + "z";
    let far_over = "d/".repeat(100_000) + "x";
    let refused = |error: Error, what: &str| {
        assert_eq!(error.kind(), ErrorKind::InvalidArgument, "{error}");
        let message = error.to_string();
        let head = &message[..message.len().min(200)];
        assert!(message.starts_with(what), "{head}");
        assert!(message.contains("4096"), "{head}");
    };
    for (at, root, what) in [
        (&over, None, "path"),
        (&far_over, None, "path"),
        (&(over.clone() + "/x"), Some(&over), "root"),
    ] {
        let fs = TestFs::new().file("AGENTS.md", "x\n").build();
        let mut options = custom(&fs).report(true);
        options.root = root.map(path);
        refused(err(at, &options), what);
        assert!(fs.calls().is_empty(), "{:?}", fs.calls());
    }
    let fs = TestFs::new().file("AGENTS.md", "x\n").build();
    assert_eq!(paths(&ok(&at_limit, &custom(&fs)).files), ["AGENTS.md"]);
    let options = custom(&fs).root(path(&at_limit));
    assert!(ok(&at_limit, &options).files.is_empty());

    // The OS: the path once made absolute and cleaned. `of_length(n)` is a path of `n` bytes
    // below the tree's root.
    let tree = Tree::new();
    tree.file("AGENTS.md", "x\n");
    let base = text(&tree.root()) + "/";
    let of_length = |len: usize| {
        let rest = len - base.len();
        let dirs = (rest - 1) / 2;
        base.clone() + &"d/".repeat(dirs) + &"x".repeat(rest - 2 * dirs)
    };
    assert_eq!(
        (of_length(4_096).len(), of_length(4_097).len()),
        (4_096, 4_097)
    );
    // Any file read would go through the transform: none is, nothing is asked of the OS.
    let reads = Arc::new(std::sync::atomic::AtomicUsize::new(0));
    let counted = Arc::clone(&reads);
    let transform = agentsmd_core::Transform::new(move |_, content| {
        counted.fetch_add(1, std::sync::atomic::Ordering::SeqCst);
        Ok(content)
    });
    let watched = os(&tree)
        .extra([tree.path("AGENTS.md")])
        .transform(transform)
        .report(true);
    refused(err(of_length(4_097), &watched), "path");
    let root = of_length(4_097);
    let options = watched.clone().root(path(&root));
    refused(err(root + "/x", &options), "root");
    assert_eq!(reads.load(std::sync::atomic::Ordering::SeqCst), 0);
    // 4,096 bytes is a path: the OS answers for it (no OS opens a path of 4,096 bytes and its
    // NUL, so the answer is an `Io` error, ENAMETOOLONG).
    if let Err(error) = chain(path(of_length(4_096)), &os(&tree)) {
        assert_ne!(error.kind(), ErrorKind::InvalidArgument, "{error}");
    }
    // Longer as given, within the limit once cleaned.
    let unclean = base.clone() + &"d/../".repeat(1_000) + "x";
    assert!(unclean.len() > 4_096);
    assert_eq!(
        paths(&ok(&unclean, &os(&tree)).files),
        [at(&tree, "AGENTS.md")]
    );
}

#[test]
fn custom_fs_file_paths_are_fs_names() {
    let fs = TestFs::new()
        .file("AGENTS.md", "root\n")
        .file("a/b/AGENTS.override.md", "b override\n")
        .file("a/b/AGENTS.md", "b\n")
        .build();
    let options = custom(&fs).names(["AGENTS.override.md", "AGENTS.md"]);
    let result = ok("a/b/new.txt", &options);
    assert_eq!(
        paths(&result.files),
        ["AGENTS.md", "a/b/AGENTS.override.md"]
    );
    assert_eq!(
        omitted(&result.omitted),
        [shadowed("a/b/AGENTS.md", 2, "a/b/AGENTS.override.md")]
    );
}

#[test]
fn custom_fs_is_asked_only_valid_names_below_root() {
    let fs = TestFs::new()
        .file("AGENTS.md", "above the root\n")
        .file("a/AGENTS.md", "a\n")
        .file("a/b/CLAUDE.md", "b\n")
        .file("a/b/AGENTS.md", "b\n")
        .build();
    let options = custom(&fs).root("a").names(["AGENTS.md", "CLAUDE.md"]);
    let result = ok("a/b/c/new.txt", &options);
    assert_eq!(paths(&result.files), ["a/AGENTS.md", "a/b/AGENTS.md"]);
    let calls = fs.calls();
    assert!(!calls.is_empty());
    for (op, name) in calls {
        let name = text(&name);
        assert!(valid_fs_name(&name), "{op:?} {name:?}");
        assert!(name == "a" || name.starts_with("a/"), "{op:?} {name:?}");
    }
}

#[test]
fn path_outside_root_is_invalid_argument() {
    let tree = Tree::new();
    tree.file("r/AGENTS.md", "r\n");
    let options = Options::new().root(tree.path("r"));
    for outside in [
        tree.path("rx"),
        tree.path("rx/r"),
        tree.root(),
        tree.path("r/../x"),
        tree.path("r/a/../../x"),
        path("/"),
    ] {
        let error = err(&outside, &options);
        assert_eq!(error.kind(), ErrorKind::InvalidArgument, "{error}");
        let shown = text(&agentsmd_clean(&outside));
        assert!(error.to_string().contains(&shown), "{error} names {shown}");
    }
    for inside in [
        tree.path("r"),
        tree.path("r/a/new.txt"),
        tree.path("r/x/.."),
    ] {
        assert_eq!(ok(&inside, &options).files.len(), 1);
    }

    let fs = TestFs::new().file("a/AGENTS.md", "a\n").build();
    let options = custom(&fs).root("a");
    for outside in ["ab", "b", ".", "b/a"] {
        let error = err(outside, &options);
        assert_eq!(
            error.kind(),
            ErrorKind::InvalidArgument,
            "{outside}: {error}"
        );
        assert!(error.to_string().contains(outside), "{error}");
    }
    assert!(fs.calls().is_empty(), "{:?}", fs.calls());
}

/// A clean absolute path, as the library writes it in messages: enough cleaning for the paths
/// of [`path_outside_root_is_invalid_argument`], written independently of the library. On
/// Windows its prefix stays as written, `\` separates, and a path rooted without a prefix is
/// below the root of the current directory's drive.
fn agentsmd_clean(path: &Path) -> Vec<u8> {
    let sep = std::path::MAIN_SEPARATOR_STR.as_bytes();
    let mut root = Vec::new();
    let mut out: Vec<&[u8]> = Vec::new();
    for component in path.components() {
        match component {
            Component::Prefix(prefix) => root.extend_from_slice(prefix.as_os_str().bytes()),
            Component::RootDir => root.extend_from_slice(sep),
            Component::CurDir => {}
            Component::ParentDir => {
                out.pop();
            }
            Component::Normal(element) => out.push(element.bytes()),
        }
    }
    if cfg!(windows) && root == sep {
        let cwd = std::env::current_dir().unwrap();
        root = fs_root(&cwd).bytes().to_vec();
    }
    [root, out.join(sep)].concat()
}

#[test]
fn start_directory_is_path_if_directory() {
    let tree = Tree::new();
    tree.file("AGENTS.md", "root\n");
    tree.file("a/AGENTS.md", "a\n");
    tree.file("notes.md/AGENTS.md", "a directory named like a file\n");
    let result = ok(tree.path("a"), &os(&tree));
    assert_eq!(
        paths(&result.files),
        [at(&tree, "AGENTS.md"), at(&tree, "a/AGENTS.md")]
    );
    let result = ok(tree.path("notes.md"), &os(&tree));
    assert_eq!(
        paths(&result.files),
        [at(&tree, "AGENTS.md"), at(&tree, "notes.md/AGENTS.md")]
    );

    let fs = TestFs::new()
        .file("AGENTS.md", "root\n")
        .file("a/AGENTS.md", "a\n")
        .build();
    assert_eq!(
        paths(&ok("a", &custom(&fs)).files),
        ["AGENTS.md", "a/AGENTS.md"]
    );
}

#[test]
fn start_directory_is_parent_of_file_or_missing_path() {
    let tree = Tree::new();
    tree.file("AGENTS.md", "root\n");
    tree.file("a/AGENTS.md", "a\n");
    tree.file("a/main.go", "package main\n");
    let expected = [at(&tree, "AGENTS.md"), at(&tree, "a/AGENTS.md")];
    for path in [
        "a/main.go",
        "a/AGENTS.md",
        "a/new.txt",
        "a/new/deeper/file.txt",
    ] {
        assert_eq!(
            paths(&ok(tree.path(path), &os(&tree)).files),
            expected,
            "{path}"
        );
    }

    // A FIFO is an existing non-directory too (and is not opened). Windows has none in a
    // directory.
    #[cfg(unix)]
    {
        tree.fifo("a/pipe");
        let path = tree.path("a/pipe");
        let options = os(&tree);
        let result = within(10, move || chain(path, &options)).unwrap();
        assert_eq!(paths(&result.files), expected);
    }

    let fs = TestFs::new()
        .file("AGENTS.md", "root\n")
        .file("a/AGENTS.md", "a\n")
        .file("a/main.go", "package main\n")
        .other("a/pipe")
        .build();
    for path in ["a/main.go", "a/new.txt", "a/pipe"] {
        assert_eq!(
            paths(&ok(path, &custom(&fs)).files),
            ["AGENTS.md", "a/AGENTS.md"],
            "{path}"
        );
    }
    // A file in the root: its parent, the root, is the start.
    assert_eq!(paths(&ok("AGENTS.md", &custom(&fs)).files), ["AGENTS.md"]);
}

#[test]
fn stat_error_other_than_not_found_is_error() {
    // A regular file used as a directory: ENOTDIR, not "not found".
    let tree = Tree::new();
    tree.file("AGENTS.md", "root\n");
    tree.file("plain", "a file\n");
    let error = err(tree.path("plain/new.txt"), &os(&tree));
    assert_eq!(error.kind(), ErrorKind::Io, "{error}");
    assert_eq!(error.os_code(), Some(not_a_directory()), "{error}");

    // A custom FS failing to stat the path, or a name its directory lists.
    for name in ["a/new.txt", "a/AGENTS.md"] {
        let fs = TestFs::new()
            .file("a/AGENTS.md", "a\n")
            .fault(Op::Stat, name, Fault::Fail("stat refused".into()))
            .build();
        let error = err("a/new.txt", &custom(&fs));
        assert_eq!(error.kind(), ErrorKind::Fs, "{name}: {error}");
        assert!(error.to_string().contains("stat refused"), "{error}");
    }
    // While "not found" for the path means a file about to be created.
    let fs = TestFs::new()
        .file("a/AGENTS.md", "a\n")
        .fault(Op::Stat, "a/new.txt", Fault::NotFound)
        .build();
    assert_eq!(paths(&ok("a/new.txt", &custom(&fs)).files), ["a/AGENTS.md"]);
}

#[test]
fn missing_directories_list_nothing() {
    let tree = Tree::new();
    tree.file("AGENTS.md", "root\n");
    let result = ok(tree.path("x/y/z/new.txt"), &os(&tree));
    assert_eq!(paths(&result.files), [at(&tree, "AGENTS.md")]);

    // Even a missing root lists nothing.
    let result = ok(tree.path("gone/a"), &Options::new().root(tree.path("gone")));
    assert!(result.files.is_empty() && result.omitted.is_empty());

    // A custom FS answering "not found" to a listing: that directory lists nothing, and nothing
    // below it is asked, as nothing below it exists.
    let fs = TestFs::new()
        .file("AGENTS.md", "root\n")
        .file("a/AGENTS.md", "a\n")
        .file("a/b/AGENTS.md", "b\n")
        .fault(Op::List, "a", Fault::NotFound)
        .build();
    let result = ok("a/b", &custom(&fs));
    assert_eq!(paths(&result.files), ["AGENTS.md"]);
    assert_eq!(fs.asked(Op::List), [".", "a"]);
}

#[test]
fn nothing_is_asked_below_a_directory_that_does_not_exist() {
    // A path 2,000 directories deep, of which only the root exists.
    let fs = TestFs::new().file("AGENTS.md", "root\n").build();
    let deep = format!("{}new.txt", "d/".repeat(2_000));
    let result = ok(&deep, &custom(&fs));
    assert_eq!(paths(&result.files), ["AGENTS.md"]);
    assert_eq!(fs.asked(Op::List), [".", "d"]);
    let asked_below = fs
        .calls()
        .into_iter()
        .filter(|(_, name)| name.starts_with(b"d/"))
        .count();
    assert!(asked_below <= 1, "{asked_below} names asked below d");
}

#[test]
fn listing_error_is_error() {
    // The OS: a root that is a regular file cannot be listed.
    let tree = Tree::new();
    let plain = tree.file("plain", "a file\n");
    let options = Options::new().root(plain.clone());
    let error = err(&plain, &options);
    assert_eq!(error.kind(), ErrorKind::Io, "{error}");
    assert_eq!(error.os_code(), Some(not_a_directory()), "{error}");
    assert!(error.to_string().contains(&text(&plain)), "{error}");

    // A custom FS's failure to list.
    let fs = TestFs::new()
        .file("AGENTS.md", "root\n")
        .file("a/b/AGENTS.md", "b\n")
        .fault(Op::List, "a", Fault::Fail("permission denied".into()))
        .build();
    let error = err("a/b", &custom(&fs));
    assert_eq!(error.kind(), ErrorKind::Fs, "{error}");
    assert!(error.to_string().contains("permission denied"), "{error}");
}

// ---------------------------------------------------------------------------------------------
// §1 Bounds
// ---------------------------------------------------------------------------------------------

#[test]
fn max_bytes_default_is_1_mib() {
    assert_eq!(DEFAULT_MAX_BYTES, 1 << 20);
    let tree = Tree::new();
    tree.file("AGENTS.md", vec![b'x'; 1 << 20]);
    let result = ok(tree.root(), &os(&tree));
    assert_eq!(result.files[0].content.len(), 1 << 20);

    tree.file("a/AGENTS.md", vec![b'x'; (1 << 20) + 1]);
    let error = err(tree.path("a"), &os(&tree));
    assert_eq!(error.kind(), ErrorKind::TooLarge, "{error}");

    // A file of a custom file system larger than its stat says is read up to the default limit
    // and one byte more, no further.
    let fs = TestFs::new()
        .file_sized("AGENTS.md", vec![b'x'; (1 << 20) + 2], 1)
        .build();
    assert_eq!(err(".", &custom(&fs)).kind(), ErrorKind::TooLarge);
    assert_eq!(fs.limits(), [("AGENTS.md".to_string(), (1 << 20) + 1)]);
}

#[test]
fn max_bytes_reads_at_most_max_plus_one() {
    let fs = TestFs::new()
        .file("AGENTS.md", "12345")
        .file("a/AGENTS.md", vec![b'y'; 100])
        .build();
    let options = custom(&fs).max_bytes(10);
    let error = err("a", &options);
    assert_eq!(error.kind(), ErrorKind::TooLarge);
    // A file within the limit is read up to its size and the one byte that tells its end.
    assert_eq!(
        fs.limits(),
        [
            ("AGENTS.md".to_string(), 6),
            ("a/AGENTS.md".to_string(), 11)
        ]
    );
}

#[test]
fn file_of_exactly_max_bytes_is_kept() {
    let tree = Tree::new();
    tree.file("AGENTS.md", "0123456789");
    tree.file("a/AGENTS.md", "0123456789A");
    let options = os(&tree).max_bytes(10);
    let result = ok(tree.root(), &options);
    assert_eq!(contents(&result.files), ["0123456789"]);
    let error = err(tree.path("a"), &options);
    assert_eq!(error.kind(), ErrorKind::TooLarge);
}

#[test]
fn too_large_names_the_file() {
    let tree = Tree::new();
    tree.file("AGENTS.md", "fine\n");
    let big = tree.file("a/AGENTS.md", "123456789");
    // "fine\n" is exactly 5 bytes: kept, and the error names the file over the limit.
    let options = os(&tree).max_bytes(5);
    let error = err(tree.path("a/new.txt"), &options);
    assert_eq!(error.kind(), ErrorKind::TooLarge, "{error}");
    assert!(error.to_string().contains(&text(&big)), "{error}");
    // With a limit of 4 the first file is over it, and it is the one named.
    let options = options.max_bytes(4);
    let error = err(tree.path("a/new.txt"), &options);
    assert_eq!(error.kind(), ErrorKind::TooLarge, "{error}");
    assert!(
        error.to_string().contains(&at(&tree, "AGENTS.md")),
        "{error}"
    );
    assert!(!error.to_string().contains(&text(&big)), "{error}");
}

#[test]
fn too_large_is_not_checked_on_files_left_out_unread() {
    // A file over max_bytes that the budget leaves out is never read, so it is no error.
    let fs = TestFs::new()
        .file("AGENTS.md", "0123456789")
        .file("a/AGENTS.md", vec![b'x'; 100])
        .build();
    let options = custom(&fs).max_bytes(50).budget(10);
    let result = ok("a", &options);
    assert_eq!(paths(&result.files), ["AGENTS.md"]);
    assert_eq!(omitted(&result.omitted), [over("a/AGENTS.md", 100)]);
}

#[test]
fn budget_counts_bytes_read_not_reported_size() {
    // Stat says 1 byte, each file reads 5: charged 5 each.
    let fs = TestFs::new()
        .file_sized("AGENTS.md", "aaaaa", 1)
        .file_sized("a/AGENTS.md", "bbbbb", 1)
        .file_sized("a/b/AGENTS.md", "ccccc", 1)
        .build();
    let options = custom(&fs).budget(12);
    let result = ok("a/b", &options);
    assert_eq!(paths(&result.files), ["AGENTS.md", "a/AGENTS.md"]);
    assert_eq!(omitted(&result.omitted), [over("a/b/AGENTS.md", 5)]);

    // Stat says 8 bytes, each file reads 2: charged 2 each, so a second file's 8 still fits.
    let fs = TestFs::new()
        .file_sized("AGENTS.md", "aa", 8)
        .file_sized("a/AGENTS.md", "bb", 8)
        .file_sized("a/b/AGENTS.md", "cc", 8)
        .build();
    let options = custom(&fs).budget(10);
    let result = ok("a/b", &options);
    assert_eq!(paths(&result.files), ["AGENTS.md", "a/AGENTS.md"]);
    assert_eq!(omitted(&result.omitted), [over("a/b/AGENTS.md", 8)]);
    assert_eq!(fs.reads_of("a/b/AGENTS.md"), 0);
}

#[test]
fn budget_exactly_spent_keeps_the_file() {
    let tree = Tree::new();
    tree.file("AGENTS.md", "0123456789");
    tree.file("a/AGENTS.md", "01234567890123456789");
    let result = ok(tree.path("a"), &os(&tree).budget(30));
    assert_eq!(result.files.len(), 2);
    assert!(result.omitted.is_empty());
    let result = ok(tree.path("a"), &os(&tree).budget(29));
    assert_eq!(paths(&result.files), [at(&tree, "AGENTS.md")]);
    assert_eq!(
        omitted(&result.omitted),
        [over(at(&tree, "a/AGENTS.md"), 20)]
    );
}

#[test]
fn file_over_budget_by_reported_size_is_left_out_unread() {
    let fs = TestFs::new()
        .file("AGENTS.md", "small")
        .file_sized("a/AGENTS.md", "x", 100)
        .build();
    let options = custom(&fs).budget(50);
    let result = ok("a", &options);
    assert_eq!(paths(&result.files), ["AGENTS.md"]);
    assert_eq!(omitted(&result.omitted), [over("a/AGENTS.md", 100)]);
    assert_eq!(fs.reads_of("a/AGENTS.md"), 0);
}

#[test]
fn file_reading_more_than_fits_is_left_out_with_size_read() {
    let fs = TestFs::new()
        .file("AGENTS.md", "abc")
        .file_sized("a/AGENTS.md", vec![b'x'; 20], 2)
        .build();
    let options = custom(&fs).budget(10);
    let result = ok("a", &options);
    assert_eq!(paths(&result.files), ["AGENTS.md"]);
    assert_eq!(omitted(&result.omitted), [over("a/AGENTS.md", 20)]);
    assert_eq!(fs.reads_of("a/AGENTS.md"), 1);
}

#[test]
fn first_file_over_budget_ends_the_chain() {
    let fs = TestFs::new()
        .file("AGENTS.md", "0123456789")
        .file("a/AGENTS.md", "01234567890123456789")
        .file("a/b/AGENTS.md", "1")
        .build();
    let options = custom(&fs).budget(15);
    // Running out is not an error: the chain returns what fits.
    let result = ok("a/b", &options);
    assert_eq!(paths(&result.files), ["AGENTS.md"]);
    assert_eq!(
        omitted(&result.omitted),
        [over("a/AGENTS.md", 20), over("a/b/AGENTS.md", 1)]
    );
    // The last file would have fitted, but the chain had ended: it was not read.
    assert_eq!(fs.reads_of("a/b/AGENTS.md"), 0);
}

#[test]
fn listing_continues_after_the_chain_ends() {
    let fs = TestFs::new()
        .file("AGENTS.md", "0123456789")
        .file("a/AGENTS.override.md", "override\n")
        .file("a/AGENTS.md", "a\n")
        .file("a/b/AGENTS.md", "b\n")
        .build();
    let options = custom(&fs)
        .names(["AGENTS.override.md", "AGENTS.md"])
        .budget(5);
    let result = ok("a/b", &options);
    assert!(result.files.is_empty());
    assert_eq!(
        omitted(&result.omitted),
        [
            over("AGENTS.md", 10),
            over("a/AGENTS.override.md", 9),
            shadowed("a/AGENTS.md", 2, "a/AGENTS.override.md"),
            over("a/b/AGENTS.md", 2),
        ]
    );
    assert_eq!(fs.asked(Op::List), [".", "a", "a/b"]);
    assert!(fs.asked(Op::Read).is_empty());
}

#[test]
fn listing_error_after_chain_ended_is_still_error() {
    let fs = TestFs::new()
        .file("AGENTS.md", "0123456789")
        .file("a/b/AGENTS.md", "b\n")
        .fault(Op::List, "a/b", Fault::Fail("listing broke".into()))
        .build();
    let options = custom(&fs).budget(5);
    let error = err("a/b", &options);
    assert_eq!(error.kind(), ErrorKind::Fs);
    assert!(error.to_string().contains("listing broke"), "{error}");
}

#[test]
fn rendered_budget_counts_exact_rendered_bytes() {
    // Paths with characters that escape, and contents with and without a final newline.
    let fs = TestFs::new()
        .file("AGENTS.md", "root\n")
        .file("a&b/AGENTS.md", "mid, no newline")
        .file("a&b/\"c\"<d>/AGENTS.md", "<leaf>\n")
        .build();
    let start = "a&b/\"c\"<d>";
    let all = ok(start, &custom(&fs)).files;
    assert_eq!(all.len(), 3);
    let len = |k: usize| render(&all[..k]).len() as u64;
    for kept in 0..=all.len() {
        // A rendered budget of exactly `kept` files' rendering keeps them...
        if kept > 0 {
            let options = custom(&fs).rendered_budget(len(kept));
            let result = ok(start, &options);
            assert_eq!(result.files, all[..kept], "budget {}", len(kept));
            assert_eq!(result.omitted.len(), all.len() - kept);
        }
        // ...and one byte less than `kept + 1` files' rendering keeps `kept` and ends there.
        if kept < all.len() {
            let budget = len(kept + 1) - 1;
            let options = custom(&fs).rendered_budget(budget);
            let result = ok(start, &options);
            assert_eq!(result.files, all[..kept], "budget {budget}");
            let left_out: Vec<String> = result.omitted.iter().map(|o| text(&o.path)).collect();
            assert_eq!(left_out, paths(&all[kept..]));
            assert!(result.omitted.iter().all(|o| o.reason == OverBudget));
            assert!(render(&result.files).len() as u64 <= budget);
        }
    }
}

#[test]
fn rendered_budget_reported_size_check_ignores_added_newline() {
    let rendered = render(&[(&b"AGENTS.md"[..], &b"abc"[..])]).len() as u64;
    let run = |rendered_budget: u64| {
        let fs = TestFs::new().file("AGENTS.md", "abc").build();
        let options = custom(&fs).rendered_budget(rendered_budget);
        let result = ok(".", &options);
        (result, fs.reads_of("AGENTS.md"))
    };
    let (result, reads) = run(rendered);
    assert_eq!(paths(&result.files), ["AGENTS.md"]);
    assert_eq!(reads, 1);
    // Fits without the newline render adds: read, then left out with the size read.
    let (result, reads) = run(rendered - 1);
    assert!(result.files.is_empty());
    assert_eq!(omitted(&result.omitted), [over("AGENTS.md", 3)]);
    assert_eq!(reads, 1);
    // Does not fit even without it: left out unread.
    let (result, reads) = run(rendered - 2);
    assert!(result.files.is_empty());
    assert_eq!(omitted(&result.omitted), [over("AGENTS.md", 3)]);
    assert_eq!(reads, 0);
}

#[test]
fn budget_and_rendered_budget_first_over_either_ends() {
    let fs = TestFs::new()
        .file("AGENTS.md", "0123456789")
        .file("a/AGENTS.md", "abcdefghij")
        .file("a/b/AGENTS.md", "z")
        .build();
    let all = ok("a/b", &custom(&fs)).files;
    let run = |budget: u64, rendered_budget: u64| {
        let options = custom(&fs).budget(budget).rendered_budget(rendered_budget);
        ok("a/b", &options)
    };
    let both_out = [over("a/AGENTS.md", 10), over("a/b/AGENTS.md", 1)];

    // The files' budget is the first to run out.
    let result = run(15, 1 << 20);
    assert_eq!(paths(&result.files), ["AGENTS.md"]);
    assert_eq!(omitted(&result.omitted), both_out);

    // The rendering's budget is the first to run out; the last file would fit both alone.
    let result = run(100, render(&all[..2]).len() as u64 - 1);
    assert_eq!(paths(&result.files), ["AGENTS.md"]);
    assert_eq!(omitted(&result.omitted), both_out);

    // With the whole rendering allowed, the files' budget still bounds the files.
    let result = run(20, render(&all).len() as u64);
    assert_eq!(paths(&result.files), ["AGENTS.md", "a/AGENTS.md"]);
    assert_eq!(omitted(&result.omitted), [over("a/b/AGENTS.md", 1)]);
}

#[test]
fn custom_fs_expanding_read_is_held_to_bounds() {
    // Stat says 1 byte; the read returns 100, whatever the limit it was given.
    let expanding = || {
        TestFs::new()
            .file_sized("AGENTS.md", vec![b'e'; 100], 1)
            .build()
    };
    let fs = expanding();
    let error = err(".", &custom(&fs).max_bytes(50));
    assert_eq!(error.kind(), ErrorKind::TooLarge, "{error}");
    assert!(error.to_string().contains("AGENTS.md"), "{error}");
    assert_eq!(fs.limits(), [("AGENTS.md".to_string(), 51)]);

    let fs = expanding();
    let result = ok(".", &custom(&fs).budget(20));
    assert!(result.files.is_empty());
    assert_eq!(omitted(&result.omitted), [over("AGENTS.md", 100)]);

    let fs = expanding();
    let one_byte = render(&[(&b"AGENTS.md"[..], &b"e\n"[..])]).len() as u64;
    let result = ok(".", &custom(&fs).rendered_budget(one_byte));
    assert!(result.files.is_empty());
    assert_eq!(omitted(&result.omitted), [over("AGENTS.md", 100)]);
}

// ---------------------------------------------------------------------------------------------
// §1 Omitted, empty files
// ---------------------------------------------------------------------------------------------

#[test]
fn omitted_in_order_met() {
    let tree = Tree::new();
    let e1 = tree.file("home/e1.md", "e1\n");
    let e2 = tree.file("home/e2.md", vec![b'2'; 100]);
    // Listing order (alphabetical or not) differs from names order.
    tree.file("A.md", "a");
    tree.file("M.md", "m");
    tree.file("Z.md", "z");
    tree.file("d/A.md", "da");
    tree.file("d/M.md", "dm");
    tree.file("d/e/M.md", "dem");
    let options = os(&tree)
        .names(["Z.md", "A.md", "M.md"])
        .extra(vec![e1, e2])
        .budget(3);
    let result = ok(tree.path("d/e"), &options);
    assert_eq!(paths(&result.files), [at(&tree, "home/e1.md")]);
    assert_eq!(
        omitted(&result.omitted),
        [
            over(at(&tree, "home/e2.md"), 100),
            over(at(&tree, "Z.md"), 1),
            shadowed(at(&tree, "A.md"), 1, at(&tree, "Z.md")),
            shadowed(at(&tree, "M.md"), 1, at(&tree, "Z.md")),
            over(at(&tree, "d/A.md"), 2),
            shadowed(at(&tree, "d/M.md"), 2, at(&tree, "d/A.md")),
            over(at(&tree, "d/e/M.md"), 3),
        ]
    );
}

#[test]
fn shadowed_stays_shadowed_after_budget_ran_out() {
    let fs = TestFs::new()
        .file("AGENTS.md", "0123456789")
        .file("a/AGENTS.override.md", "over")
        .file("a/AGENTS.md", "a")
        .build();
    let options = custom(&fs)
        .names(["AGENTS.override.md", "AGENTS.md"])
        .budget(10);
    let result = ok("a", &options);
    assert_eq!(paths(&result.files), ["AGENTS.md"]);
    assert_eq!(
        omitted(&result.omitted),
        [
            over("a/AGENTS.override.md", 4),
            shadowed("a/AGENTS.md", 1, "a/AGENTS.override.md"),
        ]
    );
    assert_eq!(fs.reads_of("a/AGENTS.md"), 0);
}

#[test]
fn empty_file_is_a_file() {
    let tree = Tree::new();
    tree.file("AGENTS.md", "");
    tree.file("CLAUDE.md", "not empty\n");
    tree.file("a/AGENTS.md", "a\n");
    let options = os(&tree).names(["AGENTS.md", "CLAUDE.md"]);
    let result = ok(tree.path("a"), &options);
    assert_eq!(
        paths(&result.files),
        [at(&tree, "AGENTS.md"), at(&tree, "a/AGENTS.md")]
    );
    assert_eq!(contents(&result.files), ["", "a\n"]);
    assert_eq!(
        omitted(&result.omitted),
        [shadowed(at(&tree, "CLAUDE.md"), 10, at(&tree, "AGENTS.md"))]
    );
    let element = format!(
        "<project_instructions path=\"{}\">\n\n</project_instructions>\n",
        at(&tree, "AGENTS.md")
    );
    assert!(text(&render(&result.files)).contains(&element));
}

// ---------------------------------------------------------------------------------------------
// §2 Render
// ---------------------------------------------------------------------------------------------

#[test]
fn render_exact_bytes() {
    let files: [(&[u8], &[u8]); 2] = [(b"/p/AGENTS.md", b"one\n"), (b"q", b"two")];
    let expected: &[u8] = b"<project_context>\n\
        <project_instructions path=\"/p/AGENTS.md\">\none\n</project_instructions>\n\
        <project_instructions path=\"q\">\ntwo\n</project_instructions>\n\
        </project_context>";
    assert_eq!(render(&files), expected);

    // A file of a chain renders as its path and content: one read from a file system.
    let fs = TestFs::new().file("x", "y\n").build();
    let files = ok(".", &custom(&fs).names(["x"])).files;
    assert_eq!(
        render(&files),
        b"<project_context>\n<project_instructions path=\"x\">\ny\n</project_instructions>\n</project_context>"
    );
}

#[test]
fn render_escapes_four_characters_only() {
    let path: &[u8] = b"&<>\"'\t=/\xc3\xa9\xff&amp;";
    let content: &[u8] = b"&<>\"' verbatim &amp;\xff";
    let out = render(&[(path, content)]);
    let mut expected = b"<project_context>\n<project_instructions path=\"".to_vec();
    expected.extend_from_slice(b"&amp;&lt;&gt;&quot;'\t=/\xc3\xa9\xff&amp;amp;");
    expected.extend_from_slice(b"\">\n");
    expected.extend_from_slice(content);
    expected.extend_from_slice(b"\n</project_instructions>\n</project_context>");
    assert_eq!(out, expected);
}

#[test]
fn render_adds_newline_only_when_missing() {
    for (content, body) in [
        (&b"x"[..], &b"x\n"[..]),
        (b"x\n", b"x\n"),
        (b"x\n\n", b"x\n\n"),
        (b"", b"\n"),
        (b"\n", b"\n"),
        (b"x\r", b"x\r\n"),
        (b"x\r\n", b"x\r\n"),
    ] {
        let mut expected = b"<project_context>\n<project_instructions path=\"p\">\n".to_vec();
        expected.extend_from_slice(body);
        expected.extend_from_slice(b"</project_instructions>\n</project_context>");
        assert_eq!(render(&[(&b"p"[..], content)]), expected, "{content:?}");
    }
}

#[test]
fn render_of_no_files_is_empty() {
    assert!(render::<&[File]>(&[]).is_empty());
    assert!(render::<&[(&[u8], &[u8])]>(&[]).is_empty());
}

#[test]
fn render_golden_example() {
    let files: [(&[u8], &[u8]); 2] = [
        (b"/r/AGENTS.md", b"root rules\n"),
        (b"/r/a \"b\"/AGENTS.md", b"leaf & <x>"),
    ];
    let expected = "<project_context>
<project_instructions path=\"/r/AGENTS.md\">
root rules
</project_instructions>
<project_instructions path=\"/r/a &quot;b&quot;/AGENTS.md\">
leaf & <x>
</project_instructions>
</project_context>";
    assert_eq!(text(&render(&files)), expected);
}

#[test]
fn render_takes_rewritten_paths() {
    // A product renders its own list, such as FS names rewritten as workspace paths.
    let fs = TestFs::new().file("a/AGENTS.md", "a\n").build();
    let result = ok("a", &custom(&fs));
    let shown: Vec<(Vec<u8>, Vec<u8>)> = result
        .files
        .iter()
        .map(|f| {
            (
                [&b"/workspace/"[..], f.path.bytes()].concat(),
                f.content.clone(),
            )
        })
        .collect();
    let pairs: Vec<(&[u8], &[u8])> = shown
        .iter()
        .map(|(p, c)| (p.as_slice(), c.as_slice()))
        .collect();
    assert_eq!(
        text(&render(&pairs)),
        "<project_context>\n<project_instructions path=\"/workspace/a/AGENTS.md\">\na\n</project_instructions>\n</project_context>"
    );
}

#[test]
fn part_id_is_agentsmd() {
    assert_eq!(PART_ID, "agentsmd");
}

// testdata/tree holds `c&"d"`, a name Windows cannot hold.
#[test]
#[cfg(unix)]
fn golden_rendering() {
    // The C library's test data, at the top of the repository.
    let testdata = Path::new(env!("CARGO_MANIFEST_DIR")).join("../testdata");
    let options = Options::new()
        .names(["AGENTS.override.md", "AGENTS.md"])
        .fs(Arc::new(TestFs::load(testdata.join("tree"))));
    let result = ok("a/b/c&\"d\"/new.txt", &options);
    assert_eq!(
        paths(&result.files),
        ["AGENTS.md", "a/AGENTS.override.md", "a/b/c&\"d\"/AGENTS.md"]
    );
    assert_eq!(
        omitted(&result.omitted),
        [shadowed("a/AGENTS.md", 34, "a/AGENTS.override.md")]
    );
    let rendered = render(&result.files);
    let golden = testdata.join("golden/render.txt");
    if std::env::var_os("AGENTSMD_UPDATE").is_some() {
        std::fs::write(&golden, &rendered).unwrap();
    }
    let committed = std::fs::read(&golden).unwrap();
    assert!(
        rendered == committed,
        "render differs from testdata/golden/render.txt; if the change is intended, run \
         `AGENTSMD_UPDATE=1 cargo test` and review the diff\n--- rendered:\n{}\n--- golden:\n{}",
        text(&rendered),
        text(&committed)
    );
}

// ---------------------------------------------------------------------------------------------
// §3 Custom file system
// ---------------------------------------------------------------------------------------------

#[test]
fn custom_fs_not_found_alone_means_no_file() {
    let fs = TestFs::new()
        .file("AGENTS.override.md", "root override\n")
        .file("AGENTS.md", "root\n")
        .file("a/AGENTS.override.md", "a override\n")
        .file("a/AGENTS.md", "a\n")
        .file("a/b/AGENTS.md", "b\n")
        // Listed, but stat says "not found".
        .fault(Op::Stat, "AGENTS.override.md", Fault::NotFound)
        // Listed and stat'd, but read says "not found".
        .fault(Op::Read, "a/AGENTS.override.md", Fault::NotFound)
        .build();
    let options = custom(&fs).names(["AGENTS.override.md", "AGENTS.md"]);
    let result = ok("a/b", &options);
    assert_eq!(
        paths(&result.files),
        ["AGENTS.md", "a/AGENTS.md", "a/b/AGENTS.md"]
    );
    assert!(result.omitted.is_empty(), "{result:?}");
}

#[test]
fn custom_fs_error_is_chain_error_with_message() {
    for (op, name) in [
        (Op::List, "a"),
        (Op::Stat, "a/AGENTS.md"),
        (Op::Read, "a/AGENTS.md"),
        (Op::Stat, "a/b"),
    ] {
        let fs = TestFs::new()
            .file("a/AGENTS.md", "a\n")
            .dir("a/b")
            .fault(op, name, Fault::Fail("disk on fire".into()))
            .build();
        let error = err("a/b", &custom(&fs));
        assert_eq!(error.kind(), ErrorKind::Fs, "{op:?} {name}: {error}");
        assert!(error.to_string().contains("disk on fire"), "{error}");
        assert!(error.to_string().contains(name), "{error}");
        assert_eq!(error.os_code(), None);
    }
}

// ---------------------------------------------------------------------------------------------
// §4 Errors
// ---------------------------------------------------------------------------------------------

#[test]
fn invalid_argument_error_names_the_path() {
    let tree = Tree::new();
    let outside = tree.path("elsewhere");
    let options = Options::new().root(tree.path("r"));
    let error = err(&outside, &options);
    assert_eq!(error.kind(), ErrorKind::InvalidArgument);
    assert!(error.to_string().contains(&text(&outside)), "{error}");

    let fs = TestFs::new().build();
    let error = err("bad//name", &custom(&fs));
    assert_eq!(error.kind(), ErrorKind::InvalidArgument);
    assert!(error.to_string().contains("bad//name"), "{error}");
}

#[test]
fn io_error_carries_os_code() {
    let tree = Tree::new();
    tree.file("plain", "a file\n");
    let path = tree.path("plain/AGENTS.md");
    let error = err(&path, &os(&tree));
    assert_eq!(error.kind(), ErrorKind::Io);
    assert_eq!(error.os_code(), Some(not_a_directory()), "{error}");
    assert!(error.to_string().contains(&text(&path)), "{error}");
}

/// A caller that cancels the chain while its file system answers a question: that answer is
/// taken, and the next question is not asked.
#[test]
fn aborted_stops_the_chain_before_the_next_question() {
    let cancel = Cancel::new();
    let fs = TestFs::new()
        .file("AGENTS.md", "root\n")
        .file("a/AGENTS.md", "a\n")
        .file("a/b/AGENTS.md", "b\n")
        .fault(Op::List, "a", Fault::Cancel(cancel.clone()))
        .build();
    let error = err("a/b", &custom(&fs).cancel(cancel));
    assert_eq!(error.kind(), ErrorKind::Aborted);
    assert_eq!(error.path(), Some(Path::new("a/AGENTS.md")), "{error}");
    assert!(error.to_string().contains("a/AGENTS.md"), "{error}");
    assert_eq!(fs.calls().last(), Some(&(Op::List, b"a".to_vec())));
}

/// A batch is a question too: a chain cancelled while its listings are answered in one batch
/// asks for no batch of reads.
#[test]
fn aborted_stops_the_chain_before_the_next_batch() {
    let cancel = Cancel::new();
    let fs = TestFs::new()
        .file("AGENTS.md", "root\n")
        .file("a/AGENTS.md", "a\n")
        .batched()
        .fault(Op::ListMany, ".", Fault::Cancel(cancel.clone()))
        .build();
    let error = err("a", &custom(&fs).cancel(cancel));
    assert_eq!(error.kind(), ErrorKind::Aborted);
    assert_eq!(fs.batches_of(Op::ListMany), 1);
    assert_eq!(fs.batches_of(Op::ReadMany), 0);
    assert!(fs.calls().is_empty(), "{:?}", fs.calls());
}

#[test]
fn aborted_at_once_when_cancelled_before_the_call() {
    let cancel = Cancel::new();
    cancel.cancel();
    let fs = TestFs::new().file("AGENTS.md", "root\n").build();
    let error = err(".", &custom(&fs).cancel(cancel.clone()));
    assert_eq!(error.kind(), ErrorKind::Aborted);
    assert!(fs.calls().is_empty(), "{:?}", fs.calls());

    let tree = Tree::new();
    tree.file("AGENTS.md", "root\n");
    let error = err(tree.path("AGENTS.md"), &os(&tree).cancel(cancel));
    assert_eq!(error.kind(), ErrorKind::Aborted);
}

#[test]
fn a_token_not_cancelled_changes_nothing() {
    let fs = TestFs::new()
        .file("AGENTS.md", "root\n")
        .file("a/AGENTS.md", "a\n")
        .build();
    let cancel = Cancel::new();
    let with = ok("a", &custom(&fs).cancel(cancel.clone()));
    assert_eq!(with, ok("a", &custom(&fs)));
    assert!(!cancel.is_cancelled());
}

/// `Panic` is a kind of the C boundary (a bug caught there), so the core has none: its test is
/// the C suite's. What stays here is that every kind the core has is its own.
#[test]
fn error_kinds_are_distinct() {
    let fs = TestFs::new()
        .file("AGENTS.md", "x\n")
        .fault(Op::Read, "AGENTS.md", Fault::Fail("boom".into()))
        .build();
    let error = err(".", &custom(&fs));
    assert!(error.to_string().contains("boom"));
    assert_eq!(error.os_code(), None);
    let kinds = [
        ErrorKind::InvalidArgument,
        ErrorKind::TooLarge,
        ErrorKind::Io,
        ErrorKind::Fs,
        ErrorKind::Import,
        ErrorKind::Aborted,
    ];
    for (i, a) in kinds.iter().enumerate() {
        for b in &kinds[i + 1..] {
            assert_ne!(a, b);
        }
    }
}

#[test]
fn errors_display_their_message() {
    let fs = TestFs::new()
        .file("x/AGENTS.md", "x\n")
        .fault(Op::Read, "x/AGENTS.md", Fault::Fail("gone".into()))
        .build();
    let error = err("x", &custom(&fs));
    assert_eq!(error.to_string().as_bytes(), error.message());
    assert!(error.to_string().contains("x/AGENTS.md"));
}

/// SPEC.md §7: an error names the path on disk, never a lossy copy of it: two paths that differ
/// only in bytes that are not UTF-8 give two messages, each holding its path's bytes.
#[test]
#[cfg_attr(
    windows,
    ignore = "no name that is not UTF-16 under Wine: see support::MAKES_LINKS"
)]
fn an_error_message_keeps_the_bytes_of_a_path_that_is_not_utf8() {
    let dir = tempfile::tempdir().unwrap();
    let mut messages = Vec::new();
    for byte in [NOT_UTF8[1], NOT_UTF8[2]] {
        let extra = dir.path().join(path([b"x", byte].concat()));
        std::fs::create_dir(&extra).unwrap();
        let options = Options::new().root(dir.path()).extra([&extra]);
        let error = chain(dir.path(), &options).unwrap_err();
        assert_eq!(error.kind(), ErrorKind::InvalidArgument);
        let path = extra.bytes();
        assert!(
            error.message().windows(path.len()).any(|w| w == path),
            "{error}"
        );
        messages.push(error.message().to_vec());
    }
    assert_ne!(messages[0], messages[1]);
}

#[test]
#[cfg(target_os = "linux")]
fn every_rule_here_holds_on_the_portable_path() {
    support::rerun_on_the_portable_path(&[]);
}

#[test]
#[cfg(unix)]
fn every_rule_here_holds_through_batches() {
    support::rerun_through_batches(&[]);
}
