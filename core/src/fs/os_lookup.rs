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
use std::ops::Range;

use rustix::fs::{FileType, Stat};
use rustix::io::Errno;

use super::{Dirs, Entry, Lookup};
use crate::error::{quoted, Error};

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
///
/// Inlined into every lookup: "not found", the answer to most of a walk's calls, is told
/// without a call; only `ENOTDIR` walks the path.
#[inline]
pub(super) fn leads_nowhere_at(at: &impl At, path: &[u8], errno: Errno) -> bool {
    match errno {
        Errno::NOTDIR => runs_through_a_link(at, path),
        errno => leads_nowhere(errno),
    }
}

/// For a path that names a non-directory as a directory (`ENOTDIR`): whether that is a link on
/// the way that loops or runs through a non-directory, rather than a file named as a directory.
#[cold]
fn runs_through_a_link(at: &impl At, path: &[u8]) -> bool {
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

/// Bytes that hold no NUL, checked once where they enter a lookup: the pieces a [`CPath`] is
/// built of.
#[derive(Clone, Copy)]
pub(super) struct NulFree<'a>(&'a [u8]);

impl<'a> NulFree<'a> {
    pub(super) const SLASH: NulFree<'static> = NulFree(b"/");

    pub(super) fn len(self) -> usize {
        self.0.len()
    }

    /// `bytes`, when no byte of them is a NUL.
    pub(super) fn new(bytes: &'a [u8]) -> Option<Self> {
        memchr::memchr(0, bytes).is_none().then_some(Self(bytes))
    }

    /// The deepest directory's name of `dirs`: every directory's is a prefix of it, so that
    /// one check serves them all ([`CPath::push_dir`]).
    pub(super) fn deepest(dirs: &Dirs<'a>) -> Result<Self, Error> {
        let deepest = dirs
            .len()
            .checked_sub(1)
            .map_or(&b""[..], |i| dirs.bytes(i));
        Self::new(deepest).ok_or_else(|| {
            Error::invalid_argument(
                [&quoted(deepest)[..], b": a name cannot hold a NUL byte"].concat(),
            )
        })
    }
}

/// The names of a lookup, checked for a NUL once for all its directories rather than once per
/// directory. A name that holds one (no chain asks for it: the chain checks its names) is
/// checked again where it is used, and refused there as it would be by the kernel's interface.
pub(super) struct Names<'a> {
    names: &'a [Vec<u8>],
    nul_free: bool,
}

impl<'a> Names<'a> {
    pub(super) fn new(names: &'a [Vec<u8>]) -> Self {
        let nul_free = names.iter().all(|name| NulFree::new(name).is_some());
        Self { names, nul_free }
    }

    /// How many names.
    pub(super) fn len(&self) -> usize {
        self.names.len()
    }

    /// The length of the longest name.
    pub(super) fn longest(&self) -> usize {
        self.names.iter().map(Vec::len).max().unwrap_or(0)
    }

    /// The name at `index`, checked (`EINVAL` for one that holds a NUL, as the kernel's
    /// interface refuses it).
    pub(super) fn get(&self, index: usize) -> Result<NulFree<'a>, Errno> {
        let name = &self.names[index];
        match self.nul_free {
            true => Ok(NulFree(name)),
            false => NulFree::new(name).ok_or(Errno::INVAL),
        }
    }
}

/// The C string of each name a lookup hands the kernel: a directory's path, a name in it and a
/// NUL, in one buffer that the lookup reuses from one name and one directory to the next. It is
/// built only of [`NulFree`] pieces, `/` and case swaps of ASCII letters, and its one NUL is
/// put last by [`CPath::c_str`], so its C string is made without a scan of its bytes (which
/// `CStr::from_bytes_with_nul`, or rustix given a byte slice, makes on every call: a fifth of a
/// deep chain's user space).
pub(super) struct CPath {
    /// No NUL, but the last byte when `terminated`.
    bytes: Vec<u8>,
    terminated: bool,
}

impl CPath {
    pub(super) fn with_capacity(capacity: usize) -> Self {
        Self {
            bytes: Vec::with_capacity(capacity),
            terminated: false,
        }
    }

    /// The path, without its NUL.
    pub(super) fn as_bytes(&self) -> &[u8] {
        match self.terminated {
            true => &self.bytes[..self.bytes.len() - 1],
            false => &self.bytes,
        }
    }

    pub(super) fn len(&self) -> usize {
        self.as_bytes().len()
    }

    /// Takes the path back to its first `len` bytes.
    pub(super) fn truncate(&mut self, len: usize) {
        let len = len.min(self.len());
        self.bytes.truncate(len);
        self.terminated = false;
    }

    /// Takes the NUL off, before a write.
    fn unterminate(&mut self) {
        if self.terminated {
            self.bytes.pop();
            self.terminated = false;
        }
    }

    pub(super) fn push(&mut self, piece: NulFree) {
        self.unterminate();
        self.bytes.extend_from_slice(piece.0);
    }

    /// Writes the name `dir` of a directory of the walk, whose deepest directory's name is
    /// `deepest` ([`NulFree::deepest`]): its prefix as long as `dir`, nothing for the root `.`.
    pub(super) fn push_dir(&mut self, deepest: NulFree, dir: &[u8]) {
        if dir != b"." {
            self.push(NulFree(&deepest.0[..dir.len()]));
        }
    }

    /// Writes `name` after the directory whose name is the path from `from` on (empty for the
    /// directory looked up from), with a `/` between them where one is needed.
    pub(super) fn push_name(&mut self, from: usize, name: NulFree) {
        self.unterminate();
        if self.bytes.len() > from && self.bytes.last() != Some(&b'/') {
            self.bytes.push(b'/');
        }
        self.bytes.extend_from_slice(name.0);
    }

    /// Swaps the case of each ASCII letter in `range`, a letter for a letter.
    fn swap_case(&mut self, range: Range<usize>) {
        let end = self.len();
        for b in &mut self.bytes[range.start.min(end)..range.end.min(end)] {
            if b.is_ascii_lowercase() {
                *b = b.to_ascii_uppercase();
            } else if b.is_ascii_uppercase() {
                *b = b.to_ascii_lowercase();
            }
        }
    }

    /// The path from `from` on, as the C string a system call takes.
    pub(super) fn c_str(&mut self, from: usize) -> &CStr {
        if !self.terminated {
            self.bytes.push(0);
            self.terminated = true;
        }
        let bytes = &self.bytes[from..];
        // SAFETY: `bytes` ends with the NUL just pushed (or pushed before, and kept since: every
        // method that writes takes it off first), and holds no other: every byte before it was
        // written by `push`, `push_dir` or `push_name`, of `NulFree` bytes (made only in this
        // module: checked by `NulFree::new`, `/`, or a prefix of checked bytes) or `/`, or
        // changed by `swap_case`, from an ASCII letter to an ASCII letter. A suffix of such bytes
        // is such bytes, which is what `from_bytes_with_nul_unchecked` requires.
        unsafe { CStr::from_bytes_with_nul_unchecked(bytes) }
    }
}

/// What the directory whose name relative to `at` is the path from `from` on (empty: `at`
/// itself) holds under `names`. `path` is a buffer the walk reuses from one directory to the
/// next: each name is written after the directory's, and the directory's is left as it was, so
/// that a walk builds its names without an allocation or a copy of the directory per name.
pub(super) fn names_in(
    at: &impl At,
    path: &mut CPath,
    from: usize,
    names: &Names,
) -> Result<Lookup, Error> {
    let dir_end = path.len();
    let mut found = Vec::new();
    // The names whose lookup needs the listing, with its errno, in the order of the names.
    let mut failed: Vec<(usize, Errno)> = Vec::new();
    let mut needs_listing = false;
    for index in 0..names.names.len() {
        path.truncate(dir_end);
        let looked_up = names.get(index).and_then(|name| {
            path.push_name(from, name);
            at.lstat(path.c_str(from))
        });
        match looked_up {
            Ok(stat) => {
                let entry = follow(at, path, from, &stat)?;
                let name_len = names.names[index].len();
                needs_listing |= folds(at, path, from, name_len, (stat.st_dev, stat.st_ino));
                found.push((index, entry));
            }
            // Not found, by far the most common answer: no question more.
            Err(Errno::NOENT) => {}
            Err(errno) if errno == Errno::XDEV => return Ok(Lookup::Escapes),
            Err(errno) if leads_nowhere_at(at, &path.as_bytes()[from..], errno) => {}
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
    let names = names.names;
    let dir = match &path.as_bytes()[from..] {
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

/// What an entry whose own stat is `stat` is after following it, when it is a link; its name is
/// the path from `from` on.
fn follow(at: &impl At, path: &mut CPath, from: usize, stat: &Stat) -> Result<Entry, Error> {
    if FileType::from_raw_mode(stat.st_mode) != FileType::Symlink {
        return Ok(entry_of(stat));
    }
    match at.stat(path.c_str(from)) {
        Ok(target) => Ok(entry_of(&target)),
        Err(errno) if errno == Errno::XDEV => Ok(Entry::Escapes),
        Err(errno) if leads_nowhere(errno) => Ok(Entry::Other),
        Err(errno) => Err(Error::io(
            "stat",
            &at.os_path(&path.as_bytes()[from..]),
            errno.into(),
        )),
    }
}

/// What `name` below the directory whose name is the path from `from` on is, as a name the
/// directory holds (a fragment directory `D/F`, SPEC.md §5.8): told as [`follow`] tells a name of
/// a lookup, so that a name that exists and leads nowhere (a link that dangles, loops or runs
/// through a non-directory) is [`Entry::Other`]; `None` where there is no such name, a link on
/// the way to it leading nowhere. "Not found", the common answer, costs one call. `path` is
/// left as it was.
pub(super) fn entry_below(
    at: &impl At,
    path: &mut CPath,
    from: usize,
    name: Result<NulFree, Errno>,
) -> Result<Option<Entry>, Error> {
    let dir_end = path.len();
    let looked_up = name.and_then(|name| {
        path.push_name(from, name);
        at.lstat(path.c_str(from))
    });
    let answer = match looked_up {
        Ok(stat) => follow(at, path, from, &stat).map(Some),
        Err(errno) if errno == Errno::XDEV => Ok(Some(Entry::Escapes)),
        Err(errno) if leads_nowhere_at(at, &path.as_bytes()[from..], errno) => Ok(None),
        Err(errno) => Err(Error::io(
            "stat",
            &at.os_path(&path.as_bytes()[from..]),
            errno.into(),
        )),
    };
    path.truncate(dir_end);
    answer
}

/// Whether the hit whose name is the path from `from` on, the last `name_len` bytes of it its
/// own name, may have been found under another spelling: its case-swapped twin is the same
/// entry, or it has no twin to tell by. The twin is looked up by swapping the name's case in
/// the path itself.
fn folds(
    at: &impl At,
    path: &mut CPath,
    from: usize,
    name_len: usize,
    identity: (u64, u64),
) -> bool {
    let end = path.len();
    let name = end - name_len..end;
    let spelled = &path.as_bytes()[name.clone()];
    if !spelled.is_ascii() || !spelled.iter().any(u8::is_ascii_alphabetic) {
        return true;
    }
    path.swap_case(name);
    match at.lstat(path.c_str(from)) {
        Ok(stat) => (stat.st_dev, stat.st_ino) == identity,
        Err(_) => false,
    }
}
