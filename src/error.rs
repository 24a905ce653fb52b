//! The one error type: a kind a C caller can switch on, and a message that names the path.

use std::io;

/// What kind of failure an [`Error`] is. The numeric values are the C status codes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ErrorKind {
    /// A bad name, a path outside root, an invalid FS name, a NULL pointer, or an extra
    /// path that is not a regular file.
    InvalidArgument,
    /// A file read more than `max_bytes`.
    TooLarge,
    /// The OS file system failed; [`Error::os_code`] has the `errno`.
    Io,
    /// A custom file system's callback failed or answered nonsense.
    Fs,
    /// An import directive that cannot be expanded (SPEC.md §5.4): its message starts
    /// `PATH:LINE: ` and names the target.
    Import,
    /// A bug: a panic caught at the C boundary.
    Panic,
}

/// The error of every fallible call: a kind, a message naming the path, and the OS error
/// code where the OS gave one.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{message}")]
pub struct Error {
    kind: ErrorKind,
    message: String,
    os_code: Option<i32>,
}

impl Error {
    /// An invalid-argument error with the given message.
    pub fn invalid_argument(message: impl Into<String>) -> Self {
        Self::new(ErrorKind::InvalidArgument, message.into(), None)
    }

    /// A file at `path` read more than `max_bytes` bytes.
    pub fn too_large(path: &[u8], max_bytes: u64) -> Self {
        Self::new(
            ErrorKind::TooLarge,
            format!(
                "read {}: file exceeds size limit of {max_bytes} bytes",
                display(path)
            ),
            None,
        )
    }

    /// The OS failed to `op` (list, stat, open, read) `path`.
    pub fn io(op: &str, path: &[u8], source: &io::Error) -> Self {
        Self::new(
            ErrorKind::Io,
            format!("{op} {}: {source}", display(path)),
            source.raw_os_error(),
        )
    }

    /// Under confinement, `op` found that `path` leads out of `root` through a symbolic link,
    /// though the lookup had found it inside (a link swapped in during the walk): an `Io` error
    /// with the `EXDEV` that `openat2` reports, and nothing read.
    pub(crate) fn escapes(op: &str, path: &[u8], root: &[u8]) -> Self {
        Self::new(
            ErrorKind::Io,
            format!(
                "{op} {}: a symbolic link leads out of root {} (changed during the walk); \
                 nothing was read",
                display(path),
                display(root)
            ),
            Some(libc::EXDEV),
        )
    }

    /// A custom file system failed to `op` `path`, saying `detail`.
    pub fn fs(op: &str, path: &[u8], detail: &str) -> Self {
        Self::new(
            ErrorKind::Fs,
            format!("{op} {}: {detail}", display(path)),
            None,
        )
    }

    /// A panic caught at the C boundary, with its payload's text when it has one.
    pub fn panic(detail: &str) -> Self {
        Self::new(
            ErrorKind::Panic,
            format!("internal error (panic): {detail}"),
            None,
        )
    }

    fn new(kind: ErrorKind, message: String, os_code: Option<i32>) -> Self {
        Self {
            kind,
            message,
            os_code,
        }
    }

    /// The kind of failure.
    pub fn kind(&self) -> ErrorKind {
        self.kind
    }

    /// The message, naming the path where there is one.
    pub fn message(&self) -> &str {
        &self.message
    }

    /// The OS `errno`, for an [`ErrorKind::Io`] error that has one.
    pub fn os_code(&self) -> Option<i32> {
        self.os_code
    }
}

/// A path as text for a message: bytes that are not UTF-8 become U+FFFD.
pub(crate) fn display(path: &[u8]) -> String {
    String::from_utf8_lossy(path).into_owned()
}
