//! The crate's one error type, in walkdir's shape: a kind to match on, the path it concerns, the
//! OS error beneath it, and a message that names the path.

use std::io;
use std::path::{Path, PathBuf};

/// What kind of failure an [`Error`] is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum ErrorKind {
    /// A bad name, a path outside root, an invalid FS name, an extra path that is not a regular
    /// file, or confinement asked with the root `/`.
    InvalidArgument,
    /// A file read more than `max_bytes`.
    TooLarge,
    /// The OS file system failed; [`std::error::Error::source`] is the OS error.
    Io,
    /// A custom file system failed or answered nonsense.
    Fs,
    /// An import directive could not be expanded (SPEC.md §5.4).
    Import,
}

/// The error of every fallible call.
#[derive(Debug, thiserror::Error)]
#[error("{message}")]
pub struct Error {
    kind: ErrorKind,
    message: String,
    path: Option<PathBuf>,
    #[source]
    source: Option<io::Error>,
}

impl Error {
    fn new(kind: ErrorKind, message: String, path: Option<&[u8]>) -> Self {
        Self {
            kind,
            message,
            path: path.map(crate::path::to_path_buf),
            source: None,
        }
    }

    /// An invalid argument, said by `message`.
    pub fn invalid_argument(message: impl Into<String>) -> Self {
        Self::new(ErrorKind::InvalidArgument, message.into(), None)
    }

    /// The file at `path` read more than `max_bytes` bytes.
    pub fn too_large(path: &[u8], max_bytes: u64) -> Self {
        Self::new(
            ErrorKind::TooLarge,
            format!(
                "read {}: file exceeds size limit of {max_bytes} bytes",
                display(path)
            ),
            Some(path),
        )
    }

    /// The OS failed to `op` (list, stat, open, read) `path`.
    pub fn io(op: &str, path: &[u8], source: io::Error) -> Self {
        let message = format!("{op} {}: {source}", display(path));
        Self::new(ErrorKind::Io, message, Some(path)).caused_by(source)
    }

    /// Under confinement, `op` found that `path` leads out of root through a symbolic link,
    /// though the lookup had found it inside (a link swapped in during the walk): an `Io` error
    /// with the `EXDEV` the kernel reports, and nothing read.
    pub(crate) fn escaped(op: &str, path: &[u8]) -> Self {
        let message = format!(
            "{op} {}: a symbolic link leads out of root (changed during the walk); nothing was \
             read",
            display(path)
        );
        let exdev = io::Error::from_raw_os_error(rustix::io::Errno::XDEV.raw_os_error());
        Self::new(ErrorKind::Io, message, Some(path)).caused_by(exdev)
    }

    fn caused_by(mut self, source: io::Error) -> Self {
        self.source = Some(source);
        self
    }

    /// A custom file system failed to `op` `path`, saying `detail`.
    pub fn fs(op: &str, path: &[u8], detail: &str) -> Self {
        Self::new(
            ErrorKind::Fs,
            format!("{op} {}: {detail}", display(path)),
            Some(path),
        )
    }

    /// The directive at `line` of `path` cannot import `target`, because `why`.
    pub(crate) fn import(path: &[u8], line: usize, target: &[u8], why: &str) -> Self {
        Self::new(
            ErrorKind::Import,
            format!("import {}: {why}", display(target)),
            Some(path),
        )
        .at_line(path, line)
    }

    /// This error, met while expanding the directive at `line` of `path`: its message then
    /// starts `PATH:LINE: `, so that every failure of an import says where the directive is.
    pub(crate) fn at_line(mut self, path: &[u8], line: usize) -> Self {
        self.message = format!("{}:{line}: {}", display(path), self.message);
        self
    }

    /// The kind of failure.
    pub fn kind(&self) -> ErrorKind {
        self.kind
    }

    /// The message, naming the path where there is one.
    pub fn message(&self) -> &str {
        &self.message
    }

    /// The path the failure concerns, when there is one.
    pub fn path(&self) -> Option<&Path> {
        self.path.as_deref()
    }

    /// The OS `errno`, for an [`ErrorKind::Io`] error that has one.
    pub fn os_code(&self) -> Option<i32> {
        self.source.as_ref().and_then(io::Error::raw_os_error)
    }
}

impl From<Error> for io::Error {
    fn from(error: Error) -> Self {
        let kind = match (&error.source, error.kind) {
            (Some(source), _) => source.kind(),
            (None, ErrorKind::InvalidArgument) => io::ErrorKind::InvalidInput,
            (None, ErrorKind::TooLarge) => io::ErrorKind::InvalidData,
            (None, _) => io::ErrorKind::Other,
        };
        io::Error::new(kind, error)
    }
}

/// A path as text for a message: bytes that are not UTF-8 become U+FFFD.
pub(crate) fn display(path: &[u8]) -> String {
    String::from_utf8_lossy(path).into_owned()
}
