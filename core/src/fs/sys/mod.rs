//! The OS behind one surface, as std's `sys` and rustix's `backend` keep theirs: `unix/` (the
//! walker, with Linux's own calls and the portable ones every other Unix takes) and `windows/`.
//! Each answers the questions of [`Backend`], the OS's own way, for the OS ([`Os`]) and for the
//! OS beneath a root ([`ConfinedFs`]); a custom file system answers them too (`custom.rs`). A
//! chain asks them only through `Files`, and the rest of the crate never names a platform.

#[cfg(unix)]
mod unix;
#[cfg(windows)]
mod windows;

// Windows's confinement decided from a link's text, without I/O: tested on every platform.
#[cfg(all(test, not(windows)))]
#[path = "windows/reparse.rs"]
mod reparse;

#[cfg(unix)]
pub(crate) use unix::{is_not_a_directory, Os};
#[cfg(unix)]
pub use unix::{ConfinedFs, OsFs};
#[cfg(windows)]
pub(crate) use windows::{is_not_a_directory, Os};
#[cfg(windows)]
pub use windows::{ConfinedFs, OsFs};

use std::ffi::OsString;
use std::io::{self, Read};

use super::{Kind, Lookup};
use crate::error::Error;
use crate::path::FsName;

/// The questions a chain asks of the file system it reads (`Files`), each answered by the OS,
/// the OS beneath a root, or a custom file system. Names are below the file system's
/// [`Backend::base`]; "not found" ([`io::ErrorKind::NotFound`]) says that a name leads nowhere.
pub(crate) trait Backend {
    /// The OS path the names are below (`/`, or a confined root); `None` for a custom file
    /// system, whose names are the paths.
    fn base(&self) -> Option<&[u8]>;

    /// Whether this is the OS beneath a root ([`Backend::base`]).
    fn confined(&self) -> bool {
        false
    }

    /// The chain's error for a failure `error` to `op` the name whose path is `path`: the OS's
    /// is an `Io` error, the confined OS's one that also says an escape ([`Error::confined`]).
    fn error(&self, op: &str, path: &[u8], error: io::Error) -> Error {
        match self.confined() {
            true => Error::confined(op, path, error),
            false => Error::io(op, path, error),
        }
    }

    /// What `name` is, following links: a link leading out of a confined root is
    /// [`Kind::Escapes`].
    fn stat(&self, name: &FsName) -> io::Result<Kind>;

    /// What the OS's `stat(2)` answers for `name`, an overlay directory: only "not found"
    /// (`ENOENT`) is "not found", and a link leading out of a confined root is
    /// [`Kind::Escapes`].
    fn stat_exactly(&self, name: &FsName) -> io::Result<Kind>;

    /// What `name` is as a name its directory holds (a fragment directory, SPEC.md §5.8): a
    /// name that exists and leads nowhere is [`Kind::Other`]; `None` where there is none.
    fn entry(&self, name: &FsName) -> Result<Option<Kind>, Error>;

    /// The names the directory `dir` lists.
    fn list(&self, dir: &FsName) -> io::Result<Vec<OsString>>;

    /// What the directory `dir` holds under `names`, each looked up, with the answer its
    /// listing gives (SPEC.md §1); `None` where the directory is to be listed and the names it
    /// lists stat'ed, as a custom file system is asked.
    fn lookup(&self, dir: &FsName, names: &[Vec<u8>]) -> Option<Result<Lookup, Error>>;

    /// The file `name`, opened to read; `size` is what its stat reported, if it was asked.
    fn open(&self, name: &FsName, size: Option<u64>) -> io::Result<Box<dyn Read + '_>>;
}
