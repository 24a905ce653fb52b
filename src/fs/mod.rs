//! The file-system abstraction: the three questions of SPEC.md §3 (list a directory, stat a
//! name, read a file), and the one question the walk asks, [`FileSystem::lookup`], which has a
//! default answer built from the three.
//!
//! The walk calls `lookup` once, for every directory of the chain. Its default lists each
//! directory and stats the names it finds; an implementation that can answer more cheaply (the
//! OS, by opening each directory relative to its parent and looking each name up directly
//! instead of listing a directory of thousands of entries) overrides it, and the walk does not
//! change.

mod os;
mod os_beneath;
pub(crate) mod os_confined;
pub(crate) mod os_dir;
pub(crate) mod os_fstype;
pub(crate) mod os_watch;

pub use os::OsFs;
pub(crate) use os::{base, c_names, names_in, Named};
#[cfg(feature = "test-hooks")]
pub use os_beneath::{confine_by_walking, confines_with_openat2};
pub use os_dir::system_calls;
#[cfg(feature = "test-hooks")]
pub use os_fstype::assume_case_folding;

use std::collections::HashSet;

use crate::error::Error;
use crate::path;

/// What a name is, after following symbolic links.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    /// A regular file: the only kind that can be an instruction file.
    File,
    /// A directory.
    Dir,
    /// Anything else: a FIFO, a socket, a device.
    Other,
}

/// What a stat reports.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Metadata {
    /// The kind of the entry.
    pub kind: Kind,
    /// The size the file system reports, in bytes.
    pub size: u64,
}

/// A regular file `lookup` found in a directory under one of the names looked for.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Found {
    /// The file's path: the directory joined with the name.
    pub path: Vec<u8>,
    /// The size the file system reports.
    pub size: u64,
}

/// A file system the walk reads. Paths are bytes: absolute OS paths for [`OsFs`], and names
/// valid as SPEC.md §1 defines (`.` for the root) for a custom file system.
///
/// `Ok(None)` answers "not found", which alone means "no such file or directory"; every other
/// failure is an `Err` that ends the chain. Implementations are shared between threads.
pub trait FileSystem: Send + Sync {
    /// The names `dir` lists, as bytes, in any order.
    fn list(&self, dir: &[u8]) -> Result<Option<Vec<Vec<u8>>>, Error>;

    /// What `path` is, following symbolic links.
    fn stat(&self, path: &[u8]) -> Result<Option<Metadata>, Error>;

    /// The bytes of the file at `path`, at most `limit` of them. `size_hint` is the size a stat
    /// reported, for sizing the buffer; the bytes read may differ from it.
    fn read(&self, path: &[u8], size_hint: u64, limit: u64) -> Result<Option<Vec<u8>>, Error>;

    /// For each directory of `dirs` (from the root down, each the parent of the next), the
    /// regular files whose names are, byte for byte, one of `names`, in the order of `names`;
    /// `None` for a directory that does not exist, and for every one below it, which is not
    /// asked. An entry that is no regular file (a directory, a FIFO, a dangling link) is left
    /// out.
    ///
    /// The default lists each directory and stats the names it finds there. The walk asks for
    /// all directories at once so that an implementation can resolve each one relative to the
    /// one before it rather than from the root.
    fn lookup(&self, dirs: &[&[u8]], names: &[Vec<u8>]) -> Result<Vec<Option<Vec<Found>>>, Error> {
        let mut found: Vec<Option<Vec<Found>>> = Vec::with_capacity(dirs.len());
        for dir in dirs {
            // Nothing exists below a directory that does not.
            let files = match found.last() {
                Some(None) => None,
                _ => lookup_by_listing(self, dir, names)?,
            };
            found.push(files);
        }
        Ok(found)
    }
}

/// One directory of [`FileSystem::lookup`]'s default: the listing, then a stat per name it
/// holds. Public so that a faster `lookup` can be checked against it.
pub fn lookup_by_listing<F: FileSystem + ?Sized>(
    fs: &F,
    dir: &[u8],
    names: &[Vec<u8>],
) -> Result<Option<Vec<Found>>, Error> {
    let Some(listed) = fs.list(dir)? else {
        return Ok(None);
    };
    let listed: HashSet<&[u8]> = listed.iter().map(Vec::as_slice).collect();
    let mut found = Vec::new();
    for name in names.iter().filter(|name| listed.contains(name.as_slice())) {
        let file = path::join(dir, name);
        if let Some(Metadata {
            kind: Kind::File,
            size,
        }) = fs.stat(&file)?
        {
            found.push(Found { path: file, size });
        }
    }
    Ok(Some(found))
}
