//! The OS walk under confinement (`Options::confine`): the root opened as the host gave it, and
//! every directory, name and file below it resolved beneath it (see `os_beneath`), so that
//! nothing outside the root is opened, stat'ed through a link or read. What leads out is
//! reported rather than followed: [`Entry::Escapes`] for an instruction file,
//! [`Level::Escapes`] for a directory of the walk, whose files are then not looked up.
//!
//! The answers are otherwise the plain OS walk's: the same names, found the same way (a hit
//! confirmed by a listing where the file system may fold case), the same errors.

use std::ffi::CString;
use std::io;

use super::os::{c_names, names_in_by};
use super::os_beneath;
use super::os_dir::{self, Access, Dir, Looked};
use super::{Found, Metadata};
use crate::error::Error;
use crate::path;

/// A name of a directory of the walk, as the confined walk found it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum Entry {
    /// A regular file, inside the root.
    File(Found),
    /// A symbolic link (at this path) that leads out of the root: not followed.
    Escapes(Vec<u8>),
}

/// A directory of the walk, as the confined walk found it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum Level {
    /// It does not exist (nor does any below it).
    Missing,
    /// It is reached through a symbolic link that leads out of the root (at this path): it was
    /// not opened, and the directories below it were not looked into.
    Escapes(Vec<u8>),
    /// Its names, in the order of `names`.
    Entries(Vec<Entry>),
}

/// What a path below the root is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Resolved {
    /// Inside the root: what a stat of it reports.
    Inside(Metadata),
    /// Nothing: it does not exist.
    Missing,
    /// It leads out of the root through a symbolic link: what it is there was not asked.
    Escapes,
}

/// The root of a confined walk, open.
pub(crate) struct Confined {
    root: Vec<u8>,
    /// `None` when the root does not exist: then nothing below it does.
    dir: Option<Dir>,
}

impl Confined {
    /// Opens `root` (absolute and clean), following links in it: the host chose it.
    pub(crate) fn open(root: &[u8]) -> Result<Self, Error> {
        let dir = Dir::open_path(root, Access::Read).map_err(|e| Error::io("list", root, &e))?;
        Ok(Self {
            root: root.to_vec(),
            dir,
        })
    }

    /// `path` (the root or below it) relative to the root; `.` for the root itself.
    fn below<'a>(&self, path: &'a [u8]) -> &'a [u8] {
        if path == self.root {
            return b".";
        }
        let skip = if self.root == path::OS_ROOT {
            1
        } else {
            self.root.len() + 1
        };
        &path[skip..]
    }

    /// What `path` (the root or below it) is, following only links that stay inside the root.
    pub(crate) fn stat(&self, path: &[u8]) -> Result<Resolved, Error> {
        let Some(dir) = &self.dir else {
            return Ok(Resolved::Missing);
        };
        let below = self.below(path);
        match os_beneath::stat(dir.fd(), below) {
            Ok(stat) => Ok(Resolved::Inside(stat.metadata())),
            Err(err) if err.kind() == io::ErrorKind::NotFound => Ok(Resolved::Missing),
            Err(err) if os_beneath::escapes(&err) => Ok(Resolved::Escapes),
            // A link on the way that leads nowhere: as the plain walk (`os_dir::stat_path`).
            Err(err)
                if os_dir::leads_nowhere(&err)
                    && os_dir::through_link_to_nowhere(below, 0, |prefix| {
                        os_beneath::stat(dir.fd(), prefix)
                    }) =>
            {
                Ok(Resolved::Missing)
            }
            Err(err) => Err(Error::io("stat", path, &err)),
        }
    }

    /// For each directory of `dirs` (the root first, each the parent of the next), its names of
    /// `names`, as [`FileSystem::lookup`](super::FileSystem::lookup) finds them, with what leads
    /// out of the root reported instead of followed.
    pub(crate) fn lookup(&self, dirs: &[&[u8]], names: &[Vec<u8>]) -> Result<Vec<Level>, Error> {
        let c_names = c_names(names)?;
        let mut levels = Vec::with_capacity(dirs.len());
        // Set once a directory is missing or leads out: nothing below it is looked into.
        let mut stopped = false;
        for dir in dirs {
            let Some(root) = self.dir.as_ref().filter(|_| !stopped) else {
                levels.push(Level::Missing);
                continue;
            };
            let level = self.level(root, dir, names, &c_names)?;
            stopped = !matches!(level, Level::Entries(_));
            levels.push(level);
        }
        Ok(levels)
    }

    /// One directory of [`Confined::lookup`], below the root open at `root`.
    fn level(
        &self,
        root: &Dir,
        dir: &[u8],
        names: &[Vec<u8>],
        c_names: &[CString],
    ) -> Result<Level, Error> {
        let opened;
        let open = if dir == self.root {
            root
        } else {
            let flags = os_dir::open_flags(Access::Read);
            match os_beneath::open(root.fd(), self.below(dir), flags) {
                Ok(fd) => {
                    opened = Dir::of(fd);
                    &opened
                }
                Err(err) if err.kind() == io::ErrorKind::NotFound => return Ok(Level::Missing),
                // Below a directory of the walk, only a link loops or runs through a
                // non-directory: it leads nowhere, and lists nothing.
                Err(err) if os_dir::leads_nowhere(&err) => return Ok(Level::Missing),
                Err(err) if os_beneath::escapes(&err) => return Ok(Level::Escapes(dir.to_vec())),
                Err(err) => return Err(Error::io("list", dir, &err)),
            }
        };
        let named = names_in_by(open, dir, names, c_names, None, |index, name| {
            self.look(root, open, &path::join(dir, &names[index]), name)
        })?;
        let entries = named
            .into_iter()
            .filter_map(|named| {
                let file = path::join(dir, &names[named.index]);
                if named.looked.escapes {
                    return Some(Entry::Escapes(file));
                }
                named
                    .file_size()
                    .map(|size| Entry::File(Found { path: file, size }))
            })
            .collect();
        Ok(Level::Entries(entries))
    }

    /// Looks the name `name` of the directory `dir` (at `file`) up without listing the
    /// directory, as `Dir::look` does, but follows a link only beneath the root open at `root`.
    fn look(
        &self,
        root: &Dir,
        dir: &Dir,
        file: &[u8],
        name: &CString,
    ) -> io::Result<Option<Looked>> {
        dir.look_following(name, || {
            let (stat, escapes) = match os_beneath::stat(root.fd(), self.below(file)) {
                Ok(stat) => (Some(stat), false),
                Err(err)
                    if err.kind() == io::ErrorKind::NotFound || os_dir::leads_nowhere(&err) =>
                {
                    (None, false)
                }
                Err(err) if os_beneath::escapes(&err) => (None, true),
                Err(err) => return Err(err),
            };
            Ok(Looked {
                link: true,
                stat,
                escapes,
            })
        })
    }

    /// The bytes of the regular file at `path` (below the root), at most `limit` of them,
    /// opened beneath the root; `None` when not found. A path that leads out of the root now,
    /// though the lookup found it inside (a link swapped in during the walk), is an `Io` error
    /// naming it, and nothing is read.
    pub(crate) fn read(&self, path: &[u8], limit: u64) -> Result<Option<Vec<u8>>, Error> {
        let Some(dir) = &self.dir else {
            return Ok(None);
        };
        let fd = match os_beneath::open(dir.fd(), self.below(path), os_dir::READ_FLAGS) {
            Ok(fd) => fd,
            Err(err) if err.kind() == io::ErrorKind::NotFound => return Ok(None),
            Err(err) if os_beneath::escapes(&err) => {
                return Err(Error::escapes("open", path, &self.root))
            }
            Err(err) => return Err(Error::io("open", path, &err)),
        };
        os_dir::read_open(fd, limit)
            .map(|read| Some(read.content))
            .map_err(|e| Error::io(e.op, path, &e.err))
    }
}
