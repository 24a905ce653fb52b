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
    let list = |dir| {
        let names = found(fs.list(dir))?;
        Ok(names.map(|names| names.into_iter().map(Listed::name).collect()))
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
    let read = |name| match found(fs.stat(name))? {
        Some(Entry::File { size }) => match found(fs.open(name))? {
            Some(mut file) => read_bounded(&mut *file, size, limit).map(Some),
            None => Ok(None),
        },
        _ => Ok(None),
    };
    names.iter().map(read).collect()
}

/// An answer, `None` for "not found".
fn found<T>(answer: io::Result<T>) -> io::Result<Option<T>> {
    match answer {
        Ok(answer) => Ok(Some(answer)),
        Err(error) if error.kind() == io::ErrorKind::NotFound => Ok(None),
        Err(error) => Err(error),
    }
}
