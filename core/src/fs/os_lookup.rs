//! The OS's answer to the walk's question for one directory, shared by [`OsFs`](super::OsFs)
//! and [`ConfinedFs`](super::ConfinedFs): each name looked up directly (`fstatat` without
//! following, then with following for a link), never by listing a directory of thousands of
//! entries. A directory is listed only where a lookup cannot be trusted to mean "the directory
//! lists exactly this spelling":
//! - a hit whose case-swapped twin is the same file (the directory folds case, as ext4's
//!   casefold, XFS's ascii-ci, vfat, SMB or macOS volumes do), or whose name has no ASCII letter
//!   to swap or a byte beyond ASCII (normalisation may fold it);
//! - a name whose lookup failed for another reason than "not found" (a name too long, a
//!   directory that may be listed but not searched): the listing decides, and an error on a
//!   name it lists is the chain's error.
//!
//! The answer is the listing walk's, byte for byte, on every file system.

use std::collections::HashSet;

use rustix::fs::{FileType, Stat};
use rustix::io::Errno;

use super::{Entry, Lookup};
use crate::error::Error;

/// Where the names of one directory are looked up: relative to an open directory, or beneath a
/// confined root. Names are relative, `/`-separated, never empty.
pub(super) trait At {
    /// `fstatat` of `name`, not following a final link.
    fn lstat(&self, name: &[u8]) -> Result<Stat, Errno>;
    /// `fstatat` of `name`, following links.
    fn stat(&self, name: &[u8]) -> Result<Stat, Errno>;
    /// The names `dir` lists.
    fn list(&self, dir: &[u8]) -> Result<Vec<Vec<u8>>, Errno>;
    /// The OS path of `name`, for messages.
    fn os_path(&self, name: &[u8]) -> Vec<u8>;
}

/// Whether an errno means the name leads nowhere: it does not exist, or a link on the way loops
/// or runs through a non-directory (SPEC.md §1). For an open after the lookup found the name,
/// where which of the two an `ENOTDIR` is no longer matters: the name is gone.
pub(super) fn leads_nowhere(errno: Errno) -> bool {
    errno == Errno::NOENT || errno == Errno::LOOP || errno == Errno::NOTDIR
}

/// Whether the errno of resolving `path` (relative to `at`) means it leads nowhere. An
/// `ENOTDIR` does only when a symbolic link on the way loops or runs through a non-directory;
/// a non-directory the path names as a directory (`file/x`, or a link to a file used as one) is
/// an error (SPEC.md §1, "Paths": only "not found", or a link on the way that loops or runs
/// through a non-directory, means "does not exist"). The first element on the way that is no
/// directory tells: it fails to resolve (`ELOOP`, `ENOTDIR`), or it resolves to a file. Asked
/// only on that error, element by element.
pub(super) fn leads_nowhere_at(at: &impl At, path: &[u8], errno: Errno) -> bool {
    if errno != Errno::NOTDIR {
        return leads_nowhere(errno);
    }
    let ends = path
        .iter()
        .enumerate()
        .filter(|&(i, &b)| b == b'/' && i > 0)
        .map(|(i, _)| i);
    for end in ends.chain([path.len()]) {
        match at.stat(&path[..end]) {
            Ok(stat) if FileType::from_raw_mode(stat.st_mode) == FileType::Directory => {}
            Err(Errno::LOOP | Errno::NOTDIR) => return true,
            _ => return false,
        }
    }
    false
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

/// `dir` joined with `name`; `dir` empty for the directory `At` itself.
pub(super) fn join(dir: &[u8], name: &[u8]) -> Vec<u8> {
    if dir.is_empty() || dir == b"." {
        return name.to_vec();
    }
    let mut path = Vec::with_capacity(dir.len() + 1 + name.len());
    path.extend_from_slice(dir);
    if !dir.ends_with(b"/") {
        path.push(b'/');
    }
    path.extend_from_slice(name);
    path
}

/// A name the directory may hold, before the listing has a say.
struct Candidate {
    index: usize,
    /// `Ok(entry, identity)` or the errno of a lookup that needs the listing.
    answer: Result<(Entry, (u64, u64)), Errno>,
}

/// What `dir` holds under `names`.
pub(super) fn names_in(at: &impl At, dir: &[u8], names: &[Vec<u8>]) -> Result<Lookup, Error> {
    let mut candidates = Vec::new();
    let mut needs_listing = false;
    for (index, name) in names.iter().enumerate() {
        let path = join(dir, name);
        let answer = match at.lstat(&path) {
            Ok(stat) => Ok((follow(at, &path, &stat)?, (stat.st_dev, stat.st_ino))),
            Err(errno) if errno == Errno::XDEV => return Ok(Lookup::Escapes),
            Err(errno) if leads_nowhere_at(at, &path, errno) => continue,
            Err(errno) => Err(errno),
        };
        needs_listing |= match &answer {
            Ok((_, identity)) => folds(at, &path, dir, name, *identity),
            Err(_) => true,
        };
        candidates.push(Candidate { index, answer });
    }
    if !needs_listing {
        return Ok(Lookup::Names(
            candidates
                .into_iter()
                .filter_map(|c| c.answer.ok().map(|(entry, _)| (c.index, entry)))
                .collect(),
        ));
    }
    let listed = match at.list(dir) {
        Ok(listed) => listed,
        Err(errno) if leads_nowhere_at(at, dir, errno) => return Ok(Lookup::Missing),
        Err(errno) => return Err(Error::io("list", &at.os_path(dir), errno.into())),
    };
    let listed: HashSet<&[u8]> = listed.iter().map(Vec::as_slice).collect();
    let mut found = Vec::new();
    for candidate in candidates {
        let name = &names[candidate.index];
        if !listed.contains(name.as_slice()) {
            continue;
        }
        match candidate.answer {
            Ok((entry, _)) => found.push((candidate.index, entry)),
            Err(errno) => {
                return Err(Error::io(
                    "stat",
                    &at.os_path(&join(dir, name)),
                    errno.into(),
                ))
            }
        }
    }
    Ok(Lookup::Names(found))
}

/// What an entry whose own stat is `stat` is after following it, when it is a link.
fn follow(at: &impl At, path: &[u8], stat: &Stat) -> Result<Entry, Error> {
    if FileType::from_raw_mode(stat.st_mode) != FileType::Symlink {
        return Ok(entry_of(stat));
    }
    match at.stat(path) {
        Ok(target) => Ok(entry_of(&target)),
        Err(errno) if errno == Errno::XDEV => Ok(Entry::Escapes),
        Err(errno) if leads_nowhere(errno) => Ok(Entry::Other),
        Err(errno) => Err(Error::io("stat", &at.os_path(path), errno.into())),
    }
}

/// Whether the hit `name` in `dir` may have been found under another spelling: its case-swapped
/// twin is the same entry, or it has no twin to tell by.
fn folds(at: &impl At, path: &[u8], dir: &[u8], name: &[u8], identity: (u64, u64)) -> bool {
    let twin: Vec<u8> = name
        .iter()
        .map(|&b| {
            if b.is_ascii_lowercase() {
                b.to_ascii_uppercase()
            } else {
                b.to_ascii_lowercase()
            }
        })
        .collect();
    if twin == name || !name.is_ascii() {
        return true;
    }
    debug_assert_eq!(path, join(dir, name));
    match at.lstat(&join(dir, &twin)) {
        Ok(stat) => (stat.st_dev, stat.st_ino) == identity,
        Err(_) => false,
    }
}
