//! The batched questions of a file system ([`BatchFileSystem`], SPEC §3.1), and their default
//! bodies: each asked one name at a time.

use std::ffi::OsString;
use std::io;

#[cfg(doc)]
use super::BatchFileSystem;
use super::{read_bounded, Entry, FileSystem};
use crate::path::FsName;

/// Which questions a file system answers in batches ([`BatchFileSystem::batches`]).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Batches {
    /// [`BatchFileSystem::list_many`]: many directories listed in one call.
    pub lists: bool,
    /// [`BatchFileSystem::read_many`]: many files read in one call.
    pub reads: bool,
}

/// One name a directory lists, with what it is where the listing says
/// ([`BatchFileSystem::list_many`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Listed {
    /// The name: one path element.
    pub name: OsString,
    /// What the name is, following links, as [`FileSystem::stat`] would answer; `None` where the
    /// listing does not say (a symbolic link, or a listing of names only).
    pub entry: Option<Entry>,
}

impl Listed {
    /// A name whose listing does not say what it is.
    pub fn name(name: impl Into<OsString>) -> Self {
        Self {
            name: name.into(),
            entry: None,
        }
    }
}

/// [`BatchFileSystem::list_many`] asked one directory at a time.
pub(super) fn list_each<F: FileSystem + ?Sized>(
    fs: &F,
    dirs: &[FsName],
) -> io::Result<Vec<Option<Vec<Listed>>>> {
    let list = |dir| match fs.list(dir) {
        Ok(names) => Ok(Some(names.into_iter().map(Listed::name).collect())),
        Err(error) if error.kind() == io::ErrorKind::NotFound => Ok(None),
        Err(error) => Err(error),
    };
    dirs.iter().map(list).collect()
}

/// [`BatchFileSystem::read_many`] asked one file at a time, as the walk reads one: opened only
/// when its stat says it is a regular file (a FIFO is never opened, to block).
pub(super) fn read_each<F: FileSystem + ?Sized>(
    fs: &F,
    names: &[FsName],
    limit: u64,
) -> io::Result<Vec<Option<Vec<u8>>>> {
    let read = |name| {
        let size = match fs.stat(name) {
            Ok(Entry::File { size }) => size,
            Ok(_) => return Ok(None),
            Err(error) if error.kind() == io::ErrorKind::NotFound => return Ok(None),
            Err(error) => return Err(error),
        };
        match fs.open(name) {
            Ok(mut file) => read_bounded(&mut *file, size, limit).map(Some),
            Err(error) if error.kind() == io::ErrorKind::NotFound => Ok(None),
            Err(error) => Err(error),
        }
    };
    names.iter().map(read).collect()
}
