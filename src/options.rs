//! The options of [`chain`](crate::chain), with the zero values of SPEC.md §1.

use std::collections::HashSet;
use std::fmt;
use std::sync::Arc;

use crate::fs::FileSystem;

use crate::constants::{DEFAULT_MAX_BYTES, DEFAULT_NAME};

/// What [`chain`](crate::chain) looks for and how far it may go. Every field's zero value is
/// the default: `Options::default()` looks for `AGENTS.md` from the file system's root, with no
/// budget and a 1 MiB limit per file, on the OS file system.
#[derive(Clone, Default)]
pub struct Options {
    /// File names looked for in each directory, in order of preference; each one path element.
    /// Empty means `["AGENTS.md"]`.
    pub names: Vec<Vec<u8>>,
    /// The directory the walk stops after. Empty means the file system's root (`/`, or `.` with
    /// a custom file system).
    pub root: Vec<u8>,
    /// OS paths included before the chain, in order. Missing ones are skipped.
    pub extra: Vec<Vec<u8>>,
    /// The most one file may read; more is a `TooLarge` error. Zero means [`DEFAULT_MAX_BYTES`].
    pub max_bytes: u64,
    /// Total bytes of the files returned. Zero means no budget.
    pub budget: u64,
    /// Total bytes of [`render`](crate::render)'s output. Zero means no budget.
    pub rendered_budget: u64,
    /// A custom file system for the path, root and chain; `None` means the OS. `extra` is read
    /// from the OS either way.
    pub fs: Option<Arc<dyn FileSystem>>,
    /// Confinement: no file outside `root` is opened or read. A symbolic link below `root` that
    /// leads out of it — an instruction file's, a directory's on the way, or the path's own, at
    /// any depth, directly or through other links, by an absolute target or by `..` — is not
    /// followed and is reported as [`Reason::Escapes`](crate::Reason::Escapes). Links that stay
    /// inside `root` are followed, except absolute ones, which are refused even when they name
    /// a place inside. `root` itself is resolved as given: the host chose it. A root of `/`
    /// (an empty one included) is an `InvalidArgument` error: confined to `/`, nothing leads out.
    ///
    /// For the OS file system only: a custom file system is confined by what it answers
    /// (SPEC.md §3), and `extra` files are the host's own choice, read as given. Off by default,
    /// where links are followed wherever they lead. See SECURITY.md, "Confinement".
    pub confine: bool,
}

impl Options {
    /// The names looked for: [`Options::names`] without repeats (a name given twice would
    /// otherwise shadow itself), or the default.
    pub(crate) fn effective_names(&self) -> Vec<Vec<u8>> {
        if self.names.is_empty() {
            return vec![DEFAULT_NAME.as_bytes().to_vec()];
        }
        // A set of the names kept so far, borrowed: linear in the names, however many.
        let mut seen: HashSet<&[u8]> = HashSet::with_capacity(self.names.len());
        self.names
            .iter()
            .filter(|name| seen.insert(name.as_slice()))
            .cloned()
            .collect()
    }

    /// The limit of one file: [`Options::max_bytes`], or the default.
    pub(crate) fn effective_max_bytes(&self) -> u64 {
        if self.max_bytes == 0 {
            DEFAULT_MAX_BYTES
        } else {
            self.max_bytes
        }
    }
}

impl fmt::Debug for Options {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Options")
            .field("names", &self.names)
            .field("root", &self.root)
            .field("extra", &self.extra)
            .field("max_bytes", &self.max_bytes)
            .field("budget", &self.budget)
            .field("rendered_budget", &self.rendered_budget)
            .field("fs", &self.fs.as_ref().map(|_| "custom"))
            .field("confine", &self.confine)
            .finish()
    }
}
