//! The options of [`chain`](crate::chain) (SPEC.md §1): `None` or empty is the default.

use std::collections::HashSet;
use std::fmt;
use std::path::PathBuf;
use std::sync::Arc;

use crate::fs::FileSystem;

/// The file name looked for when no names are given.
pub const DEFAULT_NAME: &str = "AGENTS.md";

/// The most one file may read when no limit is given: 1 MiB.
pub const DEFAULT_MAX_BYTES: u64 = 1 << 20;

/// What [`chain`](crate::chain) looks for and how far it may go. `Options::default()` looks for
/// `AGENTS.md` from the file system's root, with no budget and a 1 MiB limit per file, on the OS
/// file system.
///
/// Set fields directly, or build:
/// ```
/// let options = agentsmd_core::Options::new()
///     .names(["AGENTS.override.md", "AGENTS.md"])
///     .root("/work/repo")
///     .budget(32 << 10);
/// assert_eq!(options.budget, Some(32 << 10));
/// ```
#[derive(Clone, Default)]
#[non_exhaustive]
pub struct Options {
    /// File names looked for in each directory, in order of preference; each one path element.
    /// Empty means `["AGENTS.md"]`.
    pub names: Vec<Vec<u8>>,
    /// The directory the walk stops after: an OS path, or an FS name with a custom file system.
    /// `None` means the file system's root (`/`, or `.` with a custom file system).
    pub root: Option<PathBuf>,
    /// OS paths included before the chain, in order. Missing ones are skipped.
    pub extra: Vec<PathBuf>,
    /// The most one file may read; more is a `TooLarge` error. `None` means
    /// [`DEFAULT_MAX_BYTES`].
    pub max_bytes: Option<u64>,
    /// Total bytes of the files returned. `None` means no budget.
    pub budget: Option<u64>,
    /// Total bytes of [`render`](crate::render)'s output. `None` means no budget.
    pub rendered_budget: Option<u64>,
    /// A custom file system for the path, root and chain; `None` means the OS. `extra` is read
    /// from the OS either way.
    pub fs: Option<Arc<dyn FileSystem>>,
    /// Confinement: no file outside `root` is opened or read. A symbolic link below `root` that
    /// leads out of it — by an absolute target (refused even when it names a place inside) or by
    /// `..` — is not followed and is reported as [`Reason::Escapes`](crate::Reason::Escapes).
    /// `root` itself is resolved as given: the host chose it. A root of `/` is an
    /// `InvalidArgument` error: confinement to `/` confines nothing.
    ///
    /// For the OS file system only: a custom file system is confined by what it answers
    /// (SPEC.md §3), and `extra` files are the host's own choice. See SECURITY.md.
    pub confine: bool,
}

impl Options {
    /// The defaults: `Options::default()`.
    pub fn new() -> Self {
        Self::default()
    }

    /// With [`Options::names`].
    pub fn names<N: AsRef<[u8]>>(mut self, names: impl IntoIterator<Item = N>) -> Self {
        self.names = names.into_iter().map(|n| n.as_ref().to_vec()).collect();
        self
    }

    /// With [`Options::root`].
    pub fn root(mut self, root: impl Into<PathBuf>) -> Self {
        self.root = Some(root.into());
        self
    }

    /// With [`Options::extra`].
    pub fn extra<P: Into<PathBuf>>(mut self, extra: impl IntoIterator<Item = P>) -> Self {
        self.extra = extra.into_iter().map(Into::into).collect();
        self
    }

    /// With [`Options::max_bytes`].
    pub fn max_bytes(mut self, max_bytes: u64) -> Self {
        self.max_bytes = Some(max_bytes);
        self
    }

    /// With [`Options::budget`].
    pub fn budget(mut self, budget: u64) -> Self {
        self.budget = Some(budget);
        self
    }

    /// With [`Options::rendered_budget`].
    pub fn rendered_budget(mut self, rendered_budget: u64) -> Self {
        self.rendered_budget = Some(rendered_budget);
        self
    }

    /// With [`Options::fs`].
    pub fn fs(mut self, fs: Arc<dyn FileSystem>) -> Self {
        self.fs = Some(fs);
        self
    }

    /// With [`Options::confine`].
    pub fn confine(mut self, confine: bool) -> Self {
        self.confine = confine;
        self
    }

    /// The names looked for: [`Options::names`] without repeats (a name given twice would
    /// otherwise shadow itself), or the default.
    pub(crate) fn effective_names(&self) -> Vec<Vec<u8>> {
        if self.names.is_empty() {
            return vec![DEFAULT_NAME.as_bytes().to_vec()];
        }
        let mut seen = HashSet::with_capacity(self.names.len());
        self.names
            .iter()
            .filter(|name| seen.insert(name.as_slice()))
            .cloned()
            .collect()
    }

    /// The limit of one file.
    pub(crate) fn effective_max_bytes(&self) -> u64 {
        self.max_bytes.unwrap_or(DEFAULT_MAX_BYTES)
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
