//! Paths as bytes: the lexical rules of SPEC §1 "Paths", for OS paths and file system names
//! alike. Nothing here touches a file system: `..` removes the element before it as text.

mod syntax;
pub(crate) mod wtf8;

use std::fmt;
use std::path::{Path, PathBuf};

use crate::error::{quoted, Error};
pub(crate) use path_to_bytes as bytes;
pub(crate) use syntax::Syntax;
use wtf8::os_string;
pub(crate) use wtf8::{into_path_buf, to_path_buf};

/// How a file system's names ([`FsName`]) are written on every OS: as Unix paths (SPEC §8.2).
pub(crate) const NAMES: Syntax = Syntax::Unix;

/// What the OS file system's names are below: `/` on Unix; nothing on Windows ([`name_below`]).
pub(crate) const OS_ROOT: &[u8] = match Syntax::OS {
    Syntax::Unix => b"/",
    Syntax::Windows => b"",
};

/// The longest `path` or `root` a chain takes (SPEC §1 "Paths").
const MAX_PATH_LEN: usize = 4096;

/// Checks that `path`, the chain's `what` (`path` or `root`), is as short as a chain takes.
pub fn check_path_length(path: &[u8], what: &str) -> Result<(), Error> {
    if path.len() <= MAX_PATH_LEN {
        return Ok(());
    }
    let len = path.len();
    let why = format!(": {len} bytes, longer than the {MAX_PATH_LEN} a path may be");
    let message = [what.as_bytes(), b" ", path, why.as_bytes()].concat();
    Err(Error::invalid_argument(message))
}

/// A name in a [`FileSystem`](crate::fs::FileSystem): unrooted, `/`-separated, with no empty,
/// `.` or `..` element, and `.` alone for the file system's root — Go's `fs.ValidPath`.
#[derive(Clone, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct FsName(Vec<u8>);

impl FsName {
    /// The name `name`, valid and so not checked again.
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

    /// This name joined with `element`, one path element or a clean relative path.
    pub fn join(&self, element: &[u8]) -> Self {
        Self(join(&self.0, element))
    }

    /// The directory holding this name; `None` at the root.
    pub fn parent(&self) -> Option<Self> {
        name_parent(&self.0).map(|parent| Self(parent.to_vec()))
    }

    /// This name as a path relative to `dir`, `/`-separated, empty for `dir` itself; `None`
    /// when it is not `dir` or below it.
    pub(crate) fn relative_to(&self, dir: &FsName) -> Option<&[u8]> {
        if self.0 == dir.0 {
            return Some(b"");
        }
        match &dir.0[..] {
            b"." => Some(&self.0),
            dir => self.0.strip_prefix(dir)?.strip_prefix(b"/"),
        }
    }

    /// Whether this name is `dir` or below it.
    pub fn is_within(&self, dir: &FsName) -> bool {
        is_within(NAMES, &self.0, &dir.0)
    }
}

impl fmt::Debug for FsName {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{:?}", String::from_utf8_lossy(&self.0))
    }
}

impl fmt::Display for FsName {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&String::from_utf8_lossy(&self.0))
    }
}

/// Checks that `name` is what [`FsName::new`] takes, without taking it.
pub(crate) fn check_fs_name(name: &[u8]) -> Result<(), Error> {
    let mut elements = name.split(|&b| b == b'/');
    if name == b"." || !name.contains(&0) && elements.all(|e| !matches!(e, b"" | b"." | b"..")) {
        return Ok(());
    }
    let why = b": not a valid file system name (unrooted, '/'-separated, no empty, '.' or '..' \
                element)";
    Err(Error::invalid_argument([&quoted(name)[..], why].concat()))
}

/// `path`, absolute or relative to `dir`, cleaned lexically ([`Syntax::clean`]); `None` for a
/// file system's name that a `..` takes above `.`.
pub(crate) fn clean(syntax: Syntax, dir: &[u8], path: &[u8]) -> Option<Vec<u8>> {
    syntax.clean(dir, path).or_else(|| {
        let (elements, above) = syntax::elements(&[dir, path], |b| b == b'/');
        let name = elements.join(&b'/');
        (!above).then(|| if name.is_empty() { b".".to_vec() } else { name })
    })
}

/// An OS path made absolute against the current directory and cleaned lexically (SPEC §1).
pub fn absolute(path: impl AsRef<Path>) -> Result<PathBuf, Error> {
    absolute_bytes(path.as_ref()).map(into_path_buf)
}

/// Whether the [`absolute`] OS path `path` lies in the directory `root`, as a chain decides it.
pub fn is_within_root(path: &Path, root: &Path) -> bool {
    is_within(Syntax::OS, bytes(path), bytes(root))
}

/// [`absolute`] as bytes.
pub(crate) fn absolute_bytes(path: &Path) -> Result<Vec<u8>, Error> {
    let bytes = bytes(path);
    if bytes.contains(&0) {
        let why = ": an OS path cannot hold a NUL byte";
        let message = [&b"path "[..], &quoted(bytes), why.as_bytes()].concat();
        return Err(Error::invalid_argument(message));
    }
    let (dir, relative) = match Syntax::OS.prefix(bytes) {
        Some(_) => (Vec::new(), bytes),
        None => current_dir_of(bytes)?,
    };
    Syntax::OS.clean(&dir, relative).ok_or_else(|| {
        let not_absolute = std::io::Error::other("the current directory is not absolute");
        Error::io("getcwd", b".", not_absolute)
    })
}

/// The directory the relative OS path `path` is relative to (for `C:x`, drive `C:`'s), and
/// `path` from it.
fn current_dir_of(path: &[u8]) -> Result<(Vec<u8>, &[u8]), Error> {
    let failed = |e| Error::io("getcwd", b".", e);
    #[cfg(windows)]
    if let [drive @ (b'A'..=b'Z' | b'a'..=b'z'), b':', relative @ ..] = path {
        let dir = std::path::absolute(format!("{}:", char::from(*drive))).map_err(failed)?;
        let mut dir = bytes(&dir).to_vec();
        // The prefix as given: Windows answers with the drive letter as it stores it.
        if dir.get(1) == Some(&b':') && dir[0].eq_ignore_ascii_case(drive) {
            dir[0] = *drive;
        }
        return Ok((dir, relative));
    }
    let dir = std::env::current_dir().map_err(failed)?;
    Ok((bytes(&dir).to_vec(), path))
}

/// Whether `name` is one path element the OS opens as that name ([`Syntax::is_element`]).
pub(crate) fn is_element(name: &[u8]) -> bool {
    Syntax::OS.is_element(name)
}

/// Checks that `name` can be one of [`Options::names`](crate::Options::names): one or more
/// `/`-separated path elements (SPEC §9).
pub fn check_name(name: &[u8]) -> Result<(), Error> {
    check_elements(name, b"name ")
}

/// Checks that `fragment` can be one of [`Options::fragments`](crate::Options::fragments).
pub fn check_fragment(fragment: &[u8]) -> Result<(), Error> {
    check_elements(fragment, b"fragment directory ")
}

/// Checks that `dir` can be the directory of one of [`Options::rules`](crate::Options::rules).
pub fn check_rule_dir(dir: &[u8]) -> Result<(), Error> {
    check_elements(dir, b"rule directory ")
}

/// Checks that `path`, the option `what`, is one or more `/`-separated path elements.
fn check_elements(path: &[u8], what: &[u8]) -> Result<(), Error> {
    let what = [what, &quoted(path), b": element"].concat();
    path.split(|&b| b == b'/')
        .try_for_each(|element| check_element(element, &what))
}

/// Checks that `name` is one path element the OS opens as that name ([`is_element`]).
fn check_element(name: &[u8], what: &[u8]) -> Result<(), Error> {
    if is_element(name) {
        return Ok(());
    }
    let why: &[u8] = match Syntax::OS {
        Syntax::Unix => b": not one path element (non-empty, no '/', no NUL, not '.' or '..')",
        Syntax::Windows => {
            b": not one path element Windows opens as named (non-empty, not '.' or '..', no \
              '/', '\\', ':', '<', '>', '\"', '|', '?', '*' or control byte, no trailing '.' \
              or space, no device name such as NUL or nul.md)"
        }
    };
    let message = [what, b" ", &quoted(name), why].concat();
    Err(Error::invalid_argument(message))
}

/// The bytes of an OS path: on Windows its WTF-8 (SPEC §8.2).
pub fn path_to_bytes(path: &Path) -> &[u8] {
    path.as_os_str().as_encoded_bytes()
}

/// The OS path whose bytes ([`path_to_bytes`]) are `bytes`, which on Windows must be WTF-8.
pub fn path_from_bytes(bytes: Vec<u8>, what: &str) -> Result<PathBuf, Error> {
    os_string(bytes).map(PathBuf::from).map_err(|bytes| {
        let why = b": not UTF-8 or WTF-8";
        Error::invalid_argument([what.as_bytes(), b" ", &quoted(&bytes), why].concat())
    })
}

/// The name of clean absolute `path` below clean absolute `base` ([`Syntax::name_below`]).
pub(crate) fn name_below(base: &[u8], path: &[u8]) -> FsName {
    FsName(Syntax::OS.name_below(base, path))
}

/// The OS path of `name` below clean absolute `base` ([`name_below`] undone).
pub(crate) fn os_path(base: &[u8], name: &FsName) -> Vec<u8> {
    Syntax::OS.os_path(base, &name.0)
}

/// `dir` joined with `name` (an element, or a clean relative path), `/`-separated.
pub(crate) fn join(dir: &[u8], name: &[u8]) -> Vec<u8> {
    match (dir, name) {
        (b".", _) => name.to_vec(),
        (_, b".") => dir.to_vec(),
        _ if dir.ends_with(b"/") => [dir, name].concat(),
        _ => [dir, b"/", name].concat(),
    }
}

/// The directory holding `path`, or `None` at a root (an OS path's, or `.`).
pub(crate) fn parent(syntax: Syntax, path: &[u8]) -> Option<&[u8]> {
    match syntax.prefix(path) {
        Some(_) => syntax.parent(path),
        None => name_parent(path),
    }
}

/// [`parent`] of a file system's name.
fn name_parent(name: &[u8]) -> Option<&[u8]> {
    let slash = name.iter().rposition(|&b| b == b'/');
    (name != b".").then(|| slash.map_or(&b"."[..], |slash| &name[..slash]))
}

/// Whether clean `path` is `dir` or below it; everything is within `.`.
pub(crate) fn is_within(syntax: Syntax, path: &[u8], dir: &[u8]) -> bool {
    dir == b"." || syntax.is_within(path, dir)
}
