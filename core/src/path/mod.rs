//! Paths as bytes: the lexical rules of SPEC.md §1 "Paths", for OS paths and for names in a
//! file system alike. Nothing here touches a file system, and no symbolic link is resolved:
//! `..` removes the element before it as text.

mod syntax;
pub(crate) mod wtf8;

use std::fmt;
use std::path::{Path, PathBuf};

use crate::error::{display, quoted, Error};
pub(crate) use syntax::Syntax;
use wtf8::os_string;
pub(crate) use wtf8::{into_path_buf, to_path_buf};

/// How a file system's names are written ([`FsName`]): as Unix paths, `/`-separated and compared
/// byte for byte, on every OS (SPEC.md §8.2).
pub(crate) const NAMES: Syntax = Syntax::Unix;

/// What the OS file system's names are below: `/` on Unix; on Windows, where every path has a
/// root of its own (`C:\`, `\\server\share\`), nothing: a name's first element is the
/// path's prefix (`C:/repo` for `C:\repo`, [`name_below`]).
pub(crate) const OS_ROOT: &[u8] = match Syntax::OS {
    Syntax::Unix => b"/",
    Syntax::Windows => b"",
};

/// The longest `path` or `root` a chain takes (SPEC.md §1 "Paths"): no OS opens a longer path,
/// and the report holds one full path per place looked at.
pub(crate) const MAX_PATH_LEN: usize = 4096;

/// Checks that `path`, the chain's `what` (`path` or `root`: an OS path made absolute and
/// cleaned, or a custom file system's name as given), is no longer than 4,096 bytes (SPEC.md §1),
/// with the error [`chain`](crate::chain) would give, so that a caller can refuse it before any
/// I/O of its own (the CLI's check that `--root` is a directory).
///
/// ```
/// use agentsmd_core::ffi_support::check_path_length;
/// assert!(check_path_length(b"/repo", "root").is_ok());
/// assert!(check_path_length(&[b'a'; 4097], "root").is_err());
/// ```
pub fn check_path_length(path: &[u8], what: &str) -> Result<(), Error> {
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
        name_parent(&self.0).map(|parent| Self(parent.to_vec()))
    }

    /// Whether this name is `dir` or below it.
    pub fn is_within(&self, dir: &FsName) -> bool {
        is_within(NAMES, &self.0, &dir.0)
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
/// left, and no symbolic link is resolved. Both are written in `syntax`: OS paths
/// ([`Syntax::OS`]), or a file system's names ([`NAMES`]). A rooted path stays at its root for a
/// `..` there, as the OS resolves it, and is written with the syntax's separator; a file
/// system's name has nothing above `.`: `None`.
pub(crate) fn clean(syntax: Syntax, dir: &[u8], path: &[u8]) -> Option<Vec<u8>> {
    match syntax.clean(dir, path) {
        Some(path) => Some(path),
        None => clean_name(dir, path),
    }
}

/// [`clean`] of a file system's name `path` in the directory `dir`, both `/`-separated.
fn clean_name(dir: &[u8], path: &[u8]) -> Option<Vec<u8>> {
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
    Some(match elements.is_empty() {
        true => b".".to_vec(),
        false => elements.join(&b'/'),
    })
}

/// An OS path made absolute against the current directory and cleaned lexically (SPEC.md §1).
/// A NUL byte cannot be in an OS path: it is an invalid argument, not an OS error.
pub fn absolute(path: impl AsRef<Path>) -> Result<PathBuf, Error> {
    absolute_bytes(path.as_ref()).map(into_path_buf)
}

/// Whether the OS path `path` lies in the directory `root`, both absolute and clean
/// ([`absolute`]), as a chain decides it (SPEC.md §1, §8.2): element by element, on Windows
/// ignoring ASCII case, a different prefix outside.
///
/// ```
/// use agentsmd_core::ffi_support::{absolute, is_within_root};
/// let root = absolute("/repo")?; // `C:\repo` on Windows, on the current drive
/// assert!(is_within_root(&root.join("src"), &root));
/// assert!(!is_within_root(&absolute("/repository")?, &root));
/// # Ok::<(), agentsmd_core::Error>(())
/// ```
pub fn is_within_root(path: &Path, root: &Path) -> bool {
    is_within(Syntax::OS, bytes(path), bytes(root))
}

/// [`absolute`] as bytes.
pub(crate) fn absolute_bytes(path: &Path) -> Result<Vec<u8>, Error> {
    let bytes = bytes(path);
    if bytes.contains(&0) {
        let message = [
            &b"path "[..],
            &quoted(bytes),
            b": an OS path cannot hold a NUL byte",
        ];
        return Err(Error::invalid_argument(message.concat()));
    }
    if Syntax::OS.prefix(bytes).is_some() {
        return Ok(clean(Syntax::OS, b"", bytes).unwrap_or_default());
    }
    let (dir, relative) = current_dir_of(bytes)?;
    let dir = clean(Syntax::OS, b"", &dir)
        .filter(|dir| Syntax::OS.prefix(dir).is_some())
        .ok_or_else(|| {
            let not_absolute = std::io::Error::other("the current directory is not absolute");
            Error::io("getcwd", b".", not_absolute)
        })?;
    Ok(clean(Syntax::OS, &dir, relative).unwrap_or(dir))
}

/// The directory the relative OS path `path` is relative to, and `path` from it: the current
/// directory; on Windows, for `C:x`, the current directory of drive `C:` (SPEC.md §8.2).
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

/// Whether `path` is `/`-separated elements none of which is empty, `.` or `..`.
fn clean_elements(path: &[u8]) -> bool {
    path.split(|&b| b == b'/')
        .all(|element| !matches!(element, b"" | b"." | b".."))
}

/// Whether `name` is one path element the OS opens as that name ([`Syntax::is_element`]).
pub(crate) fn is_element(name: &[u8]) -> bool {
    Syntax::OS.is_element(name)
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
    Err(Error::invalid_argument(
        [what, b" ", &quoted(name), why].concat(),
    ))
}

/// The bytes of an OS path: the path itself on Unix; on Windows its WTF-8 (SPEC.md §8.2).
///
/// ```
/// use std::path::Path;
/// use agentsmd_core::ffi_support::path_to_bytes;
/// assert_eq!(path_to_bytes(Path::new("src/AGENTS.md")), b"src/AGENTS.md");
/// ```
pub fn path_to_bytes(path: &Path) -> &[u8] {
    path.as_os_str().as_encoded_bytes()
}

/// The OS path whose bytes ([`path_to_bytes`]) are `bytes`: on Windows, bytes that are not
/// WTF-8 (UTF-8, lone surrogates allowed) are an `InvalidArgument` error naming them as `what`
/// (`path`, `root`, a listed name...); every byte string is a Unix path.
///
/// ```
/// use agentsmd_core::ffi_support::path_from_bytes;
/// let path = path_from_bytes(b"src/AGENTS.md".to_vec(), "path")?;
/// assert_eq!(path, std::path::Path::new("src/AGENTS.md"));
/// # Ok::<(), agentsmd_core::Error>(())
/// ```
pub fn path_from_bytes(bytes: Vec<u8>, what: &str) -> Result<PathBuf, Error> {
    os_string(bytes).map(PathBuf::from).map_err(|bytes| {
        Error::invalid_argument(
            [
                what.as_bytes(),
                b" ",
                &quoted(&bytes),
                b": not UTF-8 or WTF-8",
            ]
            .concat(),
        )
    })
}

/// The bytes of an OS path.
pub(crate) fn bytes(path: &Path) -> &[u8] {
    path_to_bytes(path)
}

/// The root of the absolute, clean OS path `path` (`/`, `C:\`): a chain's default root.
pub(crate) fn root_of(path: &[u8]) -> Vec<u8> {
    Syntax::OS.root(path).unwrap_or_else(|| OS_ROOT.to_vec())
}

/// Whether the OS path `path` is a root, which confines nothing.
pub(crate) fn is_root(path: &[u8]) -> bool {
    Syntax::OS.root(path).is_some_and(|root| root == path)
}

/// The name, below clean absolute `base` ([`OS_ROOT`], or a directory), of clean absolute
/// `path`, which is within it: its elements below `base`, `/`-separated. On Windows, below
/// [`OS_ROOT`] the first element is the path's prefix (`C:`, `\\server\share`).
pub(crate) fn name_below(base: &[u8], path: &[u8]) -> FsName {
    FsName(Syntax::OS.name_below(base, path))
}

/// The OS path of `name` below clean absolute `base` ([`name_below`] undone).
pub(crate) fn os_path(base: &[u8], name: &FsName) -> Vec<u8> {
    Syntax::OS.os_path(base, &name.0)
}

/// `dir` joined with `name` (an element, or a clean relative path): `name` itself in `.`, `dir`
/// itself for the name `.`; `/`-separated, the rule for file system names and for Unix paths.
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

/// The directory holding `path` (written in `syntax`, as [`clean`] takes it), or `None` at a
/// root (an OS path's, or `.`).
pub(crate) fn parent(syntax: Syntax, path: &[u8]) -> Option<&[u8]> {
    match syntax.prefix(path) {
        Some(_) => syntax.parent(path),
        None => name_parent(path),
    }
}

/// [`parent`] of a file system's name.
fn name_parent(name: &[u8]) -> Option<&[u8]> {
    match name {
        b"." => None,
        _ => Some(match name.iter().rposition(|&b| b == b'/') {
            Some(slash) => &name[..slash],
            None => b".",
        }),
    }
}

/// Whether clean `path` is `dir` or below it (both written in `syntax`, as [`clean`] takes
/// them), as text on whole elements, on Windows ignoring ASCII case; everything is within `.`,
/// and a path is within its root.
pub(crate) fn is_within(syntax: Syntax, path: &[u8], dir: &[u8]) -> bool {
    dir == b"." || syntax.is_within(path, dir)
}
