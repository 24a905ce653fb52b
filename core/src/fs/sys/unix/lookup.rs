//! How the OS file systems answer, each name looked up by `fstatat` rather than by listing a
//! directory of thousands. SPEC.md §1 counts a name only as its directory lists it: so the
//! directory is listed where a hit may be another spelling's ([`folds`]) or a lookup failed.

use std::collections::HashSet;
use std::ffi::OsString;
use std::io;
use std::sync::atomic::{AtomicBool, Ordering};

use rustix::fs::{FileType, Stat};
use rustix::io::Errno;

use crate::error::Error;
use crate::fs::{not_found, Kind, Lookup};
use crate::path::join;

/// Where names are looked up: from an anchor, or beneath a confined root.
pub(super) trait At {
    fn lstat(&self, path: &[u8]) -> Result<Stat, Errno>;
    fn stat(&self, path: &[u8]) -> Result<Stat, Errno>;
    fn list(&self, dir: &[u8]) -> Result<Vec<OsString>, Errno>;
    /// The OS path of `path`, for messages.
    fn os_path(&self, path: &[u8]) -> Vec<u8>;
}

/// Whether an errno means the name leads nowhere (SPEC.md §1), any `ENOTDIR` taken for it.
pub(super) fn leads_nowhere(errno: Errno) -> bool {
    errno == Errno::NOENT || errno == Errno::LOOP || errno == Errno::NOTDIR
}

/// Whether the errno of resolving `path` from `at` means it leads nowhere. An `ENOTDIR` does
/// only where a link on the way loops or runs through a non-directory, not where the path names
/// a file as a directory (SPEC.md §1, "Paths"): the first element that is no directory tells.
pub(super) fn leads_nowhere_at(at: &impl At, path: &[u8], errno: Errno) -> bool {
    if errno != Errno::NOTDIR {
        return leads_nowhere(errno);
    }
    let ends = (1..path.len()).filter(|&i| path[i] == b'/');
    for end in ends.chain([path.len()]) {
        match at.stat(&path[..end]) {
            Ok(stat) if FileType::from_raw_mode(stat.st_mode) == FileType::Directory => {}
            Err(Errno::LOOP | Errno::NOTDIR) => return true,
            _ => return false,
        }
    }
    false
}

/// `errno` of resolving `path` from `at`, "not found" where the path leads nowhere.
fn nowhere_or(at: &impl At, path: &[u8], errno: Errno) -> io::Error {
    match leads_nowhere_at(at, path, errno) {
        true => not_found(),
        false => errno.into(),
    }
}

pub(super) fn kind_of(stat: &Stat) -> Kind {
    match FileType::from_raw_mode(stat.st_mode) {
        FileType::RegularFile => Kind::File {
            size: stat.st_size as u64,
        },
        FileType::Directory => Kind::Dir,
        _ => Kind::Other,
    }
}

/// What `path` is, following links: [`Kind::Escapes`] where it leads out of a confined root.
pub(super) fn kind(at: &impl At, path: &[u8]) -> Result<Kind, Errno> {
    match at.stat(path) {
        Ok(stat) => Ok(kind_of(&stat)),
        Err(Errno::XDEV) => Ok(Kind::Escapes),
        Err(errno) => Err(errno),
    }
}

/// [`kind`], "not found" where `path` leads nowhere.
pub(super) fn stat(at: &impl At, path: &[u8]) -> io::Result<Kind> {
    kind(at, path).map_err(|errno| nowhere_or(at, path, errno))
}

/// The names the directory `dir` lists; "not found" where it leads nowhere.
pub(super) fn list(at: &impl At, dir: &[u8]) -> io::Result<Vec<OsString>> {
    at.list(dir).map_err(|errno| nowhere_or(at, dir, errno))
}

/// Whether a chain has met names that fold: from then on every hit is listed, since such a
/// directory is seldom alone (ext4's casefold is inherited). Set from the start on macOS.
#[derive(Debug)]
pub(super) struct Folding(AtomicBool);

impl Default for Folding {
    fn default() -> Self {
        Self::new(cfg!(target_os = "macos"))
    }
}

impl Folding {
    pub(super) fn new(seen: bool) -> Self {
        Self(AtomicBool::new(seen))
    }

    fn seen(&self) -> bool {
        self.0.load(Ordering::Relaxed)
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
        return Ok(kind_of(stat));
    }
    match kind(at, path) {
        Ok(kind) => Ok(kind),
        Err(errno) if leads_nowhere(errno) => Ok(Kind::Other),
        Err(errno) => Err(Error::io("stat", &at.os_path(path), errno.into())),
    }
}

/// Whether `path` is a symbolic link; "not found" is none.
pub(super) fn is_link(at: &impl At, path: &[u8]) -> Result<bool, Error> {
    match at.lstat(path) {
        Ok(stat) => Ok(FileType::from_raw_mode(stat.st_mode) == FileType::Symlink),
        Err(errno) if leads_nowhere_at(at, path, errno) || errno == Errno::XDEV => Ok(false),
        Err(errno) => Err(Error::io("stat", &at.os_path(path), errno.into())),
    }
}

/// What `path` is as a name its directory holds (SPEC.md §5.8); `None` where there is none.
pub(super) fn entry(at: &impl At, path: &[u8]) -> Result<Option<Kind>, Error> {
    match at.lstat(path) {
        Ok(stat) => follow(at, path, &stat).map(Some),
        Err(Errno::XDEV) => Ok(Some(Kind::Escapes)),
        Err(errno) if leads_nowhere_at(at, path, errno) => Ok(None),
        Err(errno) => Err(Error::io("stat", &at.os_path(path), errno.into())),
    }
}

/// Whether the hit `name` in `dir`, whose own stat is `stat`, may be another spelling's: the
/// chain has met folding, or its case-swapped twin cannot tell or is the same entry.
fn folds(at: &impl At, folding: &Folding, dir: &[u8], name: &[u8], stat: &Stat) -> bool {
    // The twin tells where it has a letter swapped, and no byte that a character beyond ASCII
    // normalises to (ZFS's formD finds `KIRO.md` for `\u{212A}`).
    let twin_tells = name.iter().any(u8::is_ascii_alphabetic)
        && name.iter().all(|&b| b.is_ascii() && !b"K;`".contains(&b));
    if folding.seen() || !twin_tells {
        return true;
    }
    let twin: Vec<u8> = name
        .iter()
        .map(|b| match b.is_ascii_lowercase() {
            true => b.to_ascii_uppercase(),
            false => b.to_ascii_lowercase(),
        })
        .collect();
    let same = at
        .lstat(&join(dir, &twin))
        .is_ok_and(|other| (other.st_dev, other.st_ino) == (stat.st_dev, stat.st_ino));
    if same {
        folding.0.store(true, Ordering::Relaxed);
    }
    same
}

#[cfg(test)]
#[path = "../../../../tests/unit/fs_lookup.rs"]
mod tests;
