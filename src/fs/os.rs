//! The OS file system, and its answer to the walk's one question: each directory of the chain
//! opened relative to the one above it, and each name looked up directly, so that a chain costs
//! one `openat`, one `fstatat` per name and one `close` per directory however many entries the
//! directories hold. A directory is listed only to confirm a hit where the file system may fold
//! case (see [`super::os_fstype`]), or to tell whether a name whose lookup failed is listed at
//! all; the answer is the listing walk's ([`super::lookup_by_listing`]), byte for byte.

use std::collections::HashSet;
use std::ffi::CString;
use std::io;

use super::os_dir::{self, c_string, Access, Dir, Looked, What};
use super::os_fstype;
use super::{FileSystem, Found, Metadata};
use crate::error::Error;
use crate::path;

/// The OS file system. Paths are absolute and clean; names are compared byte for byte, so
/// exact spelling holds on a case-insensitive host too.
#[derive(Clone, Copy, Debug, Default)]
pub struct OsFs;

/// The last element of a clean absolute path (empty for `/`).
pub(crate) fn base(dir: &[u8]) -> &[u8] {
    let slash = dir.iter().rposition(|&b| b == b'/').map_or(0, |at| at + 1);
    &dir[slash..]
}

/// `names` as the OS takes them. Each was checked to be one path element, so none holds NUL.
pub(crate) fn c_names(names: &[Vec<u8>]) -> Result<Vec<CString>, Error> {
    names
        .iter()
        .map(|name| c_string(name).map_err(|e| Error::io("stat", name, &e)))
        .collect()
}

/// A name of `names` that a directory lists under exactly that spelling, and what it is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Named {
    /// The index of the name in `names`.
    pub(crate) index: usize,
    /// What the entry is, and whether it is a link.
    pub(crate) looked: Looked,
}

impl Named {
    /// The size, when the entry is a regular file (after following a link): an instruction file.
    pub(crate) fn file_size(&self) -> Option<u64> {
        self.looked
            .stat
            .filter(|stat| stat.what == What::File)
            .map(|stat| stat.size)
    }
}

/// The entries of `dir` (at `dir_path`) named one of `names` that are regular files or links,
/// in `names` order: what the listing walk would find there. `magic` is the directory's file
/// system type when the caller already asked for it (`None`: ask only if a hit needs it).
///
/// A miss is a miss on any file system. A hit stands without a listing only where the
/// directory compares names byte for byte; elsewhere, and for a name whose lookup failed (a
/// name too long, a directory that may be listed but not searched), the listing decides, as in
/// the listing walk: a name it does not list is no entry, and an error on one it lists is the
/// chain's error.
pub(crate) fn names_in(
    dir: &Dir,
    dir_path: &[u8],
    names: &[Vec<u8>],
    c_names: &[CString],
    magic: Option<Option<u64>>,
) -> Result<Vec<Named>, Error> {
    names_in_by(dir, dir_path, names, c_names, magic, |_, name| {
        dir.look(name)
    })
}

/// [`names_in`], with each name looked up in `dir` by `look`, given its index in `names` (the
/// confined walk resolves links beneath its root instead of following them anywhere).
pub(crate) fn names_in_by(
    dir: &Dir,
    dir_path: &[u8],
    names: &[Vec<u8>],
    c_names: &[CString],
    magic: Option<Option<u64>>,
    mut look: impl FnMut(usize, &CString) -> io::Result<Option<Looked>>,
) -> Result<Vec<Named>, Error> {
    let mut answers: Vec<(usize, io::Result<Looked>)> = Vec::new();
    for (index, name) in c_names.iter().enumerate() {
        match look(index, name) {
            Ok(None) => {}
            // A directory, FIFO or socket is no instruction file whatever its spelling.
            Ok(Some(looked)) if !looked.link && looked.stat.map(|s| s.what) != Some(What::File) => {
            }
            Ok(Some(looked)) => answers.push((index, Ok(looked))),
            Err(err) => answers.push((index, Err(err))),
        }
    }
    let confirm = answers.iter().any(|(_, answer)| answer.is_err())
        || (!answers.is_empty()
            && !os_fstype::exact_names(
                dir,
                magic.unwrap_or_else(|| os_fstype::magic_of(dir.fd())),
            ));
    if confirm {
        let listed = dir
            .listing(dir_path)
            .map_err(|e| Error::io("list", dir_path, &e))?;
        let listed: HashSet<&[u8]> = listed.iter().map(Vec::as_slice).collect();
        answers.retain(|(index, _)| listed.contains(names[*index].as_slice()));
    }
    answers
        .into_iter()
        .map(|(index, answer)| {
            answer
                .map(|looked| Named { index, looked })
                .map_err(|e| Error::io("stat", &path::join(dir_path, &names[index]), &e))
        })
        .collect()
}

impl FileSystem for OsFs {
    fn list(&self, dir: &[u8]) -> Result<Option<Vec<Vec<u8>>>, Error> {
        let fail = |err: &io::Error| Error::io("list", dir, err);
        let Some(opened) = Dir::open_path(dir, Access::Read).map_err(|e| fail(&e))? else {
            return Ok(None);
        };
        opened.listing(dir).map(Some).map_err(|e| fail(&e))
    }

    fn stat(&self, path: &[u8]) -> Result<Option<Metadata>, Error> {
        let stat = os_dir::stat_path(path, true).map_err(|e| Error::io("stat", path, &e))?;
        Ok(stat.map(|stat| stat.metadata()))
    }

    fn read(&self, path: &[u8], _size_hint: u64, limit: u64) -> Result<Option<Vec<u8>>, Error> {
        // The open file's own stat sizes the buffer: fresher than the hint.
        let read = os_dir::read_file(path, limit).map_err(|e| Error::io(e.op, path, &e.err))?;
        Ok(read.map(|read| read.content))
    }

    fn lookup(&self, dirs: &[&[u8]], names: &[Vec<u8>]) -> Result<Vec<Option<Vec<Found>>>, Error> {
        let c_names = c_names(names)?;
        let mut found = Vec::with_capacity(dirs.len());
        // The directory above, open: each one is opened relative to it, so that a deep path is
        // not resolved from `/` again at every level. `None` once one does not exist: nothing
        // below it does either.
        let mut above: Option<Dir> = None;
        for (level, dir) in dirs.iter().enumerate() {
            let opened = match (level, &above) {
                (0, _) => Dir::open_path(dir, Access::Read),
                (_, Some(parent)) => c_string(base(dir))
                    .and_then(|name| parent.open_child(&name, Access::Read))
                    .map(|opened| opened.dir),
                (_, None) => Ok(None),
            };
            above = opened.map_err(|e| Error::io("list", dir, &e))?;
            let Some(open) = &above else {
                found.push(None);
                continue;
            };
            let files = names_in(open, dir, names, &c_names, None)?
                .into_iter()
                .filter_map(|named| {
                    named.file_size().map(|size| Found {
                        path: path::join(dir, &names[named.index]),
                        size,
                    })
                })
                .collect();
            found.push(Some(files));
        }
        Ok(found)
    }
}
