//! The OS walk by lookup answers exactly what the listing walk answers: on randomized trees of
//! symbolic links (to files, to directories, dangling, looping), directories and FIFOs named
//! like instruction files, case variants of the names, missing directories and paths through
//! files, the two find the same files, sizes and errors, directory by directory and chain by
//! chain — also when every hit must be confirmed by a listing, as on a case-folding file system.
//!
//! Set `TMPDIR` to run the trees on another file system (a casefold ext4 or tmpfs, vfat, NFS),
//! where the lookup walk must confirm hits for real.

mod support;

use std::ffi::OsStr;
use std::os::unix::ffi::OsStrExt;
use std::path::PathBuf;
use std::sync::{Arc, Mutex};

use agentsmd::fs::{lookup_by_listing, FileSystem, OsFs};
use agentsmd::{chain, Chain, Error, Options};
use support::{text, DirFs, Tree};

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

/// Names the trees use: those looked for, their case variants, and near misses.
const ENTRY_NAMES: &[&str] = &[
    "AGENTS.md",
    "AGENTS.override.md",
    "agents.md",
    "Agents.md",
    "AGENTS.MD",
    "agents.override.md",
    "AGENTS.md ",
    "README.md",
];

/// The names options look for, in some order.
const LOOKED_FOR: &[&[&str]] = &[
    &["AGENTS.md"],
    &["AGENTS.override.md", "AGENTS.md"],
    &["agents.md", "AGENTS.md"],
    &["AGENTS.md", "Agents.md", "AGENTS.override.md"],
];

const LEVELS: &[&str] = &["a", "b", "c", "d", "e"];

/// Fills `tree` with a random chain of directories and entries; returns the path to ask about
/// (relative to the tree) and the names to look for.
fn random_tree(tree: &Tree, random: &mut Random) -> (String, Vec<Vec<u8>>) {
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
        .pick(LOOKED_FOR)
        .iter()
        .map(|name| name.as_bytes().to_vec())
        .collect();
    (path, names)
}

fn os_path(tree: &Tree, rel: &str) -> PathBuf {
    PathBuf::from(OsStr::from_bytes(&tree.path(rel)))
}

fn tree_has(tree: &Tree, rel: &str) -> bool {
    os_path(tree, rel).symlink_metadata().is_ok()
}

/// Whether `dir` (relative, ending in `/`, or empty for the root) is a directory one can create
/// entries in.
fn parent_is_dir(tree: &Tree, dir: &str) -> bool {
    os_path(tree, dir.trim_end_matches('/')).is_dir()
}

/// The directories from the tree's root down to `path`'s deepest, as the walk would ask them.
fn directories(tree: &Tree, path: &str) -> Vec<Vec<u8>> {
    let mut dirs = vec![tree.root()];
    let mut at = String::new();
    for element in path.split('/').filter(|e| !e.is_empty()) {
        at = if at.is_empty() {
            element.to_string()
        } else {
            format!("{at}/{element}")
        };
        dirs.push(tree.path(&at));
    }
    dirs
}

/// A chain with its paths made relative to `base`, for comparing OS and custom-FS chains.
fn relative(
    chain: Result<Chain, Error>,
    base: &[u8],
) -> Result<Vec<String>, (String, Option<i32>)> {
    let strip = |path: &[u8]| {
        let path = text(path);
        let base = text(base);
        path.strip_prefix(&format!("{base}/"))
            .map(str::to_string)
            .unwrap_or(path)
    };
    chain
        .map(|chain| {
            let mut rows: Vec<String> = chain
                .files
                .iter()
                .map(|f| format!("file {} {:?}", strip(&f.path), text(&f.content)))
                .collect();
            rows.extend(chain.omitted.iter().map(|o| {
                format!(
                    "omitted {} {} {:?} {}",
                    strip(&o.path),
                    o.size,
                    o.reason,
                    strip(&o.by)
                )
            }));
            rows
        })
        .map_err(|e| (format!("{:?}", e.kind()), e.os_code()))
}

/// Builds a random tree for each seed and compares the walks on it.
fn compare(seeds: std::ops::Range<u64>) {
    for seed in seeds {
        let tree = Tree::new();
        let mut random = Random::new(seed);
        let (path, names) = random_tree(&tree, &mut random);
        let shown: Vec<String> = names.iter().map(|name| text(name)).collect();
        let context = format!("seed {seed}: path {path:?}, names {shown:?}");

        // Directory by directory: the lookup walk and the listing walk, errors included.
        let dirs = directories(&tree, &path);
        let dir_slices: Vec<&[u8]> = dirs.iter().map(Vec::as_slice).collect();
        let by_lookup = OsFs.lookup(&dir_slices, &names);
        let by_listing: Result<Vec<_>, Error> = {
            let mut answers = Vec::new();
            let mut failed = None;
            let mut gone = false;
            for dir in &dirs {
                if gone {
                    answers.push(None);
                    continue;
                }
                match lookup_by_listing(&OsFs, dir, &names) {
                    Ok(answer) => {
                        gone = answer.is_none();
                        answers.push(answer);
                    }
                    Err(err) => {
                        failed = Some(err);
                        break;
                    }
                }
            }
            failed.map_or(Ok(answers), Err)
        };
        assert_eq!(by_lookup, by_listing, "{context}");

        // Chain by chain: the OS chain, the same tree through a file system that answers
        // `lookup` by listing (paths made absolute again, errors byte for byte), and the same
        // tree through an independent custom file system on `std::fs`.
        let options = Options {
            names: names.clone(),
            root: tree.root(),
            ..Options::default()
        };
        let os = chain(tree.path(&path), &options);
        assert_eq!(os, listing_chain(&tree, &path, &names), "{context}");
        let custom = Options {
            names: names.clone(),
            fs: Some(Arc::new(DirFs::new(os_path(&tree, ""))) as Arc<dyn FileSystem>),
            ..Options::default()
        };
        assert_eq!(
            relative(os, &tree.root()),
            relative(chain(fs_name(&path), &custom), b"."),
            "{context}"
        );
    }
}

/// `path` relative to the tree as an FS name.
fn fs_name(path: &str) -> &str {
    if path.is_empty() {
        "."
    } else {
        path
    }
}

/// The chain of `path` over [`Rooted`], whose `lookup` lists, with its FS names made absolute
/// paths again.
fn listing_chain(tree: &Tree, path: &str, names: &[Vec<u8>]) -> Result<Chain, Error> {
    let root = tree.root();
    let options = Options {
        names: names.to_vec(),
        fs: Some(Arc::new(Rooted { root: root.clone() }) as Arc<dyn FileSystem>),
        ..Options::default()
    };
    let mut result = chain(fs_name(path), &options)?;
    let absolute = |name: &mut Vec<u8>| {
        if !name.is_empty() {
            *name = [root.as_slice(), b"/", name.as_slice()].concat();
        }
    };
    for file in &mut result.files {
        absolute(&mut file.path);
    }
    for omitted in &mut result.omitted {
        absolute(&mut omitted.path);
        absolute(&mut omitted.by);
    }
    Ok(result)
}

/// The OS file system seen from `root`, with FS names; `lookup` is the default, by listing.
struct Rooted {
    root: Vec<u8>,
}

impl Rooted {
    fn os(&self, name: &[u8]) -> Vec<u8> {
        if name == b"." {
            self.root.clone()
        } else {
            [self.root.as_slice(), b"/", name].concat()
        }
    }
}

impl FileSystem for Rooted {
    fn list(&self, dir: &[u8]) -> Result<Option<Vec<Vec<u8>>>, Error> {
        OsFs.list(&self.os(dir))
    }
    fn stat(&self, path: &[u8]) -> Result<Option<agentsmd::fs::Metadata>, Error> {
        OsFs.stat(&self.os(path))
    }
    fn read(&self, path: &[u8], hint: u64, limit: u64) -> Result<Option<Vec<u8>>, Error> {
        OsFs.read(&self.os(path), hint, limit)
    }
}

/// The case-folding hook is process-wide: the tests that set it and those that do not take
/// turns.
static FOLDING: Mutex<()> = Mutex::new(());

#[test]
fn lookup_walk_equals_listing_walk_on_random_trees() {
    let _turn = FOLDING.lock().unwrap_or_else(|p| p.into_inner());
    compare(0..400);
}

#[test]
fn lookup_walk_confirming_every_hit_equals_listing_walk() {
    let _turn = FOLDING.lock().unwrap_or_else(|p| p.into_inner());
    agentsmd::fs::assume_case_folding(true);
    let result = std::panic::catch_unwind(|| compare(400..600));
    agentsmd::fs::assume_case_folding(false);
    if let Err(panic) = result {
        std::panic::resume_unwind(panic);
    }
}
