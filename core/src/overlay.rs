//! Overlays (SPEC.md §5.3): the per-caller overlay directory of seed 003.

use std::path::{Path, PathBuf};

use crate::error::{quoted, Error};
use crate::path;

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
    let users_dir = path::bytes(users_dir.as_ref());
    let identity = path::bytes(identity.as_ref());
    if users_dir.is_empty() || identity.is_empty() {
        return Ok(None);
    }
    let refused: Option<&[u8]> = if identity == b"." {
        Some(b": is '.', the users directory itself rather than a caller's")
    } else if identity.iter().any(|&b| matches!(b, b'/' | b'\\' | 0))
        || identity.windows(2).any(|pair| pair == b"..")
    {
        Some(b": holds '/', '\\', NUL or '..', which could lead out of the users directory")
    } else {
        None
    };
    if let Some(why) = refused {
        let message = [&b"caller identity "[..], &quoted(identity), why].concat();
        return Err(Error::invalid_argument(message));
    }
    let mut dir = users_dir.to_vec();
    for element in [identity, b".agents"] {
        if !dir.ends_with(b"/") {
            dir.push(b'/');
        }
        dir.extend_from_slice(element);
    }
    Ok(Some(path::to_path_buf(&dir)))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::error::ErrorKind;

    #[test]
    fn the_overlay_is_users_dir_identity_dot_agents() {
        let dir = |users: &[u8], id: &[u8]| {
            let dir = overlay_dir(path::to_path_buf(users), path::to_path_buf(id)).unwrap();
            dir.map(|d| path::bytes(&d).to_vec())
        };
        assert_eq!(dir(b"/u", b"ada").as_deref(), Some(&b"/u/ada/.agents"[..]));
        assert_eq!(dir(b"/u/", b"a.b").as_deref(), Some(&b"/u/a.b/.agents"[..]));
        assert_eq!(dir(b"u", b"\xff").as_deref(), Some(&b"u/\xff/.agents"[..]));
    }

    #[test]
    fn either_argument_empty_means_no_overlay() {
        assert_eq!(overlay_dir("", "ada").unwrap(), None);
        assert_eq!(overlay_dir("/u", "").unwrap(), None);
        assert_eq!(overlay_dir("", "../x").unwrap(), None);
    }

    #[test]
    fn a_caller_identity_that_is_dot_or_traverses_is_an_invalid_argument() {
        for id in [&b"."[..], b"a/b", b"a\\b", b"a\0b", b"..", b"a..b", b"x.."] {
            let error = overlay_dir("/u", path::to_path_buf(id)).unwrap_err();
            assert_eq!(error.kind(), ErrorKind::InvalidArgument);
            assert!(error.to_string().contains("caller identity"), "{error}");
        }
    }
}
