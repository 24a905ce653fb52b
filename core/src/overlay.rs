//! Overlays (SPEC.md §5.3): the overlay directories, each one more directory of the walk after
//! the whole walk, and the per-caller overlay directory of seed 003.

use std::io;
use std::path::{Path, PathBuf};

use crate::chain::{Collector, Source};
use crate::error::{quoted, Error};
use crate::fs::{Files, Kind, Lookup};
use crate::path::{self, Syntax};

impl Collector<'_> {
    /// The overlay directory `overlay` (absolute and clean), read from `files`: the confined
    /// root's for an overlay inside it, so that it is confined as the walk is (its file, its
    /// fragments and its imports), otherwise the OS's. Only "not found" skips it: a link that
    /// loops or a path through a file is the host's mistake, said rather than taken for an
    /// overlay that is not there.
    pub(crate) fn overlay(&mut self, files: &Files, overlay: &Path) -> Result<(), Error> {
        let bytes = path::bytes(overlay);
        let dir = files.name_of(bytes);
        let lookup = match files.stat_exactly(&dir)? {
            Ok(Kind::Dir) => files.lookup(&dir, self.names)?,
            // Confined, a link that leads out of root: as a directory of the walk that does.
            Ok(Kind::Escapes) => Lookup::Escapes,
            Ok(_) => {
                let message = [&b"overlay "[..], bytes, b": not a directory"].concat();
                return Err(Error::invalid_argument(message));
            }
            Err(error) if error.kind() == io::ErrorKind::NotFound => Lookup::Missing,
            Err(error) => return Err(Error::io("stat", bytes, error)),
        };
        self.directory(files, &dir, lookup, bytes, Source::Overlay, None)
    }
}

/// The per-caller overlay directory `USERS_DIR/IDENTITY/.agents`, to give as an overlay.
/// `Ok(None)` when either argument is empty: there is no overlay, and that is no error.
///
/// An identity that is `.`, or holds `/`, `\`, a NUL byte or `..` anywhere, is refused with an
/// [`InvalidArgument`](crate::ErrorKind::InvalidArgument) error whose message contains
/// `caller identity`: it names no caller's directory of `users_dir` (`.` is `users_dir` itself),
/// or could lead out of it.
///
/// ```
/// use std::path::Path;
/// assert_eq!(
///     agentsmd_core::overlay_dir("/srv/users", "ada").unwrap().as_deref(),
///     Some(Path::new("/srv/users/ada/.agents"))
/// );
/// assert_eq!(agentsmd_core::overlay_dir("", "ada").unwrap(), None);
/// assert!(agentsmd_core::overlay_dir("/srv/users", "../etc").is_err());
/// ```
pub fn overlay_dir(
    users_dir: impl AsRef<Path>,
    identity: impl AsRef<Path>,
) -> Result<Option<PathBuf>, Error> {
    let (users_dir, identity_path) = (users_dir.as_ref(), identity.as_ref());
    let identity = path::bytes(identity_path);
    if users_dir.as_os_str().is_empty() || identity.is_empty() {
        return Ok(None);
    }
    let refused: Option<&[u8]> = if identity == b"." {
        Some(b": is '.', the users directory itself rather than a caller's")
    } else if identity.iter().any(|&b| matches!(b, b'/' | b'\\' | 0))
        || identity.windows(2).any(|pair| pair == b"..")
    {
        Some(b": holds '/', '\\', NUL or '..', which could lead out of the users directory")
    } else if !path::is_element(identity) {
        Some(b": not a name Windows opens as named (SPEC.md \xc2\xa78.2)")
    } else {
        None
    };
    if let Some(why) = refused {
        let message = [&b"caller identity "[..], &quoted(identity), why].concat();
        return Err(Error::invalid_argument(message));
    }
    let dir = users_dir.join(identity_path).join(".agents");
    // Written with the OS's separator, as every OS path the library returns (SPEC.md §8.2).
    let written = path::bytes(&dir)
        .iter()
        .map(|&b| match Syntax::OS.is_sep(b) {
            true => Syntax::OS.sep(),
            false => b,
        })
        .collect();
    Ok(Some(path::into_path_buf(written)))
}
