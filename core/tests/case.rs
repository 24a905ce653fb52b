//! Case-insensitive file systems (SPEC.md §1 "Names", §8.1): where a file system folds names, as
//! macOS's does by default, a name still counts only under the spelling its directory lists.
//!
//! One layout, whose files are spelt otherwise than the names looked for, is walked three ways:
//! by a custom file system that finds a name under any case but lists one spelling, and by the
//! OS, unconfined and confined. On a case-sensitive file system the OS chains hold by
//! construction; `case_rules_hold_on_a_real_case_folding_file_system` runs them again on one
//! (a casefold tmpfs or ext4, mounted in a mount namespace of their own) where the machine can
//! make one, and says why not where it cannot. `TMPDIR` on a folding file system runs them all
//! there too. The decision the OS lookup takes on a folding answer is tested on its own in
//! `core/src/fs/sys/unix/lookup.rs`.

mod support;

use std::path::Path;

use agentsmd_core::Chain;
use support::{at, ok, os, text, TestFs, Tree};

/// The layout: each name spelt once, in its own directory, so that it can be made on a folding
/// file system too.
const FILES: &[(&str, &str)] = &[
    ("AGENTS.MD", "root, upper-case extension\n"),
    ("CLAUDE.md", "root claude\n"),
    ("a/agents.md", "a, lower case\n"),
    ("a/b/AGENTS.md", "b, exact\n"),
    ("a/b/c/claude.MD", "c, mixed\n"),
    // The Kelvin sign, which a folding file system takes for `K` (or `k`).
    ("a/b/c/\u{212A}IRO.md", "c, kelvin\n"),
];

/// The path asked about.
const START: &str = "a/b/c/x";

/// The names looked for, and the files each finds (relative to the layout's root): only those
/// listed under the very spelling looked for, none `Shadowed` by a spelling that is not listed.
const CASES: &[(&[&str], &[&str])] = &[
    (&["AGENTS.md", "CLAUDE.md"], &["CLAUDE.md", "a/b/AGENTS.md"]),
    (
        &["agents.md", "AGENTS.md"],
        &["a/agents.md", "a/b/AGENTS.md"],
    ),
    (
        &["AGENTS.md", "agents.md"],
        &["a/agents.md", "a/b/AGENTS.md"],
    ),
    (&["claude.md", "KIRO.md", "kiro.md"], &[]),
    (
        &["AGENTS.MD", "claude.MD"],
        &["AGENTS.MD", "a/b/c/claude.MD"],
    ),
];

fn layout() -> Tree {
    let tree = Tree::new();
    for (rel, content) in FILES {
        tree.file(rel, content);
    }
    tree
}

/// The paths of a chain's files relative to `root`, `/`-separated, each with its content checked
/// against the layout, and nothing omitted.
fn found(result: &Chain, root: &Path) -> Vec<String> {
    assert!(result.omitted.is_empty(), "{:?}", result.omitted);
    let found: Vec<String> = result
        .files
        .iter()
        .map(|file| {
            let path = file.path.strip_prefix(root).unwrap_or(&file.path);
            let elements: Vec<String> = path.iter().map(text).collect();
            elements.join("/")
        })
        .collect();
    for (rel, file) in found.iter().zip(&result.files) {
        let (_, content) = FILES.iter().find(|(r, _)| r == rel).unwrap();
        assert_eq!(file.content, content.as_bytes(), "{rel}");
    }
    found
}

#[test]
fn a_folding_custom_file_system_counts_a_name_only_under_its_listed_spelling() {
    let fs = FILES
        .iter()
        .fold(TestFs::new(), |fs, (rel, content)| fs.file(rel, content))
        .case_insensitive()
        .build();
    for (names, want) in CASES {
        let result = ok(START, &support::custom(&fs).names(*names));
        assert_eq!(found(&result, Path::new("")), *want, "{names:?}");
    }
}

/// Whether names fold where `tree` is: `AGENTS.MD` found as `agents.md`.
fn folds(tree: &Tree) -> bool {
    tree.path("agents.md").exists()
}

#[test]
fn an_os_chain_counts_a_name_only_under_its_listed_spelling() {
    // Where `TMPDIR` is: on a folding file system, the lookup must confirm each hit.
    let tree = layout();
    if std::env::var_os("AGENTSMD_TEST_CASEFOLD").is_some() {
        assert!(
            folds(&tree),
            "the file system at {} does not fold",
            at(&tree, "")
        );
    }
    let root = tree.root();
    for (names, want) in CASES {
        for confine in [false, true] {
            let options = os(&tree).names(*names).confine(confine);
            let result = ok(tree.path(START), &options);
            assert_eq!(found(&result, &root), *want, "{names:?}, confine {confine}");
        }
    }
}

#[test]
#[cfg(target_os = "linux")]
fn case_rules_hold_on_a_real_case_folding_file_system() {
    use std::os::unix::fs::MetadataExt;

    // This binary again, in a mount namespace of its own (as root, or as a user through a user
    // namespace), with `TMPDIR` a directory that folds case: a casefold tmpfs (Linux 6.13 with
    // CONFIG_UNICODE), or, for root, an ext4 image made with casefold on a loop device. The
    // mount ends with the namespace. Once through Linux's own calls, once through the portable
    // path.
    const SCRIPT: &str = r#"
        set -u
        dir=$1; shift
        mkdir -p "$dir/mnt"
        if mount -t tmpfs -o casefold tmpfs "$dir/mnt" 2>/dev/null; then
            :
        elif mkfs.ext4 -q -F -O casefold "$dir/ext4.img" 8M 2>/dev/null \
            && mount -o loop "$dir/ext4.img" "$dir/mnt" 2>/dev/null; then
            :
        else
            echo "neither a casefold tmpfs nor a casefold ext4 mounts here (a kernel without CONFIG_UNICODE, or no right to mount)" >&2
            exit 77
        fi
        mkdir "$dir/mnt/folds" && chattr +F "$dir/mnt/folds" 2>/dev/null || {
            echo "chattr +F refused on the casefold mount" >&2
            exit 77
        }
        TMPDIR="$dir/mnt/folds" AGENTSMD_TEST_CASEFOLD=1 exec "$@"
    "#;
    let mount = tempfile::tempdir().unwrap();
    let as_root = mount.path().metadata().unwrap().uid() == 0;
    for portable in [false, true] {
        let mut run = std::process::Command::new("unshare");
        if !as_root {
            run.args(["--user", "--map-root-user"]);
        }
        run.args(["--mount", "sh", "-c", SCRIPT, "sh"])
            .arg(mount.path())
            .arg(std::env::current_exe().unwrap())
            .args([
                "--exact",
                "an_os_chain_counts_a_name_only_under_its_listed_spelling",
            ]);
        if portable {
            run.env("AGENTSMD_TEST_PORTABLE", "1");
        }
        let run = match run.output() {
            Ok(run) => run,
            Err(e) => return eprintln!("skipped: unshare(1) does not run here: {e}"),
        };
        let out = String::from_utf8_lossy(&run.stdout);
        let err = String::from_utf8_lossy(&run.stderr);
        if run.status.code() == Some(77)
            || (!out.contains("running 1 test") && !run.status.success())
        {
            return eprintln!("skipped: no case-folding file system here: {}", err.trim());
        }
        assert!(
            run.status.success() && out.contains("1 passed"),
            "on a case-folding file system (portable: {portable}):\n{out}{err}"
        );
    }
    assert!(
        !mount.path().join("mnt/folds").exists(),
        "the mount outlived its namespace"
    );
}

#[test]
#[cfg(target_os = "linux")]
fn every_rule_here_holds_on_the_portable_path() {
    support::rerun_on_the_portable_path(&["case_rules_hold_on_a_real_case_folding_file_system"]);
}
