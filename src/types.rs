//! The plain C types: status codes, byte strings and the views a result hands out, made from
//! the core's types.

use std::path::Path;

use agentsmd_core::fs::Entry;
use agentsmd_core::{Available, Dialect, File, Import, Omitted, Outcome, Probe, Reason, Source};

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
    /// The caller cancelled the chain (`agentsmd_cancel_request`); the message names the path
    /// it was at.
    Aborted = 7,
}

/// Why a file found was left out (SPEC.md §1 "Omitted", §5).
#[repr(u32)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum agentsmd_reason {
    /// The file, or one before it, would have gone over `budget` or `rendered_budget`.
    OverBudget = 1,
    /// An earlier name stands for the same directory; `by` is its path.
    Shadowed = 2,
    /// With confinement on: a symbolic link that leads out of the root, an instruction file's or
    /// a directory's of the walk (whose files and directories below were not looked up).
    Escapes = 3,
    /// Already in the result, so not read again: imported into an earlier file by the file
    /// `by`, or a path that is already a file of the result, `by` being its own path.
    Duplicate = 4,
    /// With nearest-only on: a directory's file other than the nearest one, `by`; not read.
    Superseded = 5,
    /// With a preset: dropped as the product drops it, empty or whitespace only (SPEC.md §12).
    Empty = 6,
    /// With a preset: cut as the product cuts it; the file is also in the result with its cut
    /// text, and `size` is the bytes left out (SPEC.md §12).
    Truncated = 7,
}

/// What a name is, as the `stat` callback reports it in `*kind_out`, after following any link.
#[repr(u32)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum agentsmd_entry_kind {
    /// A regular file: the only kind that can be an instruction file.
    File = 1,
    /// A directory.
    Dir = 2,
    /// Anything else (a FIFO, a socket, a device): never opened.
    Other = 3,
    /// In a batched listing only (`agentsmd_listings_push`): a symbolic link, or any entry
    /// whose kind the listing does not say; the library asks `stat` when it needs to know.
    Link = 4,
}

impl agentsmd_entry_kind {
    /// What a callback's `kind` and `size` say an entry is: `None` for `LINK` (the entry's kind
    /// not said), `Err` for a value that is no kind.
    pub(crate) fn entry(kind: u32, size: u64) -> Result<Option<Entry>, ()> {
        Ok(Some(match kind {
            k if k == Self::File as u32 => Entry::File { size },
            k if k == Self::Dir as u32 => Entry::Dir,
            k if k == Self::Other as u32 => Entry::Other,
            k if k == Self::Link as u32 => return Ok(None),
            _ => return Err(()),
        }))
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
    /// No byte string at all (a NULL pointer), told apart from an empty one.
    pub(crate) const NONE: Self = Self {
        ptr: std::ptr::null(),
        len: 0,
    };

    /// A view of `bytes`, valid while they are.
    pub(crate) const fn of(bytes: &[u8]) -> Self {
        Self {
            ptr: bytes.as_ptr(),
            len: bytes.len(),
        }
    }

    /// A view of the bytes of `path`, valid while it is.
    pub(crate) fn of_path(path: &Path) -> Self {
        Self::of(path.as_os_str().as_encoded_bytes())
    }
}

impl From<&Vec<u8>> for agentsmd_bytes {
    fn from(bytes: &Vec<u8>) -> Self {
        Self::of(bytes)
    }
}

/// One instruction file: of a result (`agentsmd_result_file`), or one a caller built for
/// `agentsmd_render`.
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct agentsmd_file {
    /// The path written in the rendering: absolute for an OS file, the name in a custom FS.
    pub path: agentsmd_bytes,
    /// The content, verbatim.
    pub content: agentsmd_bytes,
}

/// One file found and left out (`agentsmd_result_omitted`).
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
    /// The path of the file that stands for it (`SHADOWED`, `SUPERSEDED`, `DUPLICATE`: see
    /// `agentsmd_reason`); empty otherwise.
    pub by: agentsmd_bytes,
}

/// Where a file of the result comes from (SPEC.md §5.1).
#[repr(u32)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum agentsmd_source {
    /// One of the extra files.
    Extra = 1,
    /// A directory of the walk's file.
    Chain = 2,
    /// A file of a fragment directory of a directory of the walk.
    Fragment = 3,
    /// An overlay directory's file, or a file of its fragment directories.
    Overlay = 4,
    /// A rule file of a rule directory (SPEC.md §11).
    Rule = 5,
}

/// What a place looked at held (SPEC.md §5.7).
#[repr(u32)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum agentsmd_outcome {
    /// A file of the result.
    Included = 1,
    /// Omitted as `AGENTSMD_REASON_SHADOWED`.
    Shadowed = 2,
    /// Omitted as `AGENTSMD_REASON_OVER_BUDGET`.
    OverBudget = 3,
    /// Omitted as `AGENTSMD_REASON_SUPERSEDED`.
    Superseded = 4,
    /// Omitted as `AGENTSMD_REASON_DUPLICATE`, or an import already in the result.
    Duplicate = 5,
    /// A link leading out of the root under confinement.
    Escapes = 6,
    /// Nothing there.
    NotFound = 7,
    /// Something that is no regular file (a directory, a FIFO, a link that dangles), or a
    /// fragment directory that is no directory.
    NotAFile = 8,
    /// A fragment directory, listed.
    Listed = 9,
    /// An import target read into a file of the result (or of one left out over budget).
    Imported = 10,
    /// A glob rule that the path does not match (SPEC.md §11).
    NotMatched = 11,
    /// A rule that applies only on request: `agentsmd_result_available`.
    Available = 12,
    /// Omitted as `AGENTSMD_REASON_EMPTY`.
    Empty = 13,
    /// Omitted as `AGENTSMD_REASON_TRUNCATED`.
    Truncated = 14,
}

/// How a rule directory's files read (SPEC.md §11's table): which product writes them.
#[repr(u32)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum agentsmd_dialect {
    /// Claude Code's `.claude/rules/`, looked up at the root.
    Claude = 1,
    /// Cursor's `.cursor/rules/`, looked up in each directory of the walk.
    Cursor = 2,
    /// GitHub Copilot's `.github/instructions/`, looked up at the root.
    Copilot = 3,
    /// Windsurf's `.windsurf/rules/`, looked up in each directory of the walk.
    Windsurf = 4,
    /// Kiro's `.kiro/steering/`, looked up at the root.
    Kiro = 5,
    /// Cline's `.clinerules/`, looked up at the root.
    Cline = 6,
}

impl agentsmd_dialect {
    /// The core's dialect of the value `dialect`; `None` for a value that is no dialect.
    pub(crate) fn of(dialect: u32) -> Option<Dialect> {
        let dialects = [
            (Self::Claude, Dialect::Claude),
            (Self::Cursor, Dialect::Cursor),
            (Self::Copilot, Dialect::Copilot),
            (Self::Windsurf, Dialect::Windsurf),
            (Self::Kiro, Dialect::Kiro),
            (Self::Cline, Dialect::Cline),
        ];
        let found = dialects.into_iter().find(|&(c, _)| c as u32 == dialect);
        found.map(|(_, core)| core)
    }
}

/// A rule directory (SPEC.md §11), for `agentsmd_options_set_rules`.
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct agentsmd_rule_dir {
    /// An `agentsmd_dialect`.
    pub dialect: u32,
    /// One or more `/`-separated path elements, e.g. `.cursor/rules`.
    pub dir: agentsmd_bytes,
}

/// A rule that applies only on request (SPEC.md §11), which a product can offer the model or
/// the user and give as an extra file; borrowed from its result.
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct agentsmd_available {
    /// The rule file's path.
    pub path: agentsmd_bytes,
    /// Its file name without the dialect's suffix.
    pub name: agentsmd_bytes,
    /// Its front matter's `description`; empty when it has none.
    pub description: agentsmd_bytes,
}

/// One import directive expanded into a file of the result (SPEC.md §5.4 "Provenance").
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct agentsmd_import {
    /// The target: its cleaned OS path, or its name in the custom file system.
    pub path: agentsmd_bytes,
    /// The file holding the directive.
    pub by: agentsmd_bytes,
    /// The directive's line in `by`, 1-based.
    pub line: u64,
    /// The bytes read from the target; 0 for a duplicate, which is not read.
    pub size: u64,
    /// The target's depth: 1 for a directive of a file of the result itself.
    pub depth: u32,
    /// 1 when the target was already in the result, so that the directive expanded to
    /// nothing; 0 otherwise.
    pub duplicate: u32,
}

/// One place the chain looked at (SPEC.md §5.7).
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct agentsmd_probe {
    /// The path looked at: a file's, a fragment directory's, or a directory's of the walk.
    pub path: agentsmd_bytes,
    /// The source a file found there has (for an import, that of the file holding it).
    pub source: agentsmd_source,
    /// What was there.
    pub outcome: agentsmd_outcome,
}

/// `From<$core>` for the C enum `$c`, whose variants have the same names. The core's enums are
/// non-exhaustive: a new variant needs its own value here, and until it has one the call fails
/// as the bug it is (caught at the boundary).
macro_rules! from_core {
    ($core:ident => $c:ident: $($variant:ident),+) => {
        impl From<$core> for $c {
            fn from(value: $core) -> Self {
                match value {
                    $($core::$variant => Self::$variant,)+
                    other => unreachable!("no {} for {other:?}", stringify!($c)),
                }
            }
        }
    };
}

from_core!(
    Reason => agentsmd_reason: OverBudget, Shadowed, Escapes, Duplicate, Superseded, Empty,
    Truncated
);
from_core!(Source => agentsmd_source: Extra, Chain, Fragment, Overlay, Rule);
from_core!(
    Outcome => agentsmd_outcome: Included, Shadowed, OverBudget, Superseded, Duplicate, Escapes,
    NotFound, NotAFile, Listed, Imported, NotMatched, Available, Empty, Truncated
);

impl From<&File> for agentsmd_file {
    fn from(file: &File) -> Self {
        Self {
            path: agentsmd_bytes::of_path(&file.path),
            content: agentsmd_bytes::of(&file.content),
        }
    }
}

impl From<&File> for agentsmd_source {
    fn from(file: &File) -> Self {
        file.source.into()
    }
}

impl From<&Omitted> for agentsmd_omitted {
    fn from(omitted: &Omitted) -> Self {
        let by = omitted.by.as_deref();
        Self {
            path: agentsmd_bytes::of_path(&omitted.path),
            size: omitted.size,
            reason: omitted.reason.into(),
            by: by.map_or(agentsmd_bytes::of(b""), agentsmd_bytes::of_path),
        }
    }
}

impl From<&Import> for agentsmd_import {
    fn from(import: &Import) -> Self {
        Self {
            path: agentsmd_bytes::of_path(&import.path),
            by: agentsmd_bytes::of_path(&import.by),
            line: import.line,
            size: import.size,
            depth: import.depth,
            duplicate: import.duplicate.into(),
        }
    }
}

impl From<&Available> for agentsmd_available {
    fn from(available: &Available) -> Self {
        Self {
            path: agentsmd_bytes::of_path(&available.path),
            name: agentsmd_bytes::of(available.name.as_bytes()),
            description: agentsmd_bytes::of(available.description.as_bytes()),
        }
    }
}

impl From<&String> for agentsmd_bytes {
    fn from(text: &String) -> Self {
        agentsmd_bytes::of(text.as_bytes())
    }
}

impl From<&Probe> for agentsmd_probe {
    fn from(probe: &Probe) -> Self {
        Self {
            path: agentsmd_bytes::of_path(&probe.path),
            source: probe.source.into(),
            outcome: probe.outcome.into(),
        }
    }
}
