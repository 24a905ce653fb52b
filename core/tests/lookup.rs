//! The OS lookup answers what the listing walk answers: on randomized trees of symbolic links
//! (to files, to directories, dangling, looping), directories and FIFOs named like instruction
//! files, case variants of the names, missing directories and paths through files, a chain by
//! the OS file system, which looks names up (no listing), equals the chain by [`OsFs`] as a
//! custom file system, whose directories are listed (SPEC.md §3), over the same tree — files, sizes, omitted and errors — also when every hit must be
//! confirmed by a listing, as for a name with no case to swap.
//!
//! Set `TMPDIR` to run the trees on another file system (a casefold ext4 or tmpfs, vfat, NFS),
//! where the lookup must confirm hits for real.
// Trees of symbolic links made by the test, which Wine cannot make from the Windows side.
#![cfg(unix)]

mod support;

use std::ffi::OsString;
use std::io::{self, Read};
use std::path::PathBuf;
use std::sync::Arc;

use agentsmd_core::fs::{Entry, FileSystem, OsFs};
use agentsmd_core::{chain, Chain, Error, FsName, Options};
use support::{os_name, text, Tree};

/// A small deterministic generator (xorshift64*), so that a failing seed can be replayed.
struct Random(u64);

impl Random {
    fn new(seed: u64) -> Self {
        Self(seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1)
    }

    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }

    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }

    fn chance(&mut self, percent: u64) -> bool {
        self.next() % 100 < percent
    }

    fn pick<'a, T>(&mut self, items: &'a [T]) -> &'a T {
        &items[self.below(items.len())]
    }
}

/// Names the trees use: those looked for, their case variants, and near misses; the last two
/// have no case to swap (a byte beyond ASCII), so the OS lookup confirms each hit by listing.
const ENTRY_NAMES: &[&str] = &[
    "AGENTS.md",
    "AGENTS.override.md",
    "agents.md",
    "Agents.md",
    "AGENTS.MD",
    "agents.override.md",
    "AGENTS.md ",
    "README.md",
    "ÄGENTS.md",
    "äGENTS.md",
];

/// The names options look for, in some order.
const LOOKED_FOR: &[&[&str]] = &[
    &["AGENTS.md"],
    &["AGENTS.override.md", "AGENTS.md"],
    &["agents.md", "AGENTS.md"],
    &["AGENTS.md", "Agents.md", "AGENTS.override.md"],
];

/// Names looked for that every hit of is confirmed by a listing.
const CONFIRMED: &[&[&str]] = &[&["ÄGENTS.md", "AGENTS.md"], &["äGENTS.md", "ÄGENTS.md"]];

const LEVELS: &[&str] = &["a", "b", "c", "d", "e"];

/// Fills `tree` with a random chain of directories and entries; returns the path to ask about
/// (relative to the tree) and the names to look for.
fn random_tree(tree: &Tree, random: &mut Random, looked_for: &[&[&str]]) -> (String, Vec<Vec<u8>>) {
    let depth = 1 + random.below(LEVELS.len());
    let mut dir = String::new();
    for level in 0..=depth {
        if level > 0 {
            let name = LEVELS[level - 1];
            let at = format!("{dir}{name}");
            let choice = if parent_is_dir(tree, &dir) {
                random.below(10)
            } else {
                // Below a missing directory or a file nothing can be made.
                0
            };
            match choice {
                // Missing from here down: the walk lists nothing below.
                0 => {}
                // A symbolic link to a directory elsewhere in the tree.
                1 => {
                    let target = format!("elsewhere{level}");
                    tree.dir(&target);
                    let up = "../".repeat(dir.matches('/').count());
                    tree.symlink(&at, format!("{up}{target}"));
                }
                // A regular file where a directory should be: errors on the way.
                2 if random.chance(30) => {
                    tree.file(&at, "not a directory\n");
                }
                _ => {
                    tree.dir(&at);
                }
            }
            dir = format!("{at}/");
        }
        let entries = 2 + random.below(6);
        for _ in 0..entries {
            let name = random.pick(ENTRY_NAMES);
            let at = format!("{dir}{name}");
            if tree_has(tree, &at) || !parent_is_dir(tree, &dir) {
                continue;
            }
            match random.below(9) {
                0 => {
                    tree.dir(&at);
                }
                1 => {
                    tree.fifo(&at);
                }
                2 => {
                    tree.symlink(&at, "nowhere");
                }
                3 => {
                    tree.file(format!("{dir}target-of-{name}"), "linked to\n");
                    tree.symlink(&at, format!("target-of-{name}"));
                }
                4 => {
                    tree.symlink(&at, ".");
                }
                5 if random.chance(20) => {
                    // A link to itself: following it loops.
                    tree.symlink(&at, name);
                }
                _ => {
                    let size = random.below(40);
                    tree.file(&at, "x".repeat(size) + "\n");
                }
            }
        }
        // Filler entries, so that listings hold more than the names.
        for filler in 0..random.below(4) {
            if parent_is_dir(tree, &dir) {
                tree.file(format!("{dir}filler{filler}.rs"), "fn main() {}\n");
            }
        }
    }
    let path = match random.below(3) {
        0 => format!("{dir}main.rs"),
        1 => format!("{dir}missing/deeper/new.rs"),
        _ => dir.trim_end_matches('/').to_string(),
    };
    let names = random
        .pick(looked_for)
        .iter()
        .map(|name| name.as_bytes().to_vec())
        .collect();
    (path, names)
}

fn os_path(tree: &Tree, rel: &str) -> PathBuf {
    tree.path(rel)
}

fn tree_has(tree: &Tree, rel: &str) -> bool {
    os_path(tree, rel).symlink_metadata().is_ok()
}

/// Whether `dir` (relative, ending in `/`, or empty for the root) is a directory one can create
/// entries in.
fn parent_is_dir(tree: &Tree, dir: &str) -> bool {
    os_path(tree, dir.trim_end_matches('/')).is_dir()
}

/// A chain as rows that compare and print well, errors as (kind, OS code, message), with every
/// path and message relative to `base`.
fn rows(
    chain: Result<Chain, Error>,
    base: &str,
) -> Result<Vec<String>, (String, Option<i32>, String)> {
    // An OS path (`/tmp/x/a`) and a name below `/` (`tmp/x/a`) alike.
    let base = base.trim_start_matches('/');
    let (absolute, name) = (format!("/{base}/"), format!("{base}/"));
    let text = |bytes: &dyn support::Bytes| {
        support::text(bytes.bytes())
            .replace(&absolute, "")
            .replace(&name, "")
    };
    chain
        .map(|chain| {
            let mut rows: Vec<String> = chain
                .files
                .iter()
                .map(|f| format!("file {} {:?}", text(&f.path), text(&f.content)))
                .collect();
            rows.extend(chain.omitted.iter().map(|o| {
                let by = o.by.as_ref().map(|by| text(by)).unwrap_or_default();
                format!("omitted {} {} {:?} {by}", text(&o.path), o.size, o.reason)
            }));
            rows
        })
        .map_err(|e| (format!("{:?}", e.kind()), e.os_code(), text(&e.to_string())))
}

/// Builds a random tree for each seed and compares the two lookups on it.
fn compare(seeds: std::ops::Range<u64>, looked_for: &[&[&str]]) {
    for seed in seeds {
        let tree = Tree::new();
        let mut random = Random::new(seed);
        let (path, names) = random_tree(&tree, &mut random, looked_for);
        let shown: Vec<String> = names.iter().map(text).collect();
        let context = format!("seed {seed}: path {path:?}, names {shown:?}");
        let os = Options::new().names(&names).root(tree.root());
        let by_lookup = chain(tree.path(&path), &os);
        // The same tree and path as names of the file system below `/`.
        let root = os_name(&tree.root());
        let listing = Options::new()
            .names(&names)
            .root(text(&root))
            .fs(Arc::new(ByListing));
        let by_listing = chain(text(&os_name(&tree.path(&path))), &listing);
        assert_eq!(
            rows(by_lookup, &text(&tree.root())),
            rows(by_listing, &text(&root)),
            "{context}"
        );
    }
}

/// The OS file system as a custom one: each directory listed, and the names it lists stat'ed. Its names are [`OsFs`]'s (below `/`), so its chain's paths are the OS
/// chain's, byte for byte.
struct ByListing;

impl FileSystem for ByListing {
    fn list(&self, dir: &FsName) -> io::Result<Vec<OsString>> {
        OsFs.list(dir)
    }
    fn stat(&self, name: &FsName) -> io::Result<Entry> {
        OsFs.stat(name)
    }
    fn open(&self, name: &FsName) -> io::Result<Box<dyn Read + '_>> {
        OsFs.open(name)
    }
}

#[test]
fn lookup_walk_equals_listing_walk_on_random_trees() {
    compare(0..400, LOOKED_FOR);
}

#[test]
fn lookup_walk_confirming_every_hit_equals_listing_walk() {
    compare(400..600, CONFIRMED);
}

#[test]
#[cfg(target_os = "linux")]
fn every_rule_here_holds_on_the_portable_path() {
    support::rerun_on_the_portable_path(&[]);
}
