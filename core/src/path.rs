//! Paths as bytes: the lexical rules of SPEC.md §1 "Paths", for OS paths and for names in a
//! file system alike. Nothing here touches a file system, and no symbolic link is resolved:
//! `..` removes the element before it as text.

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
    /// The valid name whose bytes are `name`, not checked again: a clean path below a base, or a
    /// name the walk built of checked parts.
    pub(crate) fn of_valid(name: &[u8]) -> Self {
        Self(name.to_vec())
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
        Self(join(&self.0, element))
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

/// `path`, absolute or relative to `dir`, cleaned lexically: no empty, `.` or `..` element is
/// left, and no symbolic link is resolved. An OS path (rooted) stays at `/` for a `..` there, as
/// the OS resolves it; a file system's name has nothing above `.`: `None`.
pub(crate) fn clean(dir: &[u8], path: &[u8]) -> Option<Vec<u8>> {
    let dir = if path.starts_with(b"/") { OS_ROOT } else { dir };
    let rooted = dir.starts_with(b"/");
    let mut elements: Vec<&[u8]> = Vec::new();
    for element in dir.split(|&b| b == b'/').chain(path.split(|&b| b == b'/')) {
        match element {
            b"" | b"." => {}
            b".." => {
                if elements.pop().is_none() && !rooted {
                    return None;
                }
            }
            _ => elements.push(element),
        }
    }
    let joined = elements.join(&b'/');
    Some(match (rooted, joined.is_empty()) {
        (true, _) => [OS_ROOT, &joined].concat(),
        (false, true) => b".".to_vec(),
        (false, false) => joined,
    })
}

/// An OS path made absolute against the current directory and cleaned lexically (SPEC.md §1).
/// A NUL byte cannot be in an OS path: it is an invalid argument, not an OS error.
pub fn absolute(path: impl AsRef<Path>) -> Result<PathBuf, Error> {
    absolute_bytes(path.as_ref()).map(into_path_buf)
}

/// [`absolute`] as bytes.
pub(crate) fn absolute_bytes(path: &Path) -> Result<Vec<u8>, Error> {
    let bytes = path.as_os_str().as_bytes();
    if bytes.contains(&0) {
        let message = [
            &b"path "[..],
            &quoted(bytes),
            b": an OS path cannot hold a NUL byte",
        ];
        return Err(Error::invalid_argument(message.concat()));
    }
    let cwd = match bytes.starts_with(b"/") {
        true => OS_ROOT.to_vec(),
        false => std::env::current_dir()
            .map_err(|e| Error::io("getcwd", b".", e))?
            .into_os_string()
            .into_vec(),
    };
    Ok(clean(&cwd, bytes).unwrap_or_else(|| OS_ROOT.to_vec()))
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
    is_clean_element(name) && !name.iter().any(|&b| b == b'/' || b == 0)
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
    let what = [&b"fragment directory "[..], &quoted(fragment), b": element"].concat();
    fragment
        .split(|&b| b == b'/')
        .try_for_each(|element| check_element(element, &what))
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
    join(base, &name.0)
}

/// `dir` joined with `name` (an element, or a clean relative path): `name` itself in `.`, `dir`
/// itself for the name `.`; the one rule for OS paths and file system names alike.
pub(crate) fn join(dir: &[u8], name: &[u8]) -> Vec<u8> {
    match (dir, name) {
        (b".", _) => return name.to_vec(),
        (_, b".") => return dir.to_vec(),
        _ => {}
    }
    let mut path = Vec::with_capacity(dir.len() + 1 + name.len());
    path.extend_from_slice(dir);
    if !dir.ends_with(b"/") {
        path.push(b'/');
    }
    path.extend_from_slice(name);
    path
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

/// Whether clean `path` (an OS path or a file system's name) is `dir` or below it, as text on
/// whole elements; everything is within a root, `/` or `.`.
pub(crate) fn is_within(path: &[u8], dir: &[u8]) -> bool {
    if dir == OS_ROOT || dir == b"." || path == dir {
        return true;
    }
    path.len() > dir.len() && path.starts_with(dir) && path[dir.len()] == b'/'
}
