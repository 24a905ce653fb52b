//! One test (at least) per rule of SPEC.md §5 (composition), each named after the rule it pins,
//! every error of §5.4 among them. OS tests build their tree in a temporary directory passed as
//! the root; custom-FS tests use [`TestFs`], which records what the walk asked it.

mod support;

use std::collections::HashMap;
use std::path::Path;
use std::sync::Arc;

use agentsmd_core::fs::{Entry, FileSystem};
use agentsmd_core::{
    overlay_dir, Chain, ErrorKind, FsName, Import, Options, Outcome, Reason, Source, Transform,
};
use support::{at, custom, err, ok, omitted, os, paths, text, Bytes, Fault, Op, TestFs, Tree};

use Reason::{Duplicate, Escapes, OverBudget, Shadowed, Superseded};

fn contents(chain: &Chain) -> Vec<String> {
    chain.files.iter().map(|f| text(&f.content)).collect()
}

fn sources(chain: &Chain) -> Vec<Source> {
    chain.files.iter().map(|f| f.source).collect()
}

fn probes(chain: &Chain) -> Vec<(String, Source, Outcome)> {
    chain
        .probes
        .iter()
        .map(|p| (text(&p.path), p.source, p.outcome))
        .collect()
}

/// (path, by, line, depth, size, duplicate) of each import.
fn imports(imports: &[Import]) -> Vec<(String, String, u64, u32, u64, bool)> {
    imports
        .iter()
        .map(|i| {
            (
                text(&i.path),
                text(&i.by),
                i.line,
                i.depth,
                i.size,
                i.duplicate,
            )
        })
        .collect()
}

fn entry(
    path: impl Into<String>,
    size: u64,
    reason: Reason,
    by: &str,
) -> (String, u64, Reason, String) {
    (path.into(), size, reason, by.to_owned())
}

/// The message of an import error of the custom file system `fs` at `a/x`, checking its kind.
fn import_error(fs: &Arc<TestFs>, options: Options) -> String {
    let error = err(
        "a/x",
        &options
            .fs(Arc::clone(fs) as Arc<dyn FileSystem>)
            .imports(true),
    );
    assert_eq!(error.kind(), ErrorKind::Import, "{error}");
    error.to_string()
}

// §5 ---------------------------------------------------------------------------------------

#[test]
fn with_every_option_off_the_chain_is_that_of_section_1() {
    let tree = Tree::new();
    tree.file("AGENTS.md", "@a.md\n${env:HOME}\n");
    tree.file("a.md", "imported\n");
    tree.file(".agents/AGENTS.d/x.md", "fragment\n");
    tree.file("a/AGENTS.md", "leaf\n");
    // import_depth and max_imports without imports change nothing.
    let options = os(&tree).import_depth(1).max_imports(1);
    let chain = ok(tree.path("a/x"), &options);
    assert_eq!(contents(&chain), ["@a.md\n${env:HOME}\n", "leaf\n"]);
    assert_eq!(sources(&chain), [Source::Chain, Source::Chain]);
    assert!(chain.omitted.is_empty());
    assert!(chain.imports.is_empty());
    assert!(chain.probes.is_empty());
    assert_eq!(chain, ok(tree.path("a/x"), &os(&tree)));
}

// §5.1 -------------------------------------------------------------------------------------

#[test]
fn the_result_is_extra_then_each_directory_and_its_fragments_then_each_overlay() {
    let tree = Tree::new();
    tree.file("extra.md", "extra\n");
    tree.file("repo/AGENTS.md", "root\n");
    tree.file("repo/frag/r.md", "root fragment\n");
    tree.file("repo/a/frag/a.md", "a fragment\n");
    tree.file("repo/a/AGENTS.md", "a\n");
    tree.file("o1/AGENTS.md", "overlay 1\n");
    tree.file("o1/frag/o.md", "overlay 1 fragment\n");
    tree.file("o2/AGENTS.md", "overlay 2\n");
    let options = Options::new()
        .root(tree.path("repo"))
        .extra([tree.path("extra.md")])
        .fragments(["frag"])
        .overlays([tree.path("o1"), tree.path("o2")]);
    let chain = ok(tree.path("repo/a/x"), &options);
    assert_eq!(
        contents(&chain),
        [
            "extra\n",
            "root\n",
            "root fragment\n",
            "a\n",
            "a fragment\n",
            "overlay 1\n",
            "overlay 1 fragment\n",
            "overlay 2\n"
        ]
    );
    use Source::{Chain as C, Extra, Fragment, Overlay};
    assert_eq!(
        sources(&chain),
        [Extra, C, Fragment, C, Fragment, Overlay, Overlay, Overlay]
    );
}

#[test]
fn the_budgets_are_spent_in_the_result_order() {
    let tree = Tree::new();
    tree.file("AGENTS.md", "12345\n");
    tree.file("frag/f.md", "123\n");
    tree.file("o/AGENTS.md", "1\n");
    let options = os(&tree)
        .fragments(["frag"])
        .overlays([tree.path("o")])
        .budget(8);
    let chain = ok(tree.path("x"), &options);
    assert_eq!(contents(&chain), ["12345\n"]);
    // The first file over budget ends the chain: the overlay, which would fit, is left out too.
    assert_eq!(
        omitted(&chain.omitted),
        [
            entry(at(&tree, "frag/f.md"), 4, OverBudget, ""),
            entry(at(&tree, "o/AGENTS.md"), 2, OverBudget, ""),
        ]
    );
}

// §5.2 -------------------------------------------------------------------------------------

#[test]
fn fragments_follow_their_directorys_own_file_whether_or_not_it_has_one() {
    let tree = Tree::new();
    tree.file(".agents/AGENTS.d/b.md", "root b\n");
    tree.file(".agents/AGENTS.d/a.md", "root a\n");
    tree.file("a/AGENTS.md", "a\n");
    tree.file("a/.agents/AGENTS.d/z.md", "a z\n");
    tree.file("a/more/m.md", "a m\n");
    let options = os(&tree).fragments([".agents/AGENTS.d", "more"]);
    let chain = ok(tree.path("a/x"), &options);
    assert_eq!(
        contents(&chain),
        ["root a\n", "root b\n", "a\n", "a z\n", "a m\n"]
    );
}

#[test]
fn fragment_files_are_regular_md_files_not_beginning_with_a_dot_in_byte_order() {
    let tree = Tree::new();
    let mut names = vec!["B.md", "a.md", "\u{e9}.md", ".hidden.md", "notes.txt", "md"];
    // Windows folds case: `a.MD` would be `a.md` there.
    if cfg!(unix) {
        names.push("a.MD");
    }
    for name in names {
        tree.file(format!("f/{name}"), name);
    }
    tree.file("f/sub.md/inner.md", "not entered");
    tree.dir("f/deeper");
    tree.file("f/deeper/d.md", "not entered");
    // Links, where this host makes them.
    let links = support::MAKES_LINKS;
    if links {
        tree.symlink("f/dangling.md", "nowhere.md");
        tree.symlink("f/link.md", "a.md");
    }
    // Windows has no FIFO in a directory.
    #[cfg(unix)]
    tree.fifo("f/fifo.md");
    let chain = ok(tree.path("x"), &os(&tree).fragments(["f"]));
    let mut expected = vec![("f/B.md", "B.md"), ("f/a.md", "a.md")];
    if links {
        expected.push(("f/link.md", "a.md"));
    }
    expected.push(("f/\u{e9}.md", "\u{e9}.md"));
    let (rels, texts): (Vec<&str>, Vec<&str>) = expected.into_iter().unzip();
    assert_eq!(contents(&chain), texts);
    let expected: Vec<String> = rels.iter().map(|rel| at(&tree, rel)).collect();
    assert_eq!(paths(&chain.files), expected);
}

#[test]
fn every_fragment_file_counts_however_many_and_long_their_names() {
    // More than any one read of a directory returns: 1,500 names of 200 bytes.
    let tree = Tree::new();
    let names: Vec<String> = (0..1_500)
        .map(|i| format!("{i:04}-{}.md", "x".repeat(192)))
        .collect();
    for name in &names {
        tree.file(format!("f/{name}"), "-\n");
    }
    let chain = ok(tree.path("x"), &os(&tree).fragments(["f"]));
    let expected: Vec<String> = names
        .iter()
        .map(|name| at(&tree, &format!("f/{name}")))
        .collect();
    assert_eq!(paths(&chain.files), expected);
}

#[test]
fn a_fragment_directory_that_is_missing_or_no_directory_adds_nothing() {
    let tree = Tree::new();
    tree.file("AGENTS.md", "root\n");
    tree.file("file", "a file, not a directory\n");
    tree.file("agents", "a file\n");
    let mut fragments = vec!["missing", "file", "agents/AGENTS.d"];
    // And a dangling link, where this host makes links.
    if support::MAKES_LINKS {
        tree.symlink("dangling", "nowhere");
        fragments.push("dangling");
    }
    let options = os(&tree).fragments(fragments);
    let chain = ok(tree.path("x"), &options);
    assert_eq!(contents(&chain), ["root\n"]);
    assert!(chain.omitted.is_empty());
}

#[test]
#[cfg_attr(
    windows,
    ignore = "no symbolic links under Wine: see support::MAKES_LINKS"
)]
fn a_fragment_directory_that_is_a_dangling_or_looping_link_is_probed_not_a_file() {
    // SPEC.md §5.8: a `D/F` that exists as a name and is not a directory, a dangling or looping
    // link included, is `not_a_file`; it adds nothing. A `D/F` whose name runs through a link
    // that loops (`loop/F`) does not exist as a name: `not_found`. Confined or not.
    let tree = Tree::new();
    tree.file("AGENTS.md", "root\n");
    tree.symlink("dangling", "nowhere");
    tree.symlink("loop", "loop");
    let fragments = ["dangling", "loop", "loop/f", "missing"];
    for confine in [false, true] {
        let options = os(&tree).fragments(fragments).confine(confine).report(true);
        let chain = ok(tree.path("x"), &options);
        use Outcome::*;
        use Source::{Chain as C, Fragment};
        assert_eq!(
            probes(&chain),
            [
                (at(&tree, "AGENTS.md"), C, Included),
                (at(&tree, "dangling"), Fragment, NotAFile),
                (at(&tree, "loop"), Fragment, NotAFile),
                (at(&tree, "loop/f"), Fragment, NotFound),
                (at(&tree, "missing"), Fragment, NotFound),
            ],
            "confine: {confine}"
        );
        assert_eq!(contents(&chain), ["root\n"]);
        assert!(chain.omitted.is_empty(), "{:?}", chain.omitted);
    }
}

#[test]
fn a_fragment_directory_that_cannot_be_listed_is_an_error() {
    let fs = TestFs::new()
        .file("frag/a.md", "a\n")
        .fault(Op::List, "frag", Fault::Fail("list refused".into()))
        .build();
    let error = err("x", &custom(&fs).fragments(["frag"]));
    assert_eq!(error.kind(), ErrorKind::Fs);
    assert!(error.to_string().contains("list refused"), "{error}");
}

#[test]
fn fragment_directories_are_names_of_a_custom_file_system() {
    let fs = TestFs::new()
        .file("AGENTS.md", "root\n")
        .file("d/f/a.md", "fragment\n")
        .build();
    let chain = ok("d/x", &custom(&fs).fragments(["f"]));
    assert_eq!(paths(&chain.files), ["AGENTS.md", "d/f/a.md"]);
    assert_eq!(sources(&chain), [Source::Chain, Source::Fragment]);
}

#[test]
fn an_invalid_fragment_directory_is_an_invalid_argument_before_any_io() {
    for bad in ["", "/abs", "a//b", "a/", "..", "a/../b", "./a", "a\0b"] {
        let fs = TestFs::new().build();
        let error = err("x", &custom(&fs).fragments([bad]));
        assert_eq!(error.kind(), ErrorKind::InvalidArgument, "{bad:?}: {error}");
        assert!(error.to_string().contains("fragment directory"), "{error}");
        assert!(fs.calls().is_empty(), "{bad:?}");
    }
}

#[test]
fn fragments_are_bounded_read_and_charged_like_any_file() {
    let tree = Tree::new();
    tree.file("f/big.md", "0123456789\n");
    let error = err(tree.path("x"), &os(&tree).fragments(["f"]).max_bytes(4));
    assert_eq!(error.kind(), ErrorKind::TooLarge);
    assert!(
        error.to_string().contains(&at(&tree, "f/big.md")),
        "{error}"
    );
    let chain = ok(tree.path("x"), &os(&tree).fragments(["f"]).budget(4));
    assert_eq!(
        omitted(&chain.omitted),
        [entry(at(&tree, "f/big.md"), 11, OverBudget, "")]
    );
}

#[test]
#[cfg_attr(
    windows,
    ignore = "no symbolic links under Wine: see support::MAKES_LINKS"
)]
fn under_confine_a_fragment_link_out_of_root_escapes() {
    let outside = Tree::new();
    outside.file("secret.md", "secret\n");
    outside.file("dir/s.md", "secret\n");
    let tree = Tree::new();
    tree.symlink("f/out.md", outside.path("secret.md").bytes());
    tree.file("f/in.md", "in\n");
    tree.symlink("g", outside.path("dir").bytes());
    let options = os(&tree).fragments(["f", "g"]).confine(true);
    let chain = ok(tree.path("x"), &options);
    assert_eq!(contents(&chain), ["in\n"]);
    assert_eq!(
        omitted(&chain.omitted),
        [
            entry(at(&tree, "f/out.md"), 0, Escapes, ""),
            entry(at(&tree, "g"), 0, Escapes, ""),
        ]
    );
}

#[test]
fn an_absent_fragment_directory_costs_one_lookup_per_directory() {
    let fs = TestFs::new().file("a/b/AGENTS.md", "x\n").build();
    ok("a/b/x", &custom(&fs).fragments([".agents/AGENTS.d"]));
    let asked: Vec<(Op, String)> = fs
        .calls()
        .into_iter()
        .filter(|(_, name)| name.ends_with(b"AGENTS.d"))
        .map(|(op, name)| (op, text(&name)))
        .collect();
    assert_eq!(
        asked,
        [
            (Op::Stat, ".agents/AGENTS.d".to_owned()),
            (Op::Stat, "a/.agents/AGENTS.d".to_owned()),
            (Op::Stat, "a/b/.agents/AGENTS.d".to_owned()),
        ]
    );
}

// §5.3 -------------------------------------------------------------------------------------

#[test]
fn an_overlay_is_one_more_directory_after_the_walk() {
    let tree = Tree::new();
    tree.file("repo/AGENTS.md", "repo\n");
    tree.file("o/AGENTS.override.md", "override\n");
    tree.file("o/AGENTS.md", "shadowed\n");
    tree.file("o/f/a.md", "overlay fragment\n");
    let options = Options::new()
        .root(tree.path("repo"))
        .names(["AGENTS.override.md", "AGENTS.md"])
        .fragments(["f"])
        .overlays([tree.path("o")]);
    let chain = ok(tree.path("repo/x"), &options);
    assert_eq!(
        contents(&chain),
        ["repo\n", "override\n", "overlay fragment\n"]
    );
    assert_eq!(
        sources(&chain),
        [Source::Chain, Source::Overlay, Source::Overlay]
    );
    assert_eq!(
        omitted(&chain.omitted),
        [entry(
            at(&tree, "o/AGENTS.md"),
            9,
            Shadowed,
            &at(&tree, "o/AGENTS.override.md")
        )]
    );
}

#[test]
fn an_overlay_path_is_made_absolute_and_cleaned() {
    let tree = Tree::new();
    tree.file("o/AGENTS.md", "overlay\n");
    let messy = format!("{}/./x/../o/", text(&tree.root()));
    let chain = ok(tree.path("x"), &os(&tree).overlays([messy]));
    assert_eq!(paths(&chain.files), [at(&tree, "o/AGENTS.md")]);
}

#[test]
fn a_missing_overlay_directory_is_skipped() {
    let tree = Tree::new();
    tree.file("AGENTS.md", "root\n");
    let mut overlays = vec![tree.path("missing")];
    // And a dangling link, where this host makes links.
    if support::MAKES_LINKS {
        overlays.push(tree.symlink("dangling", "nowhere"));
    }
    let options = os(&tree).overlays(overlays);
    assert_eq!(contents(&ok(tree.path("x"), &options)), ["root\n"]);
}

#[test]
fn an_overlay_that_is_not_a_directory_is_an_invalid_argument() {
    let tree = Tree::new();
    tree.file("file", "x\n");
    let error = err(tree.path("x"), &os(&tree).overlays([tree.path("file")]));
    assert_eq!(error.kind(), ErrorKind::InvalidArgument);
    assert!(error.to_string().contains(&at(&tree, "file")), "{error}");
}

#[test]
fn an_overlay_that_cannot_be_looked_up_but_for_not_found_is_an_error() {
    let tree = Tree::new();
    tree.file("file", "x\n");
    let mut overlays = vec![tree.path("file/o")];
    // And a link that loops, where this host makes links.
    if support::MAKES_LINKS {
        overlays.push(tree.symlink("loop", "loop"));
    }
    for overlay in overlays {
        for confine in [false, true] {
            let options = os(&tree).confine(confine).overlays([overlay.clone()]);
            let error = err(tree.path("x"), &options);
            assert_eq!(error.kind(), ErrorKind::Io, "{error}");
            assert!(error.to_string().contains(&text(&overlay)), "{error}");
        }
    }
}

#[test]
fn overlays_are_read_from_the_os_with_a_custom_fs_and_unconfined() {
    let overlay = Tree::new();
    overlay.file("AGENTS.md", "overlay\n");
    let fs = TestFs::new().file("AGENTS.md", "fs\n").build();
    let chain = ok("x", &custom(&fs).overlays([overlay.root()]));
    assert_eq!(contents(&chain), ["fs\n", "overlay\n"]);
    let tree = Tree::new();
    tree.file("AGENTS.md", "root\n");
    let chain = ok(
        tree.path("x"),
        &os(&tree).confine(true).overlays([overlay.root()]),
    );
    assert_eq!(contents(&chain), ["root\n", "overlay\n"]);
}

// SPEC.md §5.3: "a top-level file whose path is already a file of the result is not read
// again: it is omitted as `Duplicate` with `by` = its own path". What that covers, decided:
// - "a file of the result" is a file kept so far (in `files`), whatever its source; a file
//   left out (over budget, superseded, shadowed) is not one;
// - the rule holds for every top-level file, but two files that §1 alone gives (an extra, a
//   directory's file) are never duplicates of each other: with every §5 option off, §1 holds
//   byte for byte (§5), so an extra given twice, or an extra that is a directory's file, is
//   read again as §1 reads it — whatever other option is on, so that no unrelated option
//   changes what §1 gives;
// - a duplicate is decided without reading, and wins over `OverBudget` (§5.8).

#[test]
fn an_overlay_given_twice_is_omitted_the_second_time_as_a_duplicate_of_its_own_path() {
    let tree = Tree::new();
    tree.file("AGENTS.md", "root\n");
    tree.file("o/AGENTS.md", "overlay\n");
    tree.file("o/f/a.md", "fragment\n");
    let options = os(&tree)
        .fragments(["f"])
        .overlays([tree.path("o"), tree.path("o")])
        .report(true);
    let chain = ok(tree.path("x"), &options);
    assert_eq!(contents(&chain), ["root\n", "overlay\n", "fragment\n"]);
    let duplicates = [
        entry(
            at(&tree, "o/AGENTS.md"),
            8,
            Duplicate,
            &at(&tree, "o/AGENTS.md"),
        ),
        entry(at(&tree, "o/f/a.md"), 9, Duplicate, &at(&tree, "o/f/a.md")),
    ];
    assert_eq!(omitted(&chain.omitted), duplicates);
    let overlay: Vec<_> = probes(&chain)
        .into_iter()
        .filter(|(_, source, outcome)| *source == Source::Overlay && *outcome != Outcome::NotFound)
        .map(|(path, _, outcome)| (path, outcome))
        .collect();
    assert_eq!(
        overlay,
        [
            (at(&tree, "o/AGENTS.md"), Outcome::Included),
            (at(&tree, "o/f"), Outcome::Listed),
            (at(&tree, "o/f/a.md"), Outcome::Included),
            (at(&tree, "o/AGENTS.md"), Outcome::Duplicate),
            (at(&tree, "o/f"), Outcome::Listed),
            (at(&tree, "o/f/a.md"), Outcome::Duplicate),
        ]
    );
    // Decided without reading: a duplicate wins over the budget, which the files kept spent.
    let chain = ok(tree.path("x"), &options.budget(5 + 8 + 9));
    assert_eq!(contents(&chain), ["root\n", "overlay\n", "fragment\n"]);
    assert_eq!(omitted(&chain.omitted), duplicates);
}

#[test]
fn an_overlay_that_is_a_directory_of_the_walk_is_not_read_again() {
    let tree = &Tree::new();
    tree.file("AGENTS.md", "root\n");
    tree.file("a/AGENTS.md", "a\n");
    tree.file("a/f/x.md", "fragment\n");
    tree.file("o/AGENTS.md", "overlay\n");
    // The walk's directory `a`, given as a path that is cleaned to it.
    let messy = format!("{}/a/../a/", text(&tree.root()));
    let options = os(tree)
        .fragments(["f"])
        .overlays([Path::new(&messy).to_path_buf(), tree.path("o")]);
    let chain = ok(tree.path("a/x"), &options);
    assert_eq!(
        contents(&chain),
        ["root\n", "a\n", "fragment\n", "overlay\n"]
    );
    assert_eq!(
        sources(&chain),
        [
            Source::Chain,
            Source::Chain,
            Source::Fragment,
            Source::Overlay
        ]
    );
    assert_eq!(
        omitted(&chain.omitted),
        [
            entry(
                at(tree, "a/AGENTS.md"),
                2,
                Duplicate,
                &at(tree, "a/AGENTS.md")
            ),
            entry(at(tree, "a/f/x.md"), 9, Duplicate, &at(tree, "a/f/x.md")),
        ]
    );
}

#[test]
fn a_directorys_file_that_is_already_a_fragment_of_the_result_is_not_read_again() {
    // `.agents/AGENTS.md` is a fragment of the root (fragment directory `.agents`) and, for a
    // path inside `.agents`, the file of a directory of the walk: the first one met stands.
    let tree = Tree::new();
    tree.file("AGENTS.md", "root\n");
    tree.file(".agents/AGENTS.md", "agents\n");
    let chain = ok(tree.path(".agents/x"), &os(&tree).fragments([".agents"]));
    assert_eq!(contents(&chain), ["root\n", "agents\n"]);
    assert_eq!(sources(&chain), [Source::Chain, Source::Fragment]);
    let agents = at(&tree, ".agents/AGENTS.md");
    assert_eq!(
        omitted(&chain.omitted),
        [entry(agents.clone(), 7, Duplicate, &agents)]
    );
}

#[test]
fn an_extra_given_twice_or_that_is_a_directorys_file_is_read_again_as_section_1_reads_it() {
    // Two files that §1 alone gives are never duplicates of each other, whatever other option
    // is on; an overlay's file that is one of them is.
    let tree = Tree::new();
    let root_file = tree.file("AGENTS.md", "root\n");
    tree.file("o/AGENTS.md", "overlay\n");
    let extras = [root_file.clone(), root_file.clone()];
    let chain = ok(tree.path("x"), &os(&tree).extra(extras.clone()));
    assert_eq!(contents(&chain), ["root\n", "root\n", "root\n"]);
    assert!(chain.omitted.is_empty());
    let options = os(&tree)
        .extra(extras)
        .overlays([tree.path("o"), tree.root()]);
    let chain = ok(tree.path("x"), &options);
    assert_eq!(
        contents(&chain),
        ["root\n", "root\n", "root\n", "overlay\n"]
    );
    let root_file = text(&root_file);
    assert_eq!(
        omitted(&chain.omitted),
        [entry(root_file.clone(), 5, Duplicate, &root_file)]
    );
}

#[test]
fn overlay_dir_is_users_dir_identity_dot_agents() {
    assert_eq!(
        overlay_dir("/srv/users", "ada").unwrap().as_deref(),
        Some(Path::new("/srv/users/ada/.agents"))
    );
    assert_eq!(
        overlay_dir("/srv/users/", "a.b").unwrap().as_deref(),
        Some(Path::new("/srv/users/a.b/.agents"))
    );
    // Bytes, as given: a relative users directory, an identity that is not UTF-8.
    let identity = support::NOT_UTF8;
    let overlay = support::path([&b"u/"[..], identity, b"/.agents"].concat());
    assert_eq!(
        overlay_dir("u", support::path(identity)).unwrap(),
        Some(overlay)
    );
}

#[test]
fn overlay_dir_with_either_argument_empty_is_no_overlay() {
    assert_eq!(overlay_dir("", "ada").unwrap(), None);
    assert_eq!(overlay_dir("/srv/users", "").unwrap(), None);
}

#[test]
fn a_caller_identity_holding_a_separator_nul_or_dot_dot_is_an_invalid_argument() {
    for identity in ["a/b", "a\\b", "a\0b", "..", "a..b", "x.."] {
        let error = overlay_dir("/srv/users", identity).unwrap_err();
        assert_eq!(error.kind(), ErrorKind::InvalidArgument);
        assert!(error.to_string().contains("caller identity"), "{error}");
    }
}

#[test]
fn a_caller_identity_that_is_dot_is_an_invalid_argument() {
    // `USERS_DIR/./.agents` is the users directory's own `.agents`: no caller's overlay.
    let error = overlay_dir("/srv/users", ".").unwrap_err();
    assert_eq!(error.kind(), ErrorKind::InvalidArgument);
    assert!(error.to_string().contains("caller identity"), "{error}");
    // A name that merely holds a dot is an identity; on Windows not one that ends in a dot,
    // which Windows would open as another name (SPEC.md §8.2).
    for identity in [".a", "a.", ".a.b"] {
        let overlay = overlay_dir("/srv/users", identity);
        if cfg!(windows) && identity.ends_with('.') {
            let error = overlay.unwrap_err();
            assert_eq!(error.kind(), ErrorKind::InvalidArgument, "{identity}");
            assert!(error.to_string().contains("caller identity"), "{error}");
        } else {
            assert!(overlay.unwrap().is_some(), "{identity}");
        }
    }
}

// §5.4 -------------------------------------------------------------------------------------

/// The targets the directives of `content`, the root's `AGENTS.md`, import, as the chain
/// reports them: every other name of this file system is an empty file, so that the directive
/// and code-region rules alone decide.
fn imported(content: &str) -> Vec<String> {
    struct EveryName(Vec<u8>);
    impl FileSystem for EveryName {
        fn list(&self, dir: &FsName) -> std::io::Result<Vec<std::ffi::OsString>> {
            Ok(dir
                .is_root()
                .then(|| "AGENTS.md".into())
                .into_iter()
                .collect())
        }
        fn stat(&self, name: &FsName) -> std::io::Result<Entry> {
            Ok(match name.as_bytes() {
                b"." => Entry::Dir,
                b"AGENTS.md" => Entry::File {
                    size: self.0.len() as u64,
                },
                _ => Entry::File { size: 0 },
            })
        }
        fn open(&self, name: &FsName) -> std::io::Result<Box<dyn std::io::Read + '_>> {
            let top = name.as_bytes() == b"AGENTS.md";
            Ok(Box::new(if top { &self.0[..] } else { &b""[..] }))
        }
    }
    let fs = Arc::new(EveryName(content.as_bytes().to_vec()));
    let options = Options::new().fs(fs).imports(true).max_imports(1000);
    let chain = agentsmd_core::chain("x", &options).unwrap();
    chain.imports.iter().map(|i| text(&i.path)).collect()
}

#[test]
fn a_directive_is_an_include_line_or_an_at_path_line() {
    assert_eq!(
        imported("@include docs/a b.md  \n   @docs/style\n@other.md\t\n@include\tx\n"),
        ["docs/a b.md", "docs/style", "other.md", "x"]
    );
    assert_eq!(
        imported("@include.md\n@includes/x\n"),
        ["include.md", "includes/x"]
    );
    // Only the `\r` of the line ending is ignored; another one is part of `P`.
    assert_eq!(imported("@a.md\r\r\n"), ["a.md\r"]);
}

#[test]
fn an_at_word_a_blank_inside_a_path_an_indent_of_four_or_a_sentence_make_text() {
    let none: [&str; 0] = [];
    assert_eq!(imported("@alice\n@include\n@include   \n@ a.md\n"), none);
    assert_eq!(imported("@a b.md\n@a\tb/c\n"), none);
    assert_eq!(imported("    @a.md\n\t@a.md\n   @b.md\n"), ["b.md"]);
    assert_eq!(imported("see @a.md here\nx @include a.md\n"), none);
}

#[test]
fn a_fence_closes_only_with_its_character_at_least_as_long_then_blanks() {
    let fences = "@0.md\n````\n@1.md\n```\n@2.md\n~~~~\n@3.md\n````  \n@4.md\n";
    assert_eq!(imported(fences), ["0.md", "4.md"]);
    assert_eq!(imported("~~~\n```\n@1.md\n~~~\n@2.md\n"), ["2.md"]);
    assert_eq!(imported("```\n``` x\n@1.md\n```\n@2.md"), ["2.md"]);
    // A backtick fence may not hold a backtick after its run; a tilde fence may.
    assert_eq!(imported("``` a`b\n@1.md\n"), ["1.md"]);
    assert_eq!(imported("~~~ a`b\n@1.md\n~~~\n@2.md\n"), ["2.md"]);
    // Unclosed, it runs to the end; four spaces open none and close none.
    assert_eq!(imported("```\n@a.md\n\n"), [""; 0]);
    assert_eq!(imported("    ```\n@1.md\n"), ["1.md"]);
    assert_eq!(imported("   ```\n    ```\n@1.md\n   ```\n@2.md"), ["2.md"]);
    // A final `\r` is ignored in the fence lines too.
    assert_eq!(imported("```\r\n@1.md\r\n```\r\n@2.md\r\n"), ["2.md"]);
}

/// SPEC.md §5.4 (decided): a leading UTF-8 BOM is ignored when line 1 is compared, and belongs to
/// the line a directive replaces.
#[test]
fn a_leading_bom_hides_no_directive_or_fence_on_line_one() {
    assert_eq!(imported("\u{feff}@a.md\n@b.md\n"), ["a.md", "b.md"]);
    assert_eq!(imported("\u{feff}```\n@a.md\n```\n@b.md\n"), ["b.md"]);
    assert_eq!(imported("x\n\u{feff}@a.md\n"), [""; 0]);
    let fs = TestFs::new()
        .file("AGENTS.md", "\u{feff}@a.md\nafter\n")
        .file("a.md", "imported\n")
        .build();
    assert_eq!(
        contents(&ok("x", &custom(&fs).imports(true))),
        ["imported\nafter\n"]
    );
}

#[test]
fn an_html_comment_ends_at_the_first_line_holding_its_end() {
    assert_eq!(imported("<!-- a\n@1.md\nc -->\n@2.md"), ["2.md"]);
    assert_eq!(imported("<!-- a -->\n@1.md"), ["1.md"]);
    assert_eq!(imported("--> <!-- a\n@1.md\n"), ["1.md"]);
    assert_eq!(imported("<!-->\n@1.md\n-->\n@2.md"), ["2.md"]);
    assert_eq!(
        imported("<!--\n@d.md\n-->\n```\n@a.md\n```\n@e.md\n"),
        ["e.md"]
    );
}

#[test]
fn a_directive_line_is_replaced_by_its_targets_content_itself_expanded() {
    let fs = TestFs::new()
        .file(
            "AGENTS.md",
            "top\n@include docs/a b.md\n   @docs/c.md\r\n@alice\nsee @docs/c.md\n```\n@docs/c.md\n```\n",
        )
        .file("docs/a b.md", "a, then\n@c.md")
        .file("docs/c.md", "c")
        .build();
    let chain = ok("x", &custom(&fs).imports(true));
    assert_eq!(
        contents(&chain),
        ["top\na, then\nc\n@alice\nsee @docs/c.md\n```\n@docs/c.md\n```\n"]
    );
    assert_eq!(
        imports(&chain.imports),
        [
            ("docs/a b.md".into(), "AGENTS.md".into(), 2, 1, 13, false),
            ("docs/c.md".into(), "docs/a b.md".into(), 2, 2, 1, false),
            ("docs/c.md".into(), "AGENTS.md".into(), 3, 1, 0, true),
        ]
    );
}

#[test]
fn an_import_of_an_invalid_path_is_an_error() {
    for p in ["/etc/passwd", "~/x.md", "a\\b.md", "c:x.md", "a\0.md"] {
        let fs = TestFs::new()
            .file("AGENTS.md", format!("@include {p}\n"))
            .build();
        let message = import_error(&fs, Options::new());
        assert!(message.starts_with("AGENTS.md:1: "), "{message}");
        assert!(message.contains("invalid"), "{message}");
    }
}

#[test]
fn an_import_outside_the_scope_is_an_error() {
    let fs = TestFs::new()
        .file("a/AGENTS.md", "@../b.md\n")
        .file("b.md", "b\n")
        .file("AGENTS.md", "@../x.md\n")
        .build();
    let message = import_error(&fs, Options::new().root("a"));
    assert!(
        message.starts_with("a/AGENTS.md:1: import b.md: outside"),
        "{message}"
    );
    // A custom file system has nothing above `.`.
    let message = import_error(&fs, Options::new());
    assert!(
        message.starts_with("AGENTS.md:1: import ../x.md: outside"),
        "{message}"
    );
}

#[test]
fn an_extras_imports_stay_in_its_own_directory() {
    let tree = Tree::new();
    tree.file("e/extra.md", "@in.md\n");
    tree.file("e/in.md", "in\n");
    tree.file("e2/extra.md", "@../e/in.md\n");
    let options = os(&tree).imports(true).extra([tree.path("e/extra.md")]);
    assert_eq!(contents(&ok(tree.path("x"), &options)), ["in\n"]);
    let options = os(&tree).imports(true).extra([tree.path("e2/extra.md")]);
    let error = err(tree.path("x"), &options);
    assert_eq!(error.kind(), ErrorKind::Import);
    assert!(error.to_string().contains("outside"), "{error}");
}

#[test]
fn an_overlays_imports_stay_in_the_overlay_directory() {
    let tree = Tree::new();
    tree.file("repo/shared.md", "shared\n");
    tree.file("o/AGENTS.md", "@f/x.md\n");
    tree.file("o/f/x.md", "x\n");
    tree.file("o/f/y.md", "@../../repo/shared.md\n");
    let options = Options::new()
        .root(tree.path("repo"))
        .imports(true)
        .overlays([tree.path("o")]);
    assert_eq!(contents(&ok(tree.path("repo/x"), &options)), ["x\n"]);
    let error = err(tree.path("repo/x"), &options.fragments(["f"]));
    assert_eq!(error.kind(), ErrorKind::Import);
    assert!(
        error
            .to_string()
            .starts_with(&format!("{}:1: ", at(&tree, "o/f/y.md"))),
        "{error}"
    );
    assert!(error.to_string().contains("outside"), "{error}");
}

#[test]
fn an_import_deeper_than_import_depth_is_an_error() {
    let fs = TestFs::new()
        .file("AGENTS.md", "@1.md\n")
        .file("1.md", "@2.md\n")
        .file("2.md", "@3.md\n")
        .file("3.md", "three\n")
        .build();
    let chain = ok("x", &custom(&fs).imports(true).import_depth(3));
    assert_eq!(contents(&chain), ["three\n"]);
    let depths: Vec<u32> = chain.imports.iter().map(|i| i.depth).collect();
    assert_eq!(depths, [1, 2, 3]);
    let message = import_error(&fs, Options::new().import_depth(2));
    assert!(message.starts_with("2.md:1: import 3.md: "), "{message}");
    assert!(message.contains("depth"), "{message}");
}

#[test]
fn an_import_depth_of_zero_means_five() {
    let mut fs = TestFs::new().file("AGENTS.md", "@1.md\n");
    for depth in 1..=6 {
        fs = fs.file(&format!("{depth}.md"), format!("@{}.md\n", depth + 1));
    }
    let fs = fs.file("7.md", "end\n").build();
    let message = import_error(&fs, Options::new().import_depth(0));
    assert!(message.starts_with("5.md:1: import 6.md: "), "{message}");
}

#[test]
fn an_import_cycle_is_an_error_naming_its_files_in_order() {
    let fs = TestFs::new()
        .file("AGENTS.md", "@a.md\n")
        .file("a.md", "\n@b.md\n")
        .file("b.md", "@a.md\n")
        .build();
    let message = import_error(&fs, Options::new());
    assert!(message.starts_with("b.md:1: import a.md: "), "{message}");
    assert!(message.contains("a.md -> b.md -> a.md"), "{message}");
    let fs = TestFs::new().file("AGENTS.md", "@AGENTS.md\n").build();
    let message = import_error(&fs, Options::new());
    assert!(message.contains("AGENTS.md -> AGENTS.md"), "{message}");
}

#[test]
fn an_import_already_in_the_result_is_a_duplicate_that_expands_to_nothing() {
    let fs = TestFs::new()
        .file("AGENTS.md", "@s.md\n")
        .file("a/AGENTS.md", "a\n@../s.md\n@t.md\n@t.md\n")
        .file("s.md", "s\n")
        .file("a/t.md", "t\n")
        .build();
    let chain = ok("a/x", &custom(&fs).imports(true));
    assert_eq!(contents(&chain), ["s\n", "a\nt\n"]);
    assert_eq!(
        imports(&chain.imports),
        [
            ("s.md".into(), "AGENTS.md".into(), 1, 1, 2, false),
            ("s.md".into(), "a/AGENTS.md".into(), 2, 1, 0, true),
            ("a/t.md".into(), "a/AGENTS.md".into(), 3, 1, 2, false),
            ("a/t.md".into(), "a/AGENTS.md".into(), 4, 1, 0, true),
        ]
    );
    assert_eq!(fs.reads_of("s.md"), 1);
}

#[test]
fn a_top_level_file_already_imported_is_omitted_as_a_duplicate_unread() {
    let fs = TestFs::new()
        .file("AGENTS.md", "@a/AGENTS.md\n")
        .file("a/AGENTS.md", "a\n")
        .file("a/AGENTS.local.md", "local\n")
        .build();
    let options = custom(&fs)
        .imports(true)
        .names(["AGENTS.md", "AGENTS.local.md"]);
    let chain = ok("a/x", &options);
    assert_eq!(contents(&chain), ["a\n"]);
    // It still stands for its directory: the directory's later name is shadowed by it.
    assert_eq!(
        omitted(&chain.omitted),
        [
            entry("a/AGENTS.md", 2, Duplicate, "AGENTS.md"),
            entry("a/AGENTS.local.md", 6, Shadowed, "a/AGENTS.md"),
        ]
    );
    assert_eq!(fs.reads_of("a/AGENTS.md"), 1);
}

#[test]
fn an_import_that_is_not_found_is_an_error() {
    let fs = TestFs::new().file("AGENTS.md", "x\n@missing.md\n").build();
    let message = import_error(&fs, Options::new());
    assert_eq!(message, "AGENTS.md:2: import missing.md: not found");
}

#[test]
fn an_import_that_is_not_a_regular_file_is_an_error() {
    let fs = TestFs::new()
        .file("AGENTS.md", "@docs/\n")
        .dir("docs")
        .build();
    let message = import_error(&fs, Options::new());
    assert_eq!(message, "AGENTS.md:1: import docs: not a regular file");
    // A FIFO on the OS: Windows has none in a directory.
    #[cfg(unix)]
    {
        let tree = Tree::new();
        tree.file("AGENTS.md", "@fifo.md\n");
        tree.fifo("fifo.md");
        let error = err(tree.path("x"), &os(&tree).imports(true));
        assert_eq!(error.kind(), ErrorKind::Import);
        assert!(error.to_string().ends_with("not a regular file"), "{error}");
    }
}

#[test]
#[cfg_attr(
    windows,
    ignore = "no symbolic links under Wine: see support::MAKES_LINKS"
)]
fn under_confine_an_import_through_a_link_out_of_root_is_an_error() {
    let outside = Tree::new();
    outside.file("secret.md", "secret\n");
    let tree = Tree::new();
    tree.file("AGENTS.md", "@link.md\n");
    tree.symlink("link.md", outside.path("secret.md").bytes());
    let error = err(tree.path("x"), &os(&tree).imports(true).confine(true));
    assert_eq!(error.kind(), ErrorKind::Import);
    assert!(
        error
            .to_string()
            .starts_with(&format!("{}:1: ", at(&tree, "AGENTS.md"))),
        "{error}"
    );
    assert!(error.to_string().contains("leads out of root"), "{error}");
    // Unconfined, the same link is followed.
    let chain = ok(tree.path("x"), &os(&tree).imports(true));
    assert_eq!(contents(&chain), ["secret\n"]);
}

#[test]
fn more_than_max_imports_reads_in_one_chain_is_an_error() {
    let fs = TestFs::new()
        .file("AGENTS.md", "@1.md\n@2.md\n")
        .file("a/AGENTS.md", "@../3.md\n")
        .file("1.md", "1\n")
        .file("2.md", "2\n")
        .file("3.md", "3\n")
        .build();
    let chain = ok("a/x", &custom(&fs).imports(true).max_imports(3));
    assert_eq!(contents(&chain), ["1\n2\n", "3\n"]);
    let message = import_error(&fs, Options::new().max_imports(2));
    assert!(
        message.starts_with("a/AGENTS.md:1: import 3.md: "),
        "{message}"
    );
    assert!(message.contains('2'), "{message}");
}

#[test]
fn max_imports_counts_every_read_also_of_a_file_then_left_out_and_no_duplicate() {
    let fs = TestFs::new()
        .file("AGENTS.md", "@1.md\n@1.md\n@2.md\n")
        .file("1.md", "1\n")
        .file("2.md", "2\n")
        .build();
    // The file's reported size (18) fits the budget; expanded, it would not, but its imports are
    // read first, and the duplicate on line 2 is no read.
    let error = err("x", &custom(&fs).imports(true).max_imports(1).budget(18));
    assert_eq!(error.kind(), ErrorKind::Import);
    assert!(
        error.to_string().starts_with("AGENTS.md:3: import 2.md: "),
        "{error}"
    );
    assert!(error.to_string().contains("more than 1 import"), "{error}");
}

#[test]
fn an_import_reading_more_than_max_bytes_is_too_large_at_its_directive() {
    let fs = TestFs::new()
        .file("AGENTS.md", "@big.md\n")
        .file("big.md", "0123456789\n")
        .build();
    let error = err("x", &custom(&fs).imports(true).max_bytes(8));
    assert_eq!(error.kind(), ErrorKind::TooLarge);
    assert_eq!(
        error.to_string(),
        "AGENTS.md:1: read big.md: file exceeds size limit of 8 bytes"
    );
    // Exactly max_bytes is fine, and the read asks for no more than one byte over.
    let chain = ok("x", &custom(&fs).imports(true).max_bytes(11));
    assert_eq!(contents(&chain), ["0123456789\n"]);
    assert!(fs.limits().iter().all(|(_, limit)| *limit <= 12));
}

#[test]
fn the_checks_of_an_import_run_in_the_order_of_the_fine_points() {
    // Invalid before outside the scope.
    let fs = TestFs::new().file("AGENTS.md", "@../x:y\n").build();
    let message = import_error(&fs, Options::new());
    assert!(message.contains("invalid"), "{message}");
    // Outside the scope before depth: at depth 1 with import_depth 0.. and a target above `.`.
    let fs = TestFs::new()
        .file("AGENTS.md", "@a.md\n")
        .file("a.md", "@../x.md\n@a.md\n")
        .build();
    let message = import_error(&fs, Options::new().import_depth(1));
    assert!(message.contains("outside"), "{message}");
    // Depth before cycle.
    let fs = TestFs::new()
        .file("AGENTS.md", "@a.md\n")
        .file("a.md", "@AGENTS.md\n")
        .build();
    let message = import_error(&fs, Options::new().import_depth(1));
    assert!(message.contains("depth"), "{message}");
    // Duplicate before not found and before max_imports: a duplicate is no read.
    let fs = TestFs::new()
        .file("AGENTS.md", "@a.md\n@a.md\n@missing.md\n")
        .file("a.md", "a\n")
        .build();
    let message = import_error(&fs, Options::new().max_imports(1));
    assert!(
        message.starts_with("AGENTS.md:3: import missing.md: not found"),
        "{message}"
    );
}

#[test]
fn the_bounds_apply_to_the_expanded_content() {
    let fs = TestFs::new()
        .file("AGENTS.md", "@a.md\n@b.md\n")
        .file("a.md", "0123456\n")
        .file("b.md", "789abcd\n")
        .build();
    // Every file fits max_bytes as read; expanded, the top-level file does not, and is named.
    let error = err("x", &custom(&fs).imports(true).max_bytes(12));
    assert_eq!(error.kind(), ErrorKind::TooLarge);
    assert_eq!(
        error.to_string(),
        "read AGENTS.md: file exceeds size limit of 12 bytes"
    );
    // The budget charges the expanded bytes (16); the reported size that decides the read is
    // the file's own (12).
    let chain = ok("x", &custom(&fs).imports(true).budget(16));
    assert_eq!(contents(&chain), ["0123456\n789abcd\n"]);
    let chain = ok("x", &custom(&fs).imports(true).budget(15));
    assert_eq!(
        omitted(&chain.omitted),
        [entry("AGENTS.md", 16, OverBudget, "")]
    );
}

#[test]
fn imports_are_listed_in_the_order_met_an_import_before_the_imports_inside_it() {
    let fs = TestFs::new()
        .file("AGENTS.md", "@a.md\n@b.md\n")
        .file("a.md", "@c.md\n")
        .file("b.md", "b\n")
        .file("c.md", "c\n")
        .build();
    let chain = ok("x", &custom(&fs).imports(true));
    assert_eq!(
        imports(&chain.imports),
        [
            ("a.md".into(), "AGENTS.md".into(), 1, 1, 6, false),
            ("c.md".into(), "a.md".into(), 1, 2, 2, false),
            ("b.md".into(), "AGENTS.md".into(), 2, 1, 2, false),
        ]
    );
}

#[test]
fn a_file_left_out_over_budget_lists_no_imports() {
    let fs = TestFs::new()
        .file("AGENTS.md", "@a.md\n")
        .file("a.md", "0123456789\n")
        .build();
    let chain = ok("x", &custom(&fs).imports(true).budget(8));
    assert!(chain.imports.is_empty());
}

#[test]
fn a_file_without_directives_is_kept_as_read_and_no_target_is_asked_for() {
    let fs = TestFs::new()
        .file("AGENTS.md", "@alice said\n```\n@a.md\n")
        .file("a.md", "a\n")
        .build();
    let chain = ok("x", &custom(&fs).imports(true));
    assert_eq!(contents(&chain), ["@alice said\n```\n@a.md\n"]);
    assert!(chain.imports.is_empty());
    assert_eq!(fs.reads_of("a.md"), 0);
    assert!(!fs.asked(Op::Stat).contains(&"a.md".to_owned()));
}

#[test]
fn a_target_is_expanded_against_its_own_directory_with_its_own_code_regions() {
    let fs = TestFs::new()
        .file("AGENTS.md", "@docs/a.md\n@b.md\n")
        // An unclosed fence in the target hides nothing of the file that imports it.
        .file("docs/a.md", "@../c.md\n```\n@c.md\n")
        .file("c.md", "C\n")
        .file("b.md", "B\n")
        .build();
    let chain = ok("x", &custom(&fs).imports(true));
    assert_eq!(contents(&chain), ["C\n```\n@c.md\nB\n"]);
}

#[test]
fn a_newline_is_added_after_a_target_lacking_one_only_when_the_directive_line_had_one() {
    let fs = TestFs::new()
        .file("AGENTS.md", "@a.md\n@e.md\n@a.md")
        .file("sub/AGENTS.md", "@../b.md")
        .file("a.md", "A")
        .file("b.md", "B")
        .file("e.md", "")
        .build();
    let chain = ok("sub/x", &custom(&fs).imports(true));
    // The empty target adds nothing, and the duplicate expands to nothing.
    assert_eq!(contents(&chain), ["A\n", "B"]);
}

#[test]
fn a_crlf_directive_line_is_replaced_whole_and_the_added_newline_is_bare() {
    let fs = TestFs::new()
        .file("AGENTS.md", "x\r\n@a.md \r\n@b.md\r\ny\r\n")
        .file("a.md", "A")
        .file("b.md", "B\r\n")
        .build();
    let chain = ok("x", &custom(&fs).imports(true));
    assert_eq!(contents(&chain), ["x\r\nA\nB\r\ny\r\n"]);
}

#[test]
fn an_os_import_target_is_cleaned_lexically() {
    let tree = Tree::new();
    let root = tree.root();
    let name = root
        .file_name()
        .expect("a named directory")
        .to_string_lossy();
    tree.file("AGENTS.md", format!("@./d/../x.md\n@../{name}/y.md\n"));
    tree.file("x.md", "X\n");
    tree.file("y.md", "Y\n");
    let chain = ok(tree.path("x"), &os(&tree).imports(true));
    assert_eq!(contents(&chain), ["X\nY\n"]);
    let targets: Vec<String> = chain.imports.iter().map(|i| text(&i.path)).collect();
    assert_eq!(targets, [at(&tree, "x.md"), at(&tree, "y.md")]);
}

#[test]
fn an_import_of_a_kept_top_level_file_is_a_duplicate() {
    let fs = TestFs::new()
        .file("AGENTS.md", "root\n")
        .file("sub/AGENTS.md", "@../AGENTS.md\nsub\n")
        .build();
    let chain = ok("sub/x", &custom(&fs).imports(true));
    assert_eq!(contents(&chain), ["root\n", "sub\n"]);
    assert_eq!(
        imports(&chain.imports),
        [("AGENTS.md".into(), "sub/AGENTS.md".into(), 1, 1, 0, true)]
    );
    assert_eq!(fs.reads_of("AGENTS.md"), 1);
}

#[test]
fn a_top_level_file_imported_deeper_is_omitted_by_the_file_whose_directive_imported_it() {
    let fs = TestFs::new()
        .file("AGENTS.md", "@docs/a.md\n")
        .file("docs/a.md", "@../sub/AGENTS.md\n")
        .file("sub/AGENTS.md", "S\n")
        .build();
    let chain = ok("sub/x", &custom(&fs).imports(true));
    assert_eq!(contents(&chain), ["S\n"]);
    assert_eq!(
        omitted(&chain.omitted),
        [entry("sub/AGENTS.md", 2, Duplicate, "docs/a.md")]
    );
}

#[test]
fn an_import_gone_between_its_stat_and_its_read_is_not_found() {
    let fs = TestFs::new()
        .file("AGENTS.md", "@a.md\n")
        .file("a.md", "a\n")
        .fault(Op::Read, "a.md", Fault::NotFound)
        .build();
    let message = import_error(&fs, Options::new());
    assert_eq!(message, "AGENTS.md:1: import a.md: not found");
}

#[test]
fn a_failing_stat_or_read_of_an_import_is_an_import_error_at_its_directive() {
    // SPEC.md §5.4 (decided): only TooLarge keeps its own kind.
    for op in [Op::Stat, Op::Read] {
        let fs = TestFs::new()
            .file("AGENTS.md", "@a.md\n")
            .file("a.md", "a\n")
            .fault(op, "a.md", Fault::Fail("denied".into()))
            .build();
        let error = err("x", &custom(&fs).imports(true));
        assert_eq!(error.kind(), ErrorKind::Import, "{op:?}: {error}");
        let message = error.to_string();
        assert!(
            message.starts_with("AGENTS.md:1: import a.md: "),
            "{message}"
        );
        assert!(message.ends_with("denied"), "{message}");
    }
}

#[test]
fn an_os_import_failing_for_another_reason_is_an_import_error_with_the_os_text() {
    // SPEC.md §5.4 (decided): a name too long, and a permission denied, are failures to look a
    // target up or read it: kind Import, `PATH:LINE: `, then the target and the OS's text.
    let tree = Tree::new();
    let long = format!("{}.md", "n".repeat(300));
    let os_text = |code: i32| std::io::Error::from_raw_os_error(code).to_string();
    let import_fails = |target: &str, code: i32| {
        tree.file("AGENTS.md", format!("top\n@{target}\n"));
        let error = err(tree.path("x"), &os(&tree).imports(true));
        assert_eq!(error.kind(), ErrorKind::Import, "{target}: {error}");
        let message = error.to_string();
        let start = format!(
            "{}:2: import {}: ",
            at(&tree, "AGENTS.md"),
            at(&tree, target)
        );
        assert!(message.starts_with(&start), "{message}");
        assert!(message.contains(&os_text(code)), "{message}");
        assert_eq!(error.os_code(), Some(code), "{message}");
    };
    // ENAMETOOLONG; on Windows what the OS says of such a name. Wine says "not found", as of a
    // name that is not there: nothing to check there.
    #[cfg(unix)]
    let too_long = rustix::io::Errno::NAMETOOLONG.raw_os_error();
    #[cfg(windows)]
    let too_long = match std::fs::metadata(tree.path(&long)) {
        Err(error) if error.kind() != std::io::ErrorKind::NotFound => error.raw_os_error().unwrap(),
        _ => {
            eprintln!("skipped: this host says a name too long is not found");
            return;
        }
    };
    import_fails(&long, too_long);
    // A directory that cannot be searched (the stat fails), a file that cannot be opened (the
    // read fails). A process that reads them anyway (root) is denied nothing: skipped there.
    // Unix permissions (chmod): Windows has none.
    #[cfg(unix)]
    {
        use rustix::io::Errno;
        use std::os::unix::fs::PermissionsExt;
        tree.file("locked/a.md", "a\n");
        tree.file("secret.md", "s\n");
        let mode = |rel: &str, mode: u32| {
            let permissions = std::fs::Permissions::from_mode(mode);
            std::fs::set_permissions(tree.path(rel), permissions).unwrap()
        };
        mode("locked", 0o000);
        mode("secret.md", 0o000);
        let denied = std::fs::read_dir(tree.path("locked")).is_err();
        let outcome = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
            if denied {
                import_fails("locked/a.md", Errno::ACCESS.raw_os_error());
                import_fails("secret.md", Errno::ACCESS.raw_os_error());
            }
        }));
        mode("locked", 0o755);
        mode("secret.md", 0o644);
        if let Err(panic) = outcome {
            std::panic::resume_unwind(panic);
        }
    }
}

#[test]
fn max_imports_of_zero_means_sixty_four() {
    let mut listing = String::new();
    let mut fs = TestFs::new();
    for i in 0..65 {
        listing.push_str(&format!("@{i}.md\n"));
        fs = fs.file(&format!("{i}.md"), "");
    }
    let fs = fs.file("AGENTS.md", listing).build();
    assert_eq!(
        import_error(&fs, Options::new().max_imports(0)),
        "AGENTS.md:65: import 64.md: more than 64 imports in one chain (max_imports)"
    );
}

#[test]
fn the_expansion_is_one_pass_over_the_text() {
    // 50,000 directives of one target and 50,000 lines of text: one read, every other
    // directive a duplicate, and the text copied once. Quadratic work would take minutes here.
    let fs = TestFs::new()
        .file("AGENTS.md", "@a.md\ntext\n".repeat(50_000))
        .file("a.md", "A\n")
        .build();
    let started = std::time::Instant::now();
    let chain = ok("x", &custom(&fs).imports(true));
    assert!(started.elapsed() < std::time::Duration::from_secs(5));
    assert_eq!(chain.files[0].content.len(), 2 + 50_000 * 5);
    assert_eq!(chain.imports.len(), 50_000);
    assert_eq!(fs.reads_of("a.md"), 1);
}

// §5.5 -------------------------------------------------------------------------------------

#[test]
fn the_transform_runs_once_per_file_read_after_imports_and_before_the_bounds() {
    let fs = TestFs::new()
        .file("AGENTS.md", "@a.md\n")
        .file("a.md", "a\n")
        .file("b/AGENTS.md", "b\n")
        .build();
    let seen = Arc::new(std::sync::Mutex::new(Vec::new()));
    let log = Arc::clone(&seen);
    let transform = Transform::new(move |path: &Path, text: Vec<u8>| {
        log.lock().unwrap().push((
            support::text(path),
            String::from_utf8_lossy(&text).into_owned(),
        ));
        Ok([&text[..], b"!!\n"].concat())
    });
    let options = custom(&fs).imports(true).transform(transform.clone());
    let chain = ok("b/x", &options);
    assert_eq!(contents(&chain), ["a\n!!\n", "b\n!!\n"]);
    assert_eq!(
        *seen.lock().unwrap(),
        [
            ("AGENTS.md".into(), "a\n".into()),
            ("b/AGENTS.md".into(), "b\n".into())
        ]
    );
    // max_bytes and the budget count what it returns.
    let error = err(
        "b/x",
        &custom(&fs).transform(transform.clone()).max_bytes(6),
    );
    assert_eq!(error.kind(), ErrorKind::TooLarge);
    let chain = ok("b/x", &custom(&fs).transform(transform).budget(8));
    assert_eq!(
        omitted(&chain.omitted)[0],
        entry("AGENTS.md", 9, OverBudget, "")
    );
}

#[test]
fn a_transforms_error_is_the_chains_fs_error_with_its_message() {
    let fs = TestFs::new().file("AGENTS.md", "x\n").build();
    let options = custom(&fs).transform(Transform::new(|_, _| Err("no thanks".into())));
    let error = err("x", &options);
    assert_eq!(error.kind(), ErrorKind::Fs);
    assert!(error.to_string().contains("no thanks"), "{error}");
    assert!(error.to_string().contains("AGENTS.md"), "{error}");
}

#[test]
fn what_the_transform_returns_is_never_scanned_for_directives() {
    let fs = TestFs::new()
        .file("AGENTS.md", "x\n")
        .file("a.md", "a\n")
        .build();
    let options = custom(&fs)
        .imports(true)
        .transform(Transform::new(|_, _| Ok(b"@a.md\n".to_vec())));
    assert_eq!(contents(&ok("x", &options)), ["@a.md\n"]);
}

#[test]
fn the_interpolator_replaces_the_names_of_its_map_and_nothing_else() {
    let fs = TestFs::new()
        .file("AGENTS.md", "${env:USER} ${env:PATH} ${USER} ${env:9}\n")
        .build();
    let values = HashMap::from([("USER".to_owned(), b"ada".to_vec())]);
    let options = custom(&fs).transform(Transform::interpolator(values));
    assert_eq!(
        contents(&ok("x", &options)),
        ["ada ${env:PATH} ${USER} ${env:9}\n"]
    );
}

#[test]
fn the_interpolator_leaves_every_other_reference_as_it_is_and_never_scans_a_value_again() {
    let values: HashMap<String, Vec<u8>> = [("A", "${env:"), ("B", "B}"), ("_b9", ""), ("C", "v")]
        .iter()
        .map(|(k, v)| (k.to_string(), v.as_bytes().to_vec()))
        .collect();
    let text = b"${env:A}${env:B} ${env:_b9}| ${A} ${env:} ${env:9A} ${env:A-B} ${env:C \
                 $ $$ ${ENV:C} ${env:PATH} \xff${env:C}}";
    assert_eq!(
        agentsmd_core::interpolate(text, &values),
        b"${env:B} | ${A} ${env:} ${env:9A} ${env:A-B} ${env:C $ $$ ${ENV:C} ${env:PATH} \xffv}"
    );
}

// §5.6 -------------------------------------------------------------------------------------

#[test]
fn nearest_includes_only_the_last_directorys_file_and_supersedes_the_others_unread() {
    let fs = TestFs::new()
        .file("AGENTS.md", "root\n")
        .file("AGENTS.local.md", "root local\n")
        .file("f/r.md", "fragment\n")
        .file("a/AGENTS.md", "a\n")
        .file("a/b/AGENTS.md", "b\n")
        .build();
    let options = custom(&fs)
        .names(["AGENTS.md", "AGENTS.local.md"])
        .fragments(["f"])
        .nearest(true)
        .budget(1);
    let chain = ok("a/b/c/x", &options);
    assert!(chain.files.is_empty());
    // Superseded wins over the budget; a superseded file still stands for its directory; the
    // fragment and the nearest file are budgeted as ever.
    assert_eq!(
        omitted(&chain.omitted),
        [
            entry("AGENTS.md", 5, Superseded, "a/b/AGENTS.md"),
            entry("AGENTS.local.md", 11, Shadowed, "AGENTS.md"),
            entry("f/r.md", 9, OverBudget, ""),
            entry("a/AGENTS.md", 2, Superseded, "a/b/AGENTS.md"),
            entry("a/b/AGENTS.md", 2, OverBudget, ""),
        ]
    );
    assert_eq!(fs.reads_of("AGENTS.md") + fs.reads_of("a/AGENTS.md"), 0);
    let chain = ok("a/b/c/x", &options.budget(100));
    assert_eq!(contents(&chain), ["fragment\n", "b\n"]);
}

#[test]
fn nearest_leaves_extra_and_overlays_alone() {
    let tree = Tree::new();
    tree.file("extra.md", "extra\n");
    tree.file("repo/AGENTS.md", "root\n");
    tree.file("repo/a/AGENTS.md", "a\n");
    tree.file("o/AGENTS.md", "overlay\n");
    let options = Options::new()
        .root(tree.path("repo"))
        .extra([tree.path("extra.md")])
        .overlays([tree.path("o")])
        .nearest(true);
    let chain = ok(tree.path("repo/a/x"), &options);
    assert_eq!(contents(&chain), ["extra\n", "a\n", "overlay\n"]);
}

#[test]
fn a_file_both_superseded_and_already_imported_is_a_duplicate() {
    // SPEC.md §5.8: its text is already in the prompt. It still stands for its directory.
    let fs = TestFs::new()
        .file("AGENTS.md", "root\n")
        .file("f/r.md", "@../a/AGENTS.md\n")
        .file("a/AGENTS.md", "a\n")
        .file("a/AGENTS.local.md", "local\n")
        .file("a/b/AGENTS.md", "b\n")
        .build();
    let options = custom(&fs)
        .names(["AGENTS.md", "AGENTS.local.md"])
        .fragments(["f"])
        .imports(true)
        .nearest(true)
        .report(true);
    let chain = ok("a/b/x", &options);
    assert_eq!(contents(&chain), ["a\n", "b\n"]);
    assert_eq!(
        omitted(&chain.omitted),
        [
            entry("AGENTS.md", 5, Superseded, "a/b/AGENTS.md"),
            entry("a/AGENTS.md", 2, Duplicate, "f/r.md"),
            entry("a/AGENTS.local.md", 6, Shadowed, "a/AGENTS.md"),
        ]
    );
    let outcome = |path: &str| {
        let probes = probes(&chain);
        let found = probes
            .iter()
            .filter(|(p, s, _)| p == path && *s == Source::Chain);
        found.map(|(_, _, outcome)| *outcome).collect::<Vec<_>>()
    };
    assert_eq!(outcome("a/AGENTS.md"), [Outcome::Duplicate]);
    assert_eq!(fs.reads_of("a/AGENTS.md"), 1, "read once, as the import");
}

#[test]
fn a_file_both_superseded_and_already_a_file_of_the_result_is_a_duplicate() {
    // `.agents/AGENTS.md` is kept as a fragment of the root, then met as the file of the walk's
    // directory `.agents`, which the nearest file `.agents/b/AGENTS.md` supersedes.
    let tree = Tree::new();
    tree.file(".agents/AGENTS.md", "agents\n");
    tree.file(".agents/b/AGENTS.md", "b\n");
    let options = os(&tree).fragments([".agents"]).nearest(true);
    let chain = ok(tree.path(".agents/b/x"), &options);
    assert_eq!(contents(&chain), ["agents\n", "b\n"]);
    let agents = at(&tree, ".agents/AGENTS.md");
    assert_eq!(
        omitted(&chain.omitted),
        [entry(agents.clone(), 7, Duplicate, &agents)]
    );
}

// §5.7 -------------------------------------------------------------------------------------

#[test]
fn probes_list_every_place_looked_at_in_the_order_looked_at() {
    let tree = Tree::new();
    tree.file("extra.md", "@repo/i.md\n");
    tree.file("repo/i.md", "i\n");
    tree.file("repo/AGENTS.md", "root\n");
    tree.file("repo/f/b.md", "b\n");
    tree.file("repo/f/a.md", "a\n");
    tree.file("repo/f/.x.md", "hidden\n");
    tree.file("repo/f/t.txt", "text\n");
    tree.dir("repo/f/d.md");
    tree.file("repo/a/f", "a file\n");
    tree.dir("repo/a/b");
    tree.file("o/AGENTS.md", "overlay\n");
    let options = Options::new()
        .root(tree.path("repo"))
        .names(["AGENTS.md", "X.md"])
        .extra([tree.path("missing.md"), tree.path("extra.md")])
        .fragments(["f"])
        .overlays([tree.path("o"), tree.path("gone")])
        .imports(true)
        .report(true);
    let chain = ok(tree.path("repo/a/b/c/new.txt"), &options);
    use Outcome::*;
    use Source::{Chain as C, Extra, Fragment, Overlay};
    let p = |rel: &str| at(&tree, rel);
    assert_eq!(
        probes(&chain),
        [
            (p("missing.md"), Extra, NotFound),
            (p("extra.md"), Extra, Included),
            (p("repo/i.md"), Extra, Imported),
            (p("repo/AGENTS.md"), C, Included),
            (p("repo/X.md"), C, NotFound),
            (p("repo/f"), Fragment, Listed),
            (p("repo/f/a.md"), Fragment, Included),
            (p("repo/f/b.md"), Fragment, Included),
            (p("repo/f/d.md"), Fragment, NotAFile),
            (p("repo/a/AGENTS.md"), C, NotFound),
            (p("repo/a/X.md"), C, NotFound),
            (p("repo/a/f"), Fragment, NotAFile),
            (p("repo/a/b/AGENTS.md"), C, NotFound),
            (p("repo/a/b/X.md"), C, NotFound),
            (p("repo/a/b/f"), Fragment, NotFound),
            (p("repo/a/b/c/AGENTS.md"), C, NotFound),
            (p("repo/a/b/c/X.md"), C, NotFound),
            (p("repo/a/b/c/f"), Fragment, NotFound),
            (p("o/AGENTS.md"), Overlay, Included),
            (p("o/X.md"), Overlay, NotFound),
            (p("o/f"), Overlay, NotFound),
            (p("gone/AGENTS.md"), Overlay, NotFound),
            (p("gone/X.md"), Overlay, NotFound),
            (p("gone/f"), Overlay, NotFound),
        ]
    );
}

#[test]
fn a_missing_directory_of_the_walk_is_probed_name_by_name_and_asked_nothing() {
    let fs = TestFs::new().file("AGENTS.md", "root\n").build();
    let options = custom(&fs).fragments(["f"]).report(true);
    let chain = ok("a/b/x", &options);
    use Outcome::*;
    use Source::{Chain as C, Fragment};
    assert_eq!(
        probes(&chain),
        [
            ("AGENTS.md".into(), C, Included),
            ("f".into(), Fragment, NotFound),
            ("a/AGENTS.md".into(), C, NotFound),
            ("a/f".into(), Fragment, NotFound),
            ("a/b/AGENTS.md".into(), C, NotFound),
            ("a/b/f".into(), Fragment, NotFound),
        ]
    );
    // Below the first directory that does not exist, nothing is asked: `a/f` is not.
    assert_eq!(fs.asked(Op::Stat), ["a/b/x", "AGENTS.md", "f"]);
}

#[test]
fn a_listed_name_that_is_no_regular_file_is_probed_not_a_file() {
    let tree = Tree::new();
    tree.dir("d/AGENTS.md");
    tree.file("file", "x\n");
    let mut dirs = vec!["d"];
    // Links, where this host makes them.
    if support::MAKES_LINKS {
        tree.symlink("l/AGENTS.md", "nowhere");
        tree.symlink("loop/AGENTS.md", "AGENTS.md");
        tree.symlink("notdir/AGENTS.md", tree.path("file/x").bytes());
        dirs.extend(["l", "loop", "notdir"]);
    }
    // Windows has no FIFO in a directory.
    #[cfg(unix)]
    {
        tree.fifo("fifo/AGENTS.md");
        dirs.push("fifo");
    }
    for dir in dirs {
        let options = Options::new().root(tree.path(dir)).report(true);
        let chain = ok(tree.path(format!("{dir}/x")), &options);
        assert_eq!(
            probes(&chain),
            [(
                at(&tree, &format!("{dir}/AGENTS.md")),
                Source::Chain,
                Outcome::NotAFile
            )],
            "{dir}"
        );
    }
}

#[test]
fn probes_name_the_outcome_of_each_file_left_out() {
    let fs = TestFs::new()
        .file("AGENTS.md", "@a/AGENTS.md\n")
        .file("AGENTS.local.md", "local\n")
        .file("a/AGENTS.md", "a\n")
        .file("a/b/AGENTS.md", "@../../big.md\n")
        .file("big.md", "0123456789abcde\n")
        .file("a/b/c/AGENTS.md", "c\n")
        .build();
    let options = custom(&fs)
        .names(["AGENTS.md", "AGENTS.local.md"])
        .imports(true)
        .report(true)
        .budget(16);
    let chain = ok("a/b/c/x", &options);
    use Outcome::*;
    let outcomes: Vec<(String, Outcome)> = probes(&chain)
        .into_iter()
        .filter(|(_, _, o)| *o != NotFound)
        .map(|(p, _, o)| (p, o))
        .collect();
    assert_eq!(
        outcomes,
        [
            ("AGENTS.md".into(), Included),
            ("a/AGENTS.md".into(), Imported),
            ("AGENTS.local.md".into(), Shadowed),
            ("a/AGENTS.md".into(), Duplicate),
            ("a/b/AGENTS.md".into(), OverBudget),
            ("big.md".into(), Imported),
            ("a/b/c/AGENTS.md".into(), OverBudget),
        ]
    );
    let chain = ok(
        "a/b/c/x",
        &options.budget(1000).nearest(true).imports(false),
    );
    let superseded = probes(&chain)
        .into_iter()
        .filter(|(_, _, o)| *o == Superseded)
        .count();
    assert_eq!(superseded, 3);
}

#[test]
#[cfg_attr(
    windows,
    ignore = "no symbolic links under Wine: see support::MAKES_LINKS"
)]
fn under_confine_a_directory_leading_out_of_root_is_one_probe() {
    let outside = Tree::new();
    outside.file("AGENTS.md", "secret\n");
    outside.file("b/AGENTS.md", "secret\n");
    let tree = Tree::new();
    tree.symlink("a", outside.root().bytes());
    let options = os(&tree).confine(true).fragments(["f"]).report(true);
    let chain = ok(tree.path("a/b/x"), &options);
    use Outcome::*;
    assert_eq!(
        probes(&chain),
        [
            (at(&tree, "AGENTS.md"), Source::Chain, NotFound),
            (at(&tree, "f"), Source::Fragment, NotFound),
            (at(&tree, "a"), Source::Chain, Escapes),
        ]
    );
    assert_eq!(
        omitted(&chain.omitted),
        [entry(at(&tree, "a"), 0, Reason::Escapes, "")]
    );
}

#[test]
#[cfg(target_os = "linux")]
fn every_rule_here_holds_on_the_portable_path() {
    support::rerun_on_the_portable_path(&[]);
}

/// SPEC.md §8.2: on Windows's own file system an import's element is a name Windows opens as
/// named, or the import is invalid: `x.md.` would open `x.md`, and `nul.md` the device.
#[cfg(windows)]
#[test]
fn an_import_windows_would_open_as_another_name_is_invalid() {
    for directive in ["@nul.md", "@docs/x.md.", "@include com1/x.md", "@a<b.md"] {
        let tree = Tree::new();
        tree.file("AGENTS.md", format!("{directive}\n"));
        tree.dir("docs");
        tree.file("docs/x.md", "x\n");
        let options = Options::new().root(tree.root()).imports(true);
        let error = agentsmd_core::chain(tree.path("x"), &options).unwrap_err();
        assert_eq!(error.kind(), ErrorKind::Import, "{directive}: {error}");
        assert!(
            error.to_string().contains("invalid path"),
            "{directive}: {error}"
        );
    }
}

/// SPEC.md §8.2: every OS path the library returns is written with `\\`.
#[cfg(windows)]
#[test]
fn an_overlay_directory_is_written_with_backslashes() {
    let dir = agentsmd_core::overlay_dir("C:/users/", "ada")
        .unwrap()
        .unwrap();
    assert_eq!(dir, std::path::Path::new(r"C:\users\ada\.agents"));
}

#[test]
#[cfg(unix)]
fn every_rule_here_holds_through_batches() {
    // An overlay is an OS path, and a custom file system's files are names: there, no overlay
    // is a directory of the walk.
    support::rerun_through_batches(&[
        "an_overlay_that_is_a_directory_of_the_walk_is_not_read_again",
    ]);
}
