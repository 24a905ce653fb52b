//! Overlays (SPEC.md §5.3): the per-caller overlay directory of seed 003.

use crate::error::{display, Error};
use crate::path;

/// The per-caller overlay directory `USERS_DIR/IDENTITY/.agents`, to give as an overlay.
/// `Ok(None)` when either argument is empty: there is no overlay, and that is no error.
///
/// An identity holding `/`, `\`, a NUL byte or `..` anywhere is refused with an
/// [`InvalidArgument`](crate::ErrorKind::InvalidArgument) error whose message contains
/// `caller identity`: it could lead out of `users_dir`.
///
/// ```
/// assert_eq!(
///     agentsmd::overlay_dir(b"/srv/users", b"ada").unwrap().as_deref(),
///     Some(&b"/srv/users/ada/.agents"[..])
/// );
/// assert_eq!(agentsmd::overlay_dir(b"", b"ada").unwrap(), None);
/// assert!(agentsmd::overlay_dir(b"/srv/users", b"../etc").is_err());
/// ```
pub fn overlay_dir(users_dir: &[u8], identity: &[u8]) -> Result<Option<Vec<u8>>, Error> {
    if users_dir.is_empty() || identity.is_empty() {
        return Ok(None);
    }
    let traverses = identity.iter().any(|&b| matches!(b, b'/' | b'\\' | 0))
        || identity.windows(2).any(|pair| pair == b"..");
    if traverses {
        return Err(Error::invalid_argument(format!(
            "caller identity {:?}: holds '/', '\\', NUL or '..', which could lead out of the users directory",
            display(identity)
        )));
    }
    Ok(Some(path::join(
        &path::join(users_dir, identity),
        b".agents",
    )))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::error::ErrorKind;

    #[test]
    fn the_overlay_is_users_dir_identity_dot_agents() {
        let dir = |users: &[u8], id: &[u8]| overlay_dir(users, id).unwrap();
        assert_eq!(dir(b"/u", b"ada").as_deref(), Some(&b"/u/ada/.agents"[..]));
        assert_eq!(dir(b"/u/", b"a.b").as_deref(), Some(&b"/u/a.b/.agents"[..]));
        assert_eq!(dir(b"u", b"\xff").as_deref(), Some(&b"u/\xff/.agents"[..]));
    }

    #[test]
    fn either_argument_empty_means_no_overlay() {
        assert_eq!(overlay_dir(b"", b"ada").unwrap(), None);
        assert_eq!(overlay_dir(b"/u", b"").unwrap(), None);
        assert_eq!(overlay_dir(b"", b"../x").unwrap(), None);
    }

    #[test]
    fn a_traversing_caller_identity_is_an_invalid_argument() {
        for id in [&b"a/b"[..], b"a\\b", b"a\0b", b"..", b"a..b", b"x.."] {
            let error = overlay_dir(b"/u", id).unwrap_err();
            assert_eq!(error.kind(), ErrorKind::InvalidArgument);
            assert!(error.message().contains("caller identity"), "{error}");
        }
    }
}
