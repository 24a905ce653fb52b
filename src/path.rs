//! Paths as bytes: the lexical rules of SPEC.md §1 "Paths", for OS paths and for names in a
//! custom file system alike.
//!
//! Both kinds of path share one shape: `/`-separated elements below a root, which is `/` for the
//! OS and `.` for a custom file system. Nothing here touches a file system, and no symbolic link
//! is ever resolved: `..` removes the element before it as text.

use crate::error::{display, Error};

/// The OS file system's root.
pub const OS_ROOT: &[u8] = b"/";
/// A custom file system's root.
pub const FS_ROOT: &[u8] = b".";

/// Makes an OS path absolute against `cwd` and cleans it lexically: no empty, `.` or `..`
/// element is left, and `..` at the root stays at the root, as the OS resolves it.
pub fn os_clean(path: &[u8], cwd: &[u8]) -> Vec<u8> {
    let base: &[u8] = if path.starts_with(b"/") { b"" } else { cwd };
    let mut elements: Vec<&[u8]> = Vec::new();
    for element in base.split(|&b| b == b'/').chain(path.split(|&b| b == b'/')) {
        match element {
            b"" | b"." => {}
            b".." => {
                elements.pop();
            }
            _ => elements.push(element),
        }
    }
    let mut clean = Vec::with_capacity(path.len() + 1);
    for element in &elements {
        clean.push(b'/');
        clean.extend_from_slice(element);
    }
    if clean.is_empty() {
        clean.push(b'/');
    }
    clean
}

/// Checks a name of a custom file system as Go's `fs.ValidPath` does: unrooted,
/// `/`-separated, no empty, `.` or `..` element, and `.` alone for the root. `what` names the
/// argument in the error.
pub fn check_fs_name(name: &[u8], what: &str) -> Result<(), Error> {
    if name == FS_ROOT {
        return Ok(());
    }
    let valid = !name.is_empty()
        && !name.contains(&0)
        && name
            .split(|&b| b == b'/')
            .all(|element| !matches!(element, b"" | b"." | b".."));
    if valid {
        Ok(())
    } else {
        Err(Error::invalid_argument(format!(
            "{what} {:?}: not a valid file system name (unrooted, '/'-separated, no empty, '.' or '..' element)",
            display(name)
        )))
    }
}

/// Checks that `name` is one path element: non-empty, no `/`, no NUL, not `.` or `..`.
pub fn check_element(name: &[u8], what: &str) -> Result<(), Error> {
    let valid = !matches!(name, b"" | b"." | b"..") && !name.contains(&b'/') && !name.contains(&0);
    if valid {
        Ok(())
    } else {
        Err(Error::invalid_argument(format!(
            "{what} {:?}: not one path element (non-empty, no '/', no NUL, not '.' or '..')",
            display(name)
        )))
    }
}

/// `dir` joined with one element `name`.
pub fn join(dir: &[u8], name: &[u8]) -> Vec<u8> {
    if dir == FS_ROOT {
        return name.to_vec();
    }
    let mut path = Vec::with_capacity(dir.len() + 1 + name.len());
    path.extend_from_slice(dir);
    if !dir.ends_with(b"/") {
        path.push(b'/');
    }
    path.extend_from_slice(name);
    path
}

/// The directory holding `path`, or `None` at a root (`/` or `.`).
pub fn parent(path: &[u8]) -> Option<&[u8]> {
    if path == OS_ROOT || path == FS_ROOT {
        return None;
    }
    Some(match path.iter().rposition(|&b| b == b'/') {
        Some(0) => OS_ROOT,
        Some(slash) => &path[..slash],
        None => FS_ROOT,
    })
}

/// Whether clean `path` is `root` or below it, as text.
pub fn is_within(path: &[u8], root: &[u8]) -> bool {
    if root == FS_ROOT || root == OS_ROOT || path == root {
        return true;
    }
    path.len() > root.len() && path.starts_with(root) && path[root.len()] == b'/'
}

/// The directories from `root` down to `start`, farthest first. `start` must be within `root`.
pub fn directories(root: &[u8], start: &[u8]) -> Vec<Vec<u8>> {
    let mut dirs = vec![start.to_vec()];
    let mut dir = start;
    while dir != root {
        match parent(dir) {
            Some(up) => {
                dirs.push(up.to_vec());
                dir = up;
            }
            None => break,
        }
    }
    dirs.reverse();
    dirs
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn os_paths_are_made_absolute_and_cleaned_lexically() {
        assert_eq!(os_clean(b"a/./b/../c", b"/w"), b"/w/a/c");
        assert_eq!(os_clean(b"/../x//y/", b"/w"), b"/x/y");
        assert_eq!(os_clean(b".", b"/"), b"/");
        assert_eq!(os_clean(b"", b"/w/v"), b"/w/v");
        assert_eq!(os_clean(b"\xff/x", b"/w"), b"/w/\xff/x");
    }

    #[test]
    fn fs_names_are_valid_as_go_defines() {
        for ok in [&b"."[..], b"a", b"a/b", b"a b/c.md"] {
            assert!(check_fs_name(ok, "path").is_ok(), "{ok:?}");
        }
        for bad in [
            &b""[..],
            b"/a",
            b"a/",
            b"a//b",
            b"./a",
            b"a/..",
            b"..",
            b"a\0b",
        ] {
            assert!(check_fs_name(bad, "path").is_err(), "{bad:?}");
        }
    }

    #[test]
    fn directories_run_from_root_to_start() {
        assert_eq!(directories(b"/", b"/a/b"), [&b"/"[..], b"/a", b"/a/b"]);
        assert_eq!(directories(b"/a", b"/a"), [&b"/a"[..]]);
        assert_eq!(directories(b".", b"x/y"), [&b"."[..], b"x", b"x/y"]);
    }

    #[test]
    fn within_is_textual_on_whole_elements() {
        assert!(is_within(b"/r/a", b"/r"));
        assert!(!is_within(b"/rx", b"/r"));
        assert!(is_within(b"a/b", b"."));
        assert!(!is_within(b"ab", b"a"));
        assert_eq!(join(b"/", b"A"), b"/A");
        assert_eq!(join(b".", b"A"), b"A");
        assert_eq!(join(b"x", b"A"), b"x/A");
    }
}
