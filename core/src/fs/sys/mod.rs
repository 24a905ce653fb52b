//! The OS behind one surface, as std's `sys` keeps it: `unix/` and `windows/` each answer the
//! questions of [`Backend`] for the OS ([`Os`]) and the OS beneath a root ([`ConfinedFs`]).

#[cfg(unix)]
mod unix;
#[cfg(unix)]
use unix as os;
#[cfg(windows)]
mod windows;
#[cfg(windows)]
use windows as os;

// Windows's confinement decided from a link's text, without I/O: tested on every platform.
#[cfg(all(test, not(windows)))]
#[path = "windows/reparse.rs"]
mod reparse;

pub(crate) use os::{is_not_a_directory, Os};
pub use os::{ConfinedFs, OsFs};

use std::ffi::OsString;
use std::io::{self, Read};

use super::{Entry, FileSystem, Kind, Lookup};
use crate::error::Error;
use crate::path::FsName;

/// The questions a chain asks of the file system it reads (`Files`): the OS, the OS beneath a
/// root, or a custom one (`custom.rs`). Names are below [`Backend::base`]; "not found" says
/// that a name leads nowhere.
pub(crate) trait Backend {
    /// The OS path the names are below (`/`, or a confined root); `None` for a custom file
    /// system, whose names are the paths.
    fn base(&self) -> Option<&[u8]>;

    /// Whether this is the OS beneath a root ([`Backend::base`]).
    fn confined(&self) -> bool {
        false
    }

    /// The chain's error for a failure to `op` the name at `path` ([`Error::confined`] where
    /// confined).
    fn error(&self, op: &str, path: &[u8], error: io::Error) -> Error {
        match self.confined() {
            true => Error::confined(op, path, error),
            false => Error::io(op, path, error),
        }
    }

    /// What `name` is, following links (a link out of a confined root: [`Kind::Escapes`]).
    fn stat(&self, name: &FsName) -> io::Result<Kind>;

    /// What `stat(2)` answers for `name`, an overlay directory: only `ENOENT` is "not found".
    fn stat_exactly(&self, name: &FsName) -> io::Result<Kind>;

    /// What `name` is as a name its directory holds (a fragment directory, SPEC.md §5.8): a
    /// name that exists and leads nowhere is [`Kind::Other`]; `None` where there is none.
    fn entry(&self, name: &FsName) -> Result<Option<Kind>, Error>;

    /// Whether `name` is a symbolic link, not followed (a link to a directory in a rule
    /// directory is not entered, SPEC §11); a custom file system has none.
    fn is_link(&self, _name: &FsName) -> Result<bool, Error> {
        Ok(false)
    }

    /// The names the directory `dir` lists.
    fn list(&self, dir: &FsName) -> io::Result<Vec<OsString>>;

    /// What the directory `dir` holds under `names`, each looked up, as its listing would say
    /// (SPEC §1); `None` where it is to be listed and its names stat'ed (a custom file system).
    fn lookup(&self, dir: &FsName, names: &[Vec<u8>]) -> Option<Result<Lookup, Error>>;

    /// The file `name`, opened to read; `size` is what its stat reported, if it was asked.
    fn open(&self, name: &FsName, size: Option<u64>) -> io::Result<Box<dyn Read + '_>>;
}

/// The confined OS as a caller of the trait asks it: as a chain does.
impl FileSystem for ConfinedFs {
    fn list(&self, dir: &FsName) -> io::Result<Vec<OsString>> {
        Backend::list(self, dir)
    }

    fn stat(&self, name: &FsName) -> io::Result<Entry> {
        Backend::stat(self, name).map(Kind::entry)
    }

    fn open(&self, name: &FsName) -> io::Result<Box<dyn Read + '_>> {
        Backend::open(self, name, None)
    }
}
