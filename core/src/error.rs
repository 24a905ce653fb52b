//! The crate's one error type, in walkdir's shape: a kind to match on, the path it concerns (and
//! the line, for an import directive), the error beneath it, and a message that names the path.

use std::io;
use std::path::{Path, PathBuf};

use crate::path::wtf8::to_path_buf;
#[cfg(windows)]
use windows_sys::Win32::Foundation::{ERROR_NOT_ENOUGH_MEMORY, ERROR_NOT_SAME_DEVICE};

/// What kind of failure an [`Error`] is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum ErrorKind {
    /// A bad name or FS name, a path outside root, an extra that is no file, confinement to `/`.
    InvalidArgument,
    /// A file read more than `max_bytes`.
    TooLarge,
    /// The OS file system failed, or memory could not be had ([`Error::io_error`]).
    Io,
    /// A custom file system failed or answered nonsense; [`Error::io_error`] is its error.
    Fs,
    /// An import directive could not be expanded (SPEC §5.4).
    Import,
    /// The caller cancelled the chain ([`Options::cancel`](crate::Options::cancel)) at the path.
    Aborted,
}

/// The error of every fallible call. Its message keeps a path's bytes as they are on disk
/// ([`Error::message`]); its `Display` shows them as text, bytes that are not UTF-8 as U+FFFD.
#[derive(Debug, thiserror::Error)]
#[error("{}", String::from_utf8_lossy(.message))]
pub struct Error {
    kind: ErrorKind,
    message: Vec<u8>,
    path: Option<PathBuf>,
    line: Option<u64>,
    #[source]
    source: Option<io::Error>,
}

impl Error {
    fn new(
        kind: ErrorKind,
        message: Vec<u8>,
        path: Option<&[u8]>,
        source: Option<io::Error>,
    ) -> Self {
        Self {
            kind,
            message,
            path: path.map(to_path_buf),
            line: None,
            source,
        }
    }

    /// An invalid argument, said by `message` (text, or bytes naming a path as it is).
    pub(crate) fn invalid_argument(message: impl Into<Vec<u8>>) -> Self {
        Self::new(ErrorKind::InvalidArgument, message.into(), None, None)
    }

    /// The file at `path` read more than `max_bytes` bytes.
    pub(crate) fn too_large(path: &[u8], max_bytes: u64) -> Self {
        let why = format!(": file exceeds size limit of {max_bytes} bytes");
        let message = [b"read ", path, why.as_bytes()].concat();
        Self::new(ErrorKind::TooLarge, message, Some(path), None)
    }

    /// The OS failed to `op` (list, stat, open, read) `path` with `source`, which the message
    /// ends with.
    pub(crate) fn io(op: &str, path: &[u8], source: io::Error) -> Self {
        let message = [op.as_bytes(), b" ", path, format!(": {source}").as_bytes()].concat();
        Self::new(ErrorKind::Io, message, Some(path), Some(source))
    }

    /// [`Error::io`] beneath a confined root: [`escaped_error`] says that a link swapped in
    /// during the walk leads out of root, and nothing was read.
    pub(crate) fn confined(op: &str, path: &[u8], source: io::Error) -> Self {
        if source.raw_os_error() != escaped_error().raw_os_error() {
            return Self::io(op, path, source);
        }
        let why = ": a symbolic link leads out of root (changed during the walk); nothing was read";
        let message = [op.as_bytes(), b" ", path, why.as_bytes()].concat();
        Self::new(ErrorKind::Io, message, Some(path), Some(source))
    }

    /// A custom file system failed to `op` `path` with `source`.
    pub(crate) fn of_fs(op: &str, path: &[u8], source: io::Error) -> Self {
        let mut error = Self::io(op, path, source);
        error.kind = ErrorKind::Fs;
        error
    }

    /// The directive at `line` of `path` cannot import `target`, because `why`.
    pub(crate) fn import(path: &[u8], line: usize, target: &[u8], why: &[u8]) -> Self {
        let message = [b"import ", target, b": ", why].concat();
        Self::new(ErrorKind::Import, message, Some(path), None).at_line(path, line)
    }

    /// This error, met while expanding the directive at `line` of `path`: its message then
    /// starts `PATH:LINE: `, and [`Error::path`] and [`Error::line`] are where the directive is.
    fn at_line(mut self, path: &[u8], line: usize) -> Self {
        let at = format!(":{line}: ");
        self.message = [path, at.as_bytes(), &self.message].concat();
        self.path = Some(to_path_buf(path));
        self.line = Some(line as u64);
        self
    }

    /// This error, met reading `target`, imported at `line` of `path`, as an `Import` error
    /// (SPEC §5.4); a `TooLarge` and memory the library cannot get keep their kind (SPEC §4).
    pub(crate) fn in_import(self, path: &[u8], line: usize, target: &[u8]) -> Self {
        let no_memory = self.os_code() == out_of_memory().raw_os_error();
        if self.kind == ErrorKind::TooLarge || no_memory {
            return self.at_line(path, line);
        }
        let message = [b"import ", target, b": ", &self.message].concat();
        Self::new(ErrorKind::Import, message, Some(path), self.source).at_line(path, line)
    }

    /// The chain was cancelled, at `path`, before asking its file system about it.
    pub(crate) fn aborted(path: &[u8]) -> Self {
        let message = [b"cancelled at ", path].concat();
        Self::new(ErrorKind::Aborted, message, Some(path), None)
    }

    /// The kind of failure.
    pub fn kind(&self) -> ErrorKind {
        self.kind
    }

    /// The message, naming the path where there is one with its bytes as they are; everything
    /// else in it is UTF-8 text.
    pub fn message(&self) -> &[u8] {
        &self.message
    }

    /// The path the failure concerns, if any: for an import directive's, the file holding it.
    pub fn path(&self) -> Option<&Path> {
        self.path.as_deref()
    }

    /// For a failure met expanding an import directive, its 1-based line in [`Error::path`].
    pub fn line(&self) -> Option<u64> {
        self.line
    }

    /// The error beneath this one, if any (the OS's, a custom file system's or transform's).
    pub fn io_error(&self) -> Option<&io::Error> {
        self.source.as_ref()
    }

    /// The OS `errno` of [`Error::io_error`], if any.
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

/// `bytes` in double quotes, as they are, for a message that names a name or a path.
pub(crate) fn quoted(bytes: &[u8]) -> Vec<u8> {
    [&b"\""[..], bytes, b"\""].concat()
}

/// The error of memory the library cannot get (SPEC §4): `ENOMEM`, or its Windows twin.
pub(crate) fn out_of_memory() -> io::Error {
    #[cfg(unix)]
    return rustix::io::Errno::NOMEM.into();
    #[cfg(windows)]
    return io::Error::from_raw_os_error(ERROR_NOT_ENOUGH_MEMORY as i32);
}

/// The OS error of a confined resolution that would leave the root: `EXDEV`, or its Windows twin.
pub(crate) fn escaped_error() -> io::Error {
    #[cfg(unix)]
    return rustix::io::Errno::XDEV.into();
    #[cfg(windows)]
    return io::Error::from_raw_os_error(ERROR_NOT_SAME_DEVICE as i32);
}
