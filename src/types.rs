//! The plain C types: status codes, byte slices and the views a result hands out.

use std::os::unix::ffi::OsStrExt;
use std::path::Path;

use agentsmd_core::Reason;

/// What a fallible function did. Values are fixed and never reused; the failures are also the
/// kinds of an `agentsmd_error`.
#[repr(u32)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum agentsmd_status {
    /// Success: the outputs are written.
    Ok = 0,
    /// A bad name, a path outside root, an invalid FS name, a NULL pointer, a bad index, or an
    /// extra path that is not a regular file.
    InvalidArgument = 1,
    /// A file read more than `max_bytes`.
    TooLarge = 2,
    /// The OS file system failed; `agentsmd_error_os_code` has the errno.
    Io = 3,
    /// A custom file system's callback failed or answered nonsense.
    Fs = 4,
    /// A bug in the library, caught before it could unwind into C.
    Panic = 5,
    /// An import directive that cannot be expanded: its message starts `PATH:LINE: `.
    Import = 6,
}

/// Why a file found was left out.
#[repr(u32)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum agentsmd_reason {
    /// The file, or one before it, would have gone over `budget` or `rendered_budget`.
    OverBudget = 1,
    /// An earlier name stands for the same directory; `by` is its path.
    Shadowed = 2,
    /// With confinement on (`agentsmd_options_set_confine`): a symbolic link that leads out of
    /// the root, so nothing was read through it. Either an instruction file's name (the next
    /// name is tried for its directory) or a directory of the walk (its files and the
    /// directories below it were not looked up). `size` is 0.
    Escapes = 3,
    /// With imports on (`agentsmd_options_set_imports`): already imported into an earlier file
    /// of the result, by the file `by`; not read.
    Duplicate = 4,
    /// With `agentsmd_options_set_nearest`: a directory's file other than the nearest one,
    /// `by`; not read.
    Superseded = 5,
}

impl From<Reason> for agentsmd_reason {
    fn from(reason: Reason) -> Self {
        match reason {
            Reason::OverBudget => Self::OverBudget,
            Reason::Shadowed => Self::Shadowed,
            Reason::Escapes => Self::Escapes,
            Reason::Duplicate => Self::Duplicate,
            Reason::Superseded => Self::Superseded,
            // The core's reasons are non-exhaustive; a new one needs its own value here, and
            // until it has one the call fails as the bug it is (caught at the boundary).
            other => unreachable!("no agentsmd_reason for {other:?}"),
        }
    }
}

/// A byte string: `len` bytes at `ptr`, not NUL-terminated, possibly holding NUL. `ptr` may be
/// NULL only when `len` is 0.
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct agentsmd_bytes {
    /// The first byte.
    pub ptr: *const u8,
    /// How many bytes.
    pub len: usize,
}

impl agentsmd_bytes {
    /// No bytes, at a pointer that is not NULL.
    pub(crate) const EMPTY: Self = Self::of(b"");

    /// A view of `bytes`, valid while they are.
    pub(crate) const fn of(bytes: &[u8]) -> Self {
        Self {
            ptr: bytes.as_ptr(),
            len: bytes.len(),
        }
    }

    /// A view of the bytes of `path`, or no bytes when there is none.
    pub(crate) fn of_optional_path(path: Option<&Path>) -> Self {
        path.map_or(Self::EMPTY, Self::of_path)
    }

    /// A view of the bytes of `path`, valid while it is.
    pub(crate) fn of_path(path: &Path) -> Self {
        Self::of(path.as_os_str().as_bytes())
    }
}

/// One instruction file: as `agentsmd_result_file` hands it out (borrowed from the result), or
/// as a caller builds it for `agentsmd_render` (borrowed from the caller).
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct agentsmd_file {
    /// The path written in the rendering: absolute for an OS file, the name in a custom FS.
    pub path: agentsmd_bytes,
    /// The content, verbatim.
    pub content: agentsmd_bytes,
}

/// One file found and left out, as `agentsmd_result_omitted` hands it out. The byte strings are
/// borrowed from the result.
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct agentsmd_omitted {
    /// The file's path, its stable key.
    pub path: agentsmd_bytes,
    /// The bytes read, for a file read and left out over budget; 0 for
    /// `AGENTSMD_REASON_ESCAPES`; otherwise the reported size.
    pub size: u64,
    /// Why it was left out.
    pub reason: agentsmd_reason,
    /// The path of the file that stands for it, for `AGENTSMD_REASON_SHADOWED` and
    /// `AGENTSMD_REASON_SUPERSEDED`; of the file that imported it first, for
    /// `AGENTSMD_REASON_DUPLICATE`; empty otherwise.
    pub by: agentsmd_bytes,
}
