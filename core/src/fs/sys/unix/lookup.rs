//! The OS's answer to the walk's question about one directory, shared by [`OsFs`](super::OsFs)
//! and [`ConfinedFs`](super::ConfinedFs): each name looked up directly (`fstatat` without
//! following, then with following for a link), never by listing a directory of thousands of
//! entries. A lookup finds an entry under any spelling the file system takes for its name, and
//! SPEC.md §1 counts a name only under the spelling its directory lists; so a directory is
//! listed where a hit cannot be trusted to be that spelling:
//! - where names fold ([`Folding`]): every hit of a chain on macOS, whose file systems fold case
//!   by default (APFS, HFS+) and normalise Unicode even where they do not; elsewhere, a hit
//!   whose case-swapped twin is the same entry (the directory folds case, as ext4's and tmpfs's
//!   casefold, XFS's ascii-ci, vfat or SMB do), and from that directory on, every hit of the
//!   chain;
//! - a hit whose twin cannot tell: a name with no ASCII letter to swap, with a byte beyond ASCII,
//!   or with one of `K`, `;` and `` ` ``, which a character beyond ASCII normalises to (the
//!   Kelvin sign, the Greek question mark and varia: ZFS's `normalization=formD` finds
//!   `KIRO.md` for an entry `\u{212A}IRO.md`);
//! - a name whose lookup failed for another reason than "not found" (a name too long, a
//!   directory that may be listed but not searched): the listing decides, and an error on a
//!   name it lists is the chain's error.
//!
//! The answer is the listing walk's, byte for byte, on every file system.

use std::collections::HashSet;
use std::ffi::OsString;
use std::io;
use std::sync::atomic::{AtomicBool, Ordering};

use rustix::fs::{FileType, Stat};
use rustix::io::Errno;

use crate::error::Error;
use crate::fs::{not_found, Entry, Kind, Lookup};
use crate::path::join;

/// Where the names of one directory are looked up: by absolute path, or beneath a confined
/// root. Paths are `/`-separated, never empty.
pub(super) trait At {
    /// `fstatat` of `path`, not following a final link.
    fn lstat(&self, path: &[u8]) -> Result<Stat, Errno>;
    /// `fstatat` of `path`, following links.
    fn stat(&self, path: &[u8]) -> Result<Stat, Errno>;
    /// The names the directory `dir` lists.
    fn list(&self, dir: &[u8]) -> Result<Vec<OsString>, Errno>;
    /// The OS path of `path`, for messages.
    fn os_path(&self, path: &[u8]) -> Vec<u8>;
}

/// Whether an errno means the name leads nowhere: it does not exist, or a link on the way loops
/// or runs through a non-directory (SPEC.md §1). For an open after the lookup found the name,
/// where which of the two an `ENOTDIR` is no longer matters: the name is gone.
pub(super) fn leads_nowhere(errno: Errno) -> bool {
    errno == Errno::NOENT || errno == Errno::LOOP || errno == Errno::NOTDIR
}

/// Whether the errno of resolving `path` from `at` means it leads nowhere. An `ENOTDIR` does
/// only when a symbolic link on the way loops or runs through a non-directory; a non-directory
/// the path names as a directory (`file/x`, or a link to a file used as one) is an error
/// (SPEC.md §1, "Paths"). The first element on the way that is no directory tells: it fails to
/// resolve (`ELOOP`, `ENOTDIR`), or it resolves to a file. Asked only on that error.
pub(super) fn leads_nowhere_at(at: &impl At, path: &[u8], errno: Errno) -> bool {
    if errno != Errno::NOTDIR {
        return leads_nowhere(errno);
    }
    let ends = path
        .iter()
        .enumerate()
        .filter(|&(i, &b)| b == b'/' && i > 0);
    for end in ends.map(|(i, _)| i).chain([path.len()]) {
        match at.stat(&path[..end]) {
            Ok(stat) if FileType::from_raw_mode(stat.st_mode) == FileType::Directory => {}
            Err(Errno::LOOP | Errno::NOTDIR) => return true,
            _ => return false,
        }
    }
    false
}

/// The error of resolving `path` from `at` that failed with `errno`, as a [`FileSystem`] answers
/// it: "not found" where the path leads nowhere.
///
/// [`FileSystem`]: crate::fs::FileSystem
pub(super) fn nowhere_or(at: &impl At, path: &[u8], errno: Errno) -> io::Error {
    match leads_nowhere_at(at, path, errno) {
        true => not_found(),
        false => errno.into(),
    }
}

/// What a stat says an entry is.
pub(super) fn entry_of(stat: &Stat) -> Entry {
    match FileType::from_raw_mode(stat.st_mode) {
        FileType::RegularFile => Entry::File {
            size: stat.st_size as u64,
        },
        FileType::Directory => Entry::Dir,
        _ => Entry::Other,
    }
}

/// Whether a chain has met names that fold: from then on every hit is confirmed by listing its
/// directory, without asking its twin first. It lasts for a chain (it is held by `Anchors` and
/// `ConfinedFs`), since a directory that folds is seldom alone (ext4's casefold is inherited by
/// the directories made below it), and it starts set on macOS, where folding is the rule.
#[derive(Debug)]
pub(super) struct Folding(AtomicBool);

impl Default for Folding {
    fn default() -> Self {
        Self::new(cfg!(target_os = "macos"))
    }
}

impl Folding {
    /// A chain's state: `seen` where names are known to fold from the start.
    pub(super) fn new(seen: bool) -> Self {
        Self(AtomicBool::new(seen))
    }

    fn seen(&self) -> bool {
        self.0.load(Ordering::Relaxed)
    }

    fn see(&self) {
        self.0.store(true, Ordering::Relaxed);
    }
}

/// What the directory `dir` holds under `names`, for a chain whose state is `folding`.
pub(super) fn names_in(
    at: &impl At,
    dir: &[u8],
    names: &[Vec<u8>],
    folding: &Folding,
) -> Result<Lookup, Error> {
    let mut found = Vec::new();
    // The names whose lookup needs the listing, with its errno, in the order of the names.
    let mut failed = Vec::new();
    let mut needs_listing = false;
    for (index, name) in names.iter().enumerate() {
        let path = join(dir, name);
        match at.lstat(&path) {
            Ok(stat) => {
                found.push((index, follow(at, &path, &stat)?));
                needs_listing = needs_listing || folds(at, folding, dir, name, &stat);
            }
            Err(Errno::XDEV) => return Ok(Lookup::Escapes),
            Err(errno) if leads_nowhere_at(at, &path, errno) => {}
            Err(errno) => {
                needs_listing = true;
                failed.push((index, errno));
            }
        }
    }
    if !needs_listing {
        return Ok(Lookup::Names(found));
    }
    let listed = match at.list(dir) {
        Ok(listed) => listed,
        Err(errno) if leads_nowhere_at(at, dir, errno) => return Ok(Lookup::Missing),
        Err(errno) => return Err(Error::io("list", &at.os_path(dir), errno.into())),
    };
    let listed: HashSet<&[u8]> = listed.iter().map(|name| name.as_encoded_bytes()).collect();
    let lists = |index: usize| listed.contains(&names[index][..]);
    if let Some(&(index, errno)) = failed.iter().find(|(index, _)| lists(*index)) {
        let path = at.os_path(&join(dir, &names[index]));
        return Err(Error::io("stat", &path, errno.into()));
    }
    found.retain(|(index, _)| lists(*index));
    Ok(Lookup::Names(found))
}

/// What the entry at `path`, whose own stat is `stat`, is after following it, when it is a link.
fn follow(at: &impl At, path: &[u8], stat: &Stat) -> Result<Kind, Error> {
    if FileType::from_raw_mode(stat.st_mode) != FileType::Symlink {
        return Ok(entry_of(stat).into());
    }
    match at.stat(path) {
        Ok(target) => Ok(entry_of(&target).into()),
        Err(Errno::XDEV) => Ok(Kind::Escapes),
        Err(errno) if leads_nowhere(errno) => Ok(Kind::Other),
        Err(errno) => Err(Error::io("stat", &at.os_path(path), errno.into())),
    }
}

/// What `path` is, as a name its directory holds (a fragment directory `D/F`, SPEC.md §5.8):
/// told as [`follow`] tells a name of a lookup, so that a name that exists and leads nowhere (a
/// link that dangles, loops or runs through a non-directory) is [`Kind::Other`]; `None` where
/// there is no such name, a link on the way to it leading nowhere. "Not found", the common
/// answer, costs one call.
pub(super) fn entry(at: &impl At, path: &[u8]) -> Result<Option<Kind>, Error> {
    match at.lstat(path) {
        Ok(stat) => follow(at, path, &stat).map(Some),
        Err(Errno::XDEV) => Ok(Some(Kind::Escapes)),
        Err(errno) if leads_nowhere_at(at, path, errno) => Ok(None),
        Err(errno) => Err(Error::io("stat", &at.os_path(path), errno.into())),
    }
}

/// Whether the hit `name` in `dir`, whose own stat is `stat`, may have been found under another
/// spelling: the chain has met folding, its twin cannot tell, or its case-swapped twin is the
/// same entry (the chain has met folding now).
fn folds(at: &impl At, folding: &Folding, dir: &[u8], name: &[u8], stat: &Stat) -> bool {
    if folding.seen() || !twin_tells(name) {
        return true;
    }
    let twin: Vec<u8> = name
        .iter()
        .map(|b| match b.is_ascii_lowercase() {
            true => b.to_ascii_uppercase(),
            false => b.to_ascii_lowercase(),
        })
        .collect();
    let same = match at.lstat(&join(dir, &twin)) {
        Ok(other) => (other.st_dev, other.st_ino) == (stat.st_dev, stat.st_ino),
        Err(_) => false,
    };
    if same {
        folding.see();
    }
    same
}

/// Whether the case-swapped twin of `name` tells if its directory folds it: it has an ASCII
/// letter to swap, and every byte is one that no character beyond ASCII normalises to.
fn twin_tells(name: &[u8]) -> bool {
    name.iter().any(u8::is_ascii_alphabetic)
        && name.iter().all(|&b| b.is_ascii() && !b"K;`".contains(&b))
}

#[cfg(test)]
#[path = "../../../../tests/unit/fs_lookup.rs"]
mod tests;
