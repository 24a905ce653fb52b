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
use std::ffi::{CStr, CString};

use rustix::fs::{FileType, Stat};
use rustix::io::Errno;

use super::{Entry, Lookup};
use crate::error::Error;

/// Where the names of one directory are looked up: relative to an open directory, or beneath a
/// confined root. Names are relative, `/`-separated, never empty.
pub(super) trait At {
    /// `fstatat` of `name`, not following a final link.
    fn lstat(&self, name: &CStr) -> Result<Stat, Errno>;
    /// `fstatat` of `name`, following links.
    fn stat(&self, name: &CStr) -> Result<Stat, Errno>;
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
        let Ok(prefix) = CString::new(&path[..end]) else {
            return false;
        };
        match at.stat(&prefix) {
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

/// `bytes`, which end in their one NUL, as the C string a system call takes, without the copy
/// rustix makes of a byte slice. (No name or path the walk builds holds a NUL.)
pub(super) fn c_str(bytes: &[u8]) -> Result<&CStr, Errno> {
    CStr::from_bytes_with_nul(bytes).map_err(|_| Errno::INVAL)
}

/// Writes `name` and a NUL after the directory whose name is `path[from..]` (empty for the
/// directory looked up from), with a `/` between them where one is needed.
pub(super) fn push_name(path: &mut Vec<u8>, from: usize, name: &[u8]) {
    if path.len() > from && !path.ends_with(b"/") {
        path.push(b'/');
    }
    path.extend_from_slice(name);
    path.push(0);
}

/// What the directory whose name relative to `at` is `path[from..]` (empty: `at` itself) holds
/// under `names`. `path` is a buffer the walk reuses from one directory to the next: each name
/// is written after the directory's, and the directory's is left as it was, so that a walk
/// builds its names without an allocation or a copy of the directory per name.
pub(super) fn names_in(
    at: &impl At,
    path: &mut Vec<u8>,
    from: usize,
    names: &[Vec<u8>],
) -> Result<Lookup, Error> {
    let dir_end = path.len();
    let mut found = Vec::new();
    // The names whose lookup needs the listing, with its errno, in the order of the names.
    let mut failed: Vec<(usize, Errno)> = Vec::new();
    let mut needs_listing = false;
    for (index, name) in names.iter().enumerate() {
        path.truncate(dir_end);
        push_name(path, from, name);
        let named = &mut path[from..];
        match c_str(named).and_then(|name| at.lstat(name)) {
            Ok(stat) => {
                let entry = follow(at, named, &stat)?;
                needs_listing |= folds(at, named, name.len(), (stat.st_dev, stat.st_ino));
                found.push((index, entry));
            }
            // Not found, by far the most common answer: no question more.
            Err(Errno::NOENT) => {}
            Err(errno) if errno == Errno::XDEV => return Ok(Lookup::Escapes),
            Err(errno) if leads_nowhere_at(at, &named[..named.len() - 1], errno) => {}
            Err(errno) => {
                needs_listing = true;
                failed.push((index, errno));
            }
        }
    }
    path.truncate(dir_end);
    if !needs_listing {
        return Ok(Lookup::Names(found));
    }
    let dir = match &path[from..] {
        b"" => b".".to_vec(),
        dir => dir.to_vec(),
    };
    let listed = match at.list(&dir) {
        Ok(listed) => listed,
        Err(errno) if leads_nowhere_at(at, &dir, errno) => return Ok(Lookup::Missing),
        Err(errno) => return Err(Error::io("list", &at.os_path(&dir), errno.into())),
    };
    let listed: HashSet<&[u8]> = listed.iter().map(Vec::as_slice).collect();
    let lists = |index: usize| listed.contains(names[index].as_slice());
    if let Some(&(index, errno)) = failed.iter().find(|(index, _)| lists(*index)) {
        return Err(Error::io(
            "stat",
            &at.os_path(&join(&dir, &names[index])),
            errno.into(),
        ));
    }
    found.retain(|(index, _)| lists(*index));
    Ok(Lookup::Names(found))
}

/// What an entry whose own stat is `stat` is after following it, when it is a link; `path` is
/// its name, NUL-terminated.
fn follow(at: &impl At, path: &[u8], stat: &Stat) -> Result<Entry, Error> {
    if FileType::from_raw_mode(stat.st_mode) != FileType::Symlink {
        return Ok(entry_of(stat));
    }
    match c_str(path).and_then(|name| at.stat(name)) {
        Ok(target) => Ok(entry_of(&target)),
        Err(errno) if errno == Errno::XDEV => Ok(Entry::Escapes),
        Err(errno) if leads_nowhere(errno) => Ok(Entry::Other),
        Err(errno) => {
            let path = &path[..path.len() - 1];
            Err(Error::io("stat", &at.os_path(path), errno.into()))
        }
    }
}

/// Whether the hit at `path` (NUL-terminated), whose last `name_len` bytes before the NUL are
/// its name, may have been found under another spelling: its case-swapped twin is the same
/// entry, or it has no twin to tell by. The twin is looked up by swapping the name's case in
/// `path` itself.
fn folds(at: &impl At, path: &mut [u8], name_len: usize, identity: (u64, u64)) -> bool {
    let end = path.len() - 1;
    let name = &mut path[end - name_len..end];
    if !name.is_ascii() || !name.iter().any(u8::is_ascii_alphabetic) {
        return true;
    }
    for b in name.iter_mut() {
        *b = if b.is_ascii_lowercase() {
            b.to_ascii_uppercase()
        } else {
            b.to_ascii_lowercase()
        };
    }
    match c_str(path).and_then(|twin| at.lstat(twin)) {
        Ok(stat) => (stat.st_dev, stat.st_ino) == identity,
        Err(_) => false,
    }
}
