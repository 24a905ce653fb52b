//! Unit tests of `src/fs/sys/unix/lookup.rs`, which includes this file by `#[path]`: they
//! reach private items, so they cannot be an integration test.

use std::cell::RefCell;
use std::os::unix::ffi::OsStrExt;
use std::path::{Path, PathBuf};

use rustix::fs::{statat, AtFlags, CWD};

use super::*;

/// A file system over a real directory that finds an entry under every spelling `fold` takes
/// for its name, as one that folds names does, and lists the spellings it holds; it records
/// each question it is asked.
struct Folds {
    base: PathBuf,
    fold: fn(&[u8]) -> Vec<u8>,
    asked: RefCell<Vec<String>>,
}

impl Folds {
    fn new(base: &Path, fold: fn(&[u8]) -> Vec<u8>) -> Self {
        let asked = RefCell::default();
        let base = base.to_path_buf();
        Self { base, fold, asked }
    }

    /// The real path of `path`: each element the entry whose name folds as it does.
    fn real(&self, question: &str, path: &[u8]) -> Result<PathBuf, Errno> {
        let shown = String::from_utf8_lossy(path);
        self.asked.borrow_mut().push(format!("{question} {shown}"));
        let mut real = self.base.clone();
        for element in path.split(|&b| b == b'/').filter(|e| *e != b".") {
            let entry = std::fs::read_dir(&real)
                .map_err(|_| Errno::NOTDIR)?
                .map(|entry| entry.unwrap().file_name())
                .find(|name| (self.fold)(name.as_bytes()) == (self.fold)(element))
                .ok_or(Errno::NOENT)?;
            real.push(entry);
        }
        Ok(real)
    }

    fn asked(&self) -> Vec<String> {
        self.asked.take()
    }
}

impl At for Folds {
    fn lstat(&self, path: &[u8]) -> Result<Stat, Errno> {
        statat(CWD, self.real("lstat", path)?, AtFlags::SYMLINK_NOFOLLOW)
    }

    fn stat(&self, path: &[u8]) -> Result<Stat, Errno> {
        statat(CWD, self.real("stat", path)?, AtFlags::empty())
    }

    fn list(&self, dir: &[u8]) -> Result<Vec<OsString>, Errno> {
        let entries = std::fs::read_dir(self.real("list", dir)?).unwrap();
        Ok(entries.map(|entry| entry.unwrap().file_name()).collect())
    }

    fn os_path(&self, path: &[u8]) -> Vec<u8> {
        path.to_vec()
    }
}

/// Case folded, as macOS's and casefold directories fold it (for ASCII).
fn case(name: &[u8]) -> Vec<u8> {
    name.to_ascii_lowercase()
}

/// No folding: a case-sensitive file system.
fn exact(name: &[u8]) -> Vec<u8> {
    name.to_vec()
}

/// Unicode normalised (NFD) but case kept, as ZFS's `normalization=formD` compares: the
/// Kelvin sign is `K`.
fn normalised(name: &[u8]) -> Vec<u8> {
    String::from_utf8_lossy(name)
        .replace('\u{212A}', "K")
        .into_bytes()
}

/// `d1/agents.md`, `d2/AGENTS.md` and `d3/\u{212A}IRO.md`, each of 2 bytes.
fn tree() -> tempfile::TempDir {
    let base = tempfile::tempdir().unwrap();
    for file in ["d1/agents.md", "d2/AGENTS.md", "d3/\u{212A}IRO.md"] {
        let path = base.path().join(file);
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(path, "x\n").unwrap();
    }
    base
}

fn names(names: &[&str]) -> Vec<Vec<u8>> {
    names.iter().map(|name| name.as_bytes().to_vec()).collect()
}

const FILE: Kind = Kind::File { size: 2 };

#[test]
fn a_folding_directory_is_told_by_a_twin_once_and_then_every_hit_is_listed() {
    let base = tree();
    let at = Folds::new(base.path(), case);
    let folding = Folding::new(false);
    let agents = names(&["AGENTS.md"]);
    // `d1` holds `agents.md`: found as `AGENTS.md`, whose twin `agents.MD` is the same entry;
    // the listing has no `AGENTS.md`.
    let found = names_in(&at, b"d1", &agents, &folding).unwrap();
    assert_eq!(found, Lookup::Names(vec![]));
    assert_eq!(
        at.asked(),
        ["lstat d1/AGENTS.md", "lstat d1/agents.MD", "list d1"]
    );
    assert!(folding.seen());
    // From then on a hit is listed without its twin.
    let found = names_in(&at, b"d2", &agents, &folding).unwrap();
    assert_eq!(found, Lookup::Names(vec![(0, FILE)]));
    assert_eq!(at.asked(), ["lstat d2/AGENTS.md", "list d2"]);
    // A miss is a miss under every spelling: nothing listed.
    let found = names_in(&at, b"d3", &agents, &folding).unwrap();
    assert_eq!(found, Lookup::Names(vec![]));
    assert_eq!(at.asked(), ["lstat d3/AGENTS.md"]);
}

#[test]
fn where_folding_is_the_rule_every_hit_is_listed_and_no_twin_asked() {
    let base = tree();
    let at = Folds::new(base.path(), case);
    // macOS's start.
    let folding = Folding::new(true);
    let looked_for = names(&["agents.md", "AGENTS.md"]);
    let found = names_in(&at, b"d2", &looked_for, &folding).unwrap();
    assert_eq!(found, Lookup::Names(vec![(1, FILE)]));
    assert_eq!(
        at.asked(),
        ["lstat d2/agents.md", "lstat d2/AGENTS.md", "list d2"]
    );
    let found = names_in(&at, b"d1", &looked_for, &folding).unwrap();
    assert_eq!(found, Lookup::Names(vec![(0, FILE)]));
}

#[test]
fn a_hit_on_a_case_sensitive_directory_is_trusted_after_its_twin() {
    let base = tree();
    let at = Folds::new(base.path(), exact);
    let folding = Folding::new(false);
    let found = names_in(&at, b"d2", &names(&["AGENTS.md"]), &folding).unwrap();
    assert_eq!(found, Lookup::Names(vec![(0, FILE)]));
    assert_eq!(at.asked(), ["lstat d2/AGENTS.md", "lstat d2/agents.MD"]);
    assert!(!folding.seen());
}

#[test]
fn a_name_that_normalisation_may_fold_is_confirmed_by_listing() {
    let base = tree();
    let at = Folds::new(base.path(), normalised);
    let folding = Folding::new(false);
    // `KIRO.md` finds `\u{212A}IRO.md`, and its twin `kiro.MD` finds nothing: only the
    // listing tells.
    let found = names_in(&at, b"d3", &names(&["KIRO.md"]), &folding).unwrap();
    assert_eq!(found, Lookup::Names(vec![]));
    assert_eq!(at.asked(), ["lstat d3/KIRO.md", "list d3"]);
    let found = names_in(&at, b"d3", &names(&["\u{212A}IRO.md"]), &folding).unwrap();
    assert_eq!(found, Lookup::Names(vec![(0, FILE)]));
}
