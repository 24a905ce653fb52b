//! Paths as bytes: the lexical rules of SPEC.md §1 "Paths", for OS paths and for names in a
//! file system alike. Nothing here touches a file system, and no symbolic link is resolved:
//! `..` removes the element before it as text.

use std::borrow::Cow;
use std::ffi::{OsStr, OsString};
use std::fmt;
use std::os::unix::ffi::{OsStrExt, OsStringExt};
use std::path::{Path, PathBuf};

use crate::error::{display, quoted, Error};

/// The OS file system's root.
pub(crate) const OS_ROOT: &[u8] = b"/";

/// The longest `path` or `root` a chain takes (SPEC.md §1 "Paths"): no OS opens a longer path,
/// and the report holds one full path per place looked at.
pub(crate) const MAX_PATH_LEN: usize = 4096;

/// Checks that `path`, the chain's `what` (`path` or `root`: an OS path made absolute and
/// cleaned, or a custom file system's name as given), is no longer than [`MAX_PATH_LEN`].
pub(crate) fn check_length(path: &[u8], what: &str) -> Result<(), Error> {
    if path.len() <= MAX_PATH_LEN {
        return Ok(());
    }
    let why = format!(
        ": {} bytes, longer than the {MAX_PATH_LEN} a path may be",
        path.len()
    );
    Err(Error::invalid_argument(
        [what.as_bytes(), b" ", path, why.as_bytes()].concat(),
    ))
}

/// A name in a [`FileSystem`](crate::fs::FileSystem): unrooted, `/`-separated, with no empty,
/// `.` or `..` element, and `.` alone for the file system's root — Go's `fs.ValidPath`.
///
/// ```
/// use agentsmd_core::FsName;
/// assert!(FsName::new("docs/AGENTS.md").is_ok());
/// assert!(FsName::new("../etc").is_err());
/// assert_eq!(FsName::root().join(b"a").as_bytes(), b"a");
/// ```
#[derive(Clone, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct FsName(Vec<u8>);

impl FsName {
    /// The first `end` bytes of the valid name `name`, which end an element (0: the root). A
    /// prefix of a valid name ending at an element's end is valid: it is not checked again.
    pub(crate) fn prefix_of(name: &[u8], end: usize) -> Self {
        debug_assert!(end == name.len() || end == 0 || name[end] == b'/');
        match end {
            0 => Self::root(),
            _ => Self(name[..end].to_vec()),
        }
    }

    /// The bytes of the valid name `dir` joined with `element`, one path element or a clean
    /// relative path that the walk checked: valid, and not checked again.
    pub(crate) fn child_of(dir: &[u8], element: &[u8]) -> Self {
        if dir == b"." {
            return Self(element.to_vec());
        }
        Self([dir, b"/", element].concat())
    }

    /// Checks `name` and takes it; an invalid name is an `InvalidArgument` error.
    pub fn new(name: impl AsRef<[u8]>) -> Result<Self, Error> {
        let name = name.as_ref();
        check_fs_name(name)?;
        Ok(Self(name.to_vec()))
    }

    /// The file system's root, `.`.
    pub fn root() -> Self {
        Self(b".".to_vec())
    }

    /// Whether this is the root, `.`.
    pub fn is_root(&self) -> bool {
        self.0 == b"."
    }

    /// The name's bytes.
    pub fn as_bytes(&self) -> &[u8] {
        &self.0
    }

    /// This name joined with `element`, which must be one path element or a clean relative
    /// path (the walk only joins names it checked).
    pub fn join(&self, element: &[u8]) -> Self {
        Self::child_of(&self.0, element)
    }

    /// The directory holding this name; `None` at the root.
    pub fn parent(&self) -> Option<Self> {
        parent(&self.0).map(|parent| Self(parent.to_vec()))
    }

    /// Whether this name is `dir` or below it.
    pub fn is_within(&self, dir: &FsName) -> bool {
        is_within(&self.0, &dir.0)
    }
}

impl fmt::Debug for FsName {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{:?}", display(&self.0))
    }
}

impl fmt::Display for FsName {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&display(&self.0))
    }
}

/// Checks that `name` is what [`FsName::new`] takes, without taking it.
pub(crate) fn check_fs_name(name: &[u8]) -> Result<(), Error> {
    if name == b"." || (!name.contains(&0) && clean_elements(name)) {
        return Ok(());
    }
    Err(Error::invalid_argument(
        [
            &quoted(name)[..],
            b": not a valid file system name (unrooted, '/'-separated, no empty, '.' or '..' \
              element)",
        ]
        .concat(),
    ))
}

/// Whether clean `path` is `dir` or below it, as text on whole elements.
pub(crate) fn is_below_or_at(path: &[u8], dir: &[u8]) -> bool {
    if dir == OS_ROOT || path == dir {
        return true;
    }
    path.len() > dir.len() && path.starts_with(dir) && path[dir.len()] == b'/'
}

/// Makes an OS path absolute against `cwd` and cleans it lexically: no empty, `.` or `..`
/// element is left, and `..` at the root stays at the root, as the OS resolves it.
pub(crate) fn os_clean(path: &[u8], cwd: &[u8]) -> Vec<u8> {
    let base: &[u8] = if path.starts_with(b"/") { b"" } else { cwd };
    // Built in place, one allocation: the path so far is `/e1/e2…`, and `..` cuts its last
    // element off.
    let mut clean = Vec::with_capacity(base.len() + path.len() + 1);
    push_clean(&mut clean, 0, base);
    push_clean(&mut clean, 0, path);
    if clean.is_empty() {
        clean.push(b'/');
    }
    clean
}

/// [`os_clean`] of the relative `path` against `dir`, which is clean and absolute already (an
/// import's directory: a clean path's parent), so that only `path` is cleaned; written onto the
/// end of `out`, where the path is kept, rather than into a buffer of its own.
pub(crate) fn os_clean_onto(path: &[u8], dir: &[u8], out: &mut Vec<u8>) {
    let dir = if dir == OS_ROOT { &b""[..] } else { dir };
    let start = out.len();
    out.extend_from_slice(dir);
    push_clean(out, start, path);
    if out.len() == start {
        out.push(b'/');
    }
}

/// Appends the elements of `path` to the clean `/e1/e2…` (or empty) path that `clean` holds
/// from `start` on, lexically.
fn push_clean(clean: &mut Vec<u8>, start: usize, path: &[u8]) {
    for element in path.split(|&b| b == b'/') {
        match element {
            b"" | b"." => {}
            b".." => {
                let last = clean[start..].iter().rposition(|&b| b == b'/');
                clean.truncate(start + last.unwrap_or(0));
            }
            _ => {
                clean.push(b'/');
                clean.extend_from_slice(element);
            }
        }
    }
}

/// An OS path made absolute against the current directory and cleaned lexically (SPEC.md §1).
/// A NUL byte cannot be in an OS path: it is an invalid argument, not an OS error.
pub fn absolute(path: impl AsRef<Path>) -> Result<PathBuf, Error> {
    absolute_bytes(path.as_ref()).map(|bytes| into_path_buf(bytes.into_owned()))
}

/// [`absolute`] as bytes, borrowed when the path is already absolute and clean: the common
/// case costs a scan, not a copy.
pub(crate) fn absolute_bytes(path: &Path) -> Result<Cow<'_, [u8]>, Error> {
    let bytes = path.as_os_str().as_bytes();
    let clean = match scan(bytes) {
        Some(clean) => clean,
        None => {
            return Err(Error::invalid_argument(
                [
                    &b"path "[..],
                    &quoted(bytes),
                    b": an OS path cannot hold a NUL byte",
                ]
                .concat(),
            ))
        }
    };
    if clean {
        return Ok(Cow::Borrowed(bytes));
    }
    if bytes.starts_with(b"/") {
        return Ok(Cow::Owned(os_clean(bytes, OS_ROOT)));
    }
    let cwd = std::env::current_dir().map_err(|e| Error::io("getcwd", b".", e))?;
    Ok(Cow::Owned(os_clean(bytes, cwd.as_os_str().as_bytes())))
}

/// Whether `path` is what [`os_clean`] would return for it (`/`, or rooted with no empty, `.`
/// or `..` element); `None` when it holds a NUL.
fn scan(path: &[u8]) -> Option<bool> {
    if memchr::memchr(0, path).is_some() {
        return None;
    }
    Some(path == OS_ROOT || (path.first() == Some(&b'/') && clean_elements(&path[1..])))
}

fn is_clean_element(element: &[u8]) -> bool {
    !matches!(element, b"" | b"." | b"..")
}

/// Whether `path` is `/`-separated elements none of which is empty, `.` or `..`.
fn clean_elements(path: &[u8]) -> bool {
    path.split(|&b| b == b'/').all(is_clean_element)
}

/// Whether `name` is one path element: non-empty, no `/`, no NUL, not `.` or `..`.
pub(crate) fn is_element(name: &[u8]) -> bool {
    is_clean_element(name) && memchr::memchr2(b'/', 0, name).is_none()
}

/// Checks that `name` can be one of [`Options::names`](crate::Options::names) (SPEC.md §1),
/// with the error [`chain`](crate::chain) would give, so that a caller can refuse it before any
/// walk (the CLI's usage error).
pub fn check_name(name: &[u8]) -> Result<(), Error> {
    check_element(name, b"name")
}

/// Checks that `fragment` can be one of [`Options::fragments`](crate::Options::fragments)
/// (SPEC.md §5.2): one or more `/`-separated elements, each valid as a name is.
pub fn check_fragment(fragment: &[u8]) -> Result<(), Error> {
    // The message is built only for a bad element: a chain checks every fragment directory,
    // and a valid one costs no allocation.
    fragment.split(|&b| b == b'/').try_for_each(|element| {
        if is_element(element) {
            return Ok(());
        }
        let what = [&b"fragment directory "[..], &quoted(fragment), b": element"].concat();
        check_element(element, &what)
    })
}

/// Checks that `name` is one path element: non-empty, no `/`, no NUL, not `.` or `..`.
fn check_element(name: &[u8], what: &[u8]) -> Result<(), Error> {
    if is_element(name) {
        Ok(())
    } else {
        Err(Error::invalid_argument(
            [
                what,
                b" ",
                &quoted(name),
                b": not one path element (non-empty, no '/', no NUL, not '.' or '..')",
            ]
            .concat(),
        ))
    }
}

/// The bytes of an OS path.
pub(crate) fn bytes(path: &Path) -> &[u8] {
    path.as_os_str().as_bytes()
}

/// An OS path from its bytes.
pub(crate) fn to_path_buf(bytes: &[u8]) -> PathBuf {
    PathBuf::from(OsStr::from_bytes(bytes))
}

/// An OS path from its bytes, without copying them.
pub(crate) fn into_path_buf(bytes: Vec<u8>) -> PathBuf {
    PathBuf::from(OsString::from_vec(bytes))
}

/// The name, below clean absolute `base`, of clean absolute `path`, which is within it.
pub(crate) fn name_below(base: &[u8], path: &[u8]) -> FsName {
    FsName(below(base, path).to_vec())
}

/// The bytes of [`name_below`], borrowed from `path`.
pub(crate) fn below<'p>(base: &[u8], path: &'p [u8]) -> &'p [u8] {
    match &path[base.len()..] {
        b"" => b".",
        rest if base == OS_ROOT => rest,
        rest => &rest[1..],
    }
}

/// The OS path of `name` below clean absolute `base`.
pub(crate) fn os_path(base: &[u8], name: &FsName) -> Vec<u8> {
    match (name.is_root(), base == OS_ROOT) {
        (true, _) => base.to_vec(),
        (false, true) => [base, &name.0].concat(),
        (false, false) => [base, b"/", &name.0].concat(),
    }
}

/// Joins a custom file system's directory `dir` (a valid name, `.` for the root) with the
/// relative `path` and cleans the result lexically; `None` when a `..` climbs above `.`, which a
/// custom file system has nothing above.
pub(crate) fn fs_clean(path: &[u8], dir: &[u8]) -> Option<Vec<u8>> {
    let mut elements: Vec<&[u8]> = Vec::new();
    for element in dir.split(|&b| b == b'/').chain(path.split(|&b| b == b'/')) {
        match element {
            b"" | b"." => {}
            b".." => {
                elements.pop()?;
            }
            _ => elements.push(element),
        }
    }
    if elements.is_empty() {
        return Some(b".".to_vec());
    }
    Some(elements.join(&b'/'))
}

/// The directory holding `path` (an OS path or a file system's name), or `None` at a root (`/`
/// or `.`).
pub(crate) fn parent(path: &[u8]) -> Option<&[u8]> {
    if path == OS_ROOT || path == b"." {
        return None;
    }
    Some(match path.iter().rposition(|&b| b == b'/') {
        Some(0) => OS_ROOT,
        Some(slash) => &path[..slash],
        None => b".",
    })
}

/// Whether clean `path` (an OS path or a file system's name) is `dir` or below it; everything is
/// within a file system's root `.`.
pub(crate) fn is_within(path: &[u8], dir: &[u8]) -> bool {
    dir == b"." || is_below_or_at(path, dir)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_path_cleaned_onto_a_buffer_leaves_the_bytes_before_it_alone() {
        let mut out = b"/x/y".to_vec();
        os_clean_onto(b"../../../a", b"/w", &mut out);
        assert_eq!(out, b"/x/y/a");
        os_clean_onto(b"..", b"/", &mut out);
        assert_eq!(out, b"/x/y/a/");
    }

    #[test]
    fn os_paths_are_made_absolute_and_cleaned_lexically() {
        assert_eq!(os_clean(b"a/./b/../c", b"/w"), b"/w/a/c");
        assert_eq!(os_clean(b"/../x//y/", b"/w"), b"/x/y");
        assert_eq!(os_clean(b".", b"/"), b"/");
        assert_eq!(os_clean(b"", b"/w/v"), b"/w/v");
        assert_eq!(os_clean(b"\xff/x", b"/w"), b"/w/\xff/x");
        for (path, dir) in [
            (&b"a/./b/../c"[..], &b"/w"[..]),
            (b"../../x", b"/w"),
            (b"..", b"/"),
        ] {
            let mut clean = Vec::new();
            os_clean_onto(path, dir, &mut clean);
            assert_eq!(clean, os_clean(path, dir), "{path:?} in {dir:?}");
        }
        for path in [&b"/"[..], b"/a", b"/a/b.c", b"/a/.b", b"/a/..b"] {
            assert_eq!(scan(path), Some(true), "{path:?}");
            assert_eq!(os_clean(path, b"/"), path);
        }
        assert_eq!((scan(b"/a\0"), scan(b"a/\0/..")), (None, None));
        // Each unclean or NUL byte at every place of a long path.
        for at in 1..20 {
            let long = b"/abcdefghijklmnopqrstuvwxyz";
            for (piece, clean) in [(&b"//"[..], Some(false)), (b"\0", None), (b".", Some(true))] {
                let mut path = long[..at].to_vec();
                path.extend_from_slice(piece);
                path.extend_from_slice(&long[at..]);
                assert_eq!(scan(&path), clean, "{path:?}");
                let mut dotted = long[..at].to_vec();
                dotted.extend_from_slice(b"/.");
                assert_eq!(scan(&dotted), Some(false), "{dotted:?}");
            }
        }
        assert!(is_element(b"abcdefgh.md") && is_element(b".a"));
        for name in [&b"abcdefgh/"[..], b"abcdefghi\0", b"a\0", b"/", b".."] {
            assert!(!is_element(name), "{name:?}");
        }
        let unclean: [&[u8]; 8] = [
            b"", b"a", b"//", b"/a/", b"/a//b", b"/./a", b"/a/..", b"/a/.",
        ];
        for path in unclean {
            assert_eq!(scan(path), Some(false), "{path:?}");
        }
    }

    #[test]
    fn fs_names_are_joined_and_cleaned_without_climbing_above_the_root() {
        assert_eq!(
            fs_clean(b"b/../c.md", b"a").as_deref(),
            Some(&b"a/c.md"[..])
        );
        assert_eq!(fs_clean(b"./x//y", b".").as_deref(), Some(&b"x/y"[..]));
        assert_eq!(fs_clean(b"..", b"a").as_deref(), Some(&b"."[..]));
        assert_eq!(fs_clean(b"../x", b"."), None);
        assert_eq!(fs_clean(b"../../a/x", b"a"), None);
    }

    #[test]
    fn fs_names_are_valid_as_go_defines() {
        for ok in [&b"."[..], b"a", b"a/b", b"a b/c.md"] {
            assert!(FsName::new(ok).is_ok(), "{ok:?}");
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
            assert!(FsName::new(bad).is_err(), "{bad:?}");
        }
    }

    #[test]
    fn names_below_a_base_and_back() {
        assert_eq!(name_below(b"/", b"/a/b").as_bytes(), b"a/b");
        assert_eq!(name_below(b"/r", b"/r").as_bytes(), b".");
        assert_eq!(name_below(b"/r", b"/r/x").as_bytes(), b"x");
        assert_eq!(os_path(b"/", &FsName::root()), b"/");
        assert_eq!(os_path(b"/", &FsName::new("a").unwrap()), b"/a");
        assert_eq!(os_path(b"/r", &FsName::new("a").unwrap()), b"/r/a");
    }

    #[test]
    fn within_is_textual_on_whole_elements() {
        assert!(is_below_or_at(b"/r/a", b"/r"));
        assert!(!is_below_or_at(b"/rx", b"/r"));
        let ab = FsName::new("a/b").unwrap();
        assert!(ab.is_within(&FsName::root()));
        assert!(ab.is_within(&FsName::new("a").unwrap()));
        assert!(!FsName::new("ab")
            .unwrap()
            .is_within(&FsName::new("a").unwrap()));
    }
}
