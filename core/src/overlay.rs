//! Seed 003's per-caller overlay directory (SPEC §5.3).

use std::path::{Path, PathBuf};

use crate::error::{quoted, Error};
use crate::path::{self, Syntax};

/// The per-caller overlay directory `USERS_DIR/IDENTITY/.agents` (SPEC §5.3); `Ok(None)` when
/// either argument is empty. An identity that names no caller's directory is an
/// [`InvalidArgument`](crate::ErrorKind::InvalidArgument) error naming the `caller identity`.
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
    let written = Syntax::OS.with_sep(path::bytes(&dir), Syntax::OS.sep());
    Ok(Some(path::into_path_buf(written)))
}
