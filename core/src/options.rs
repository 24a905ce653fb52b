//! The options of [`chain`](crate::chain) (SPEC.md §1): `None` or empty is the default.

use std::borrow::Cow;
use std::collections::{HashMap, HashSet};
use std::fmt;
use std::path::{Path, PathBuf};
use std::sync::{Arc, OnceLock};

use crate::fs::FileSystem;

/// The file name looked for when no names are given.
pub const DEFAULT_NAME: &str = "AGENTS.md";

/// The most one file may read when no limit is given: 1 MiB.
pub const DEFAULT_MAX_BYTES: u64 = 1 << 20;

/// How deep imports may nest when no depth is given: a directive of a depth-5 file is an error.
pub const DEFAULT_IMPORT_DEPTH: u32 = 5;

/// The most import reads of one chain when no count is given.
pub const DEFAULT_MAX_IMPORTS: u32 = 64;

/// The callback of [`Options::transform`] (SPEC.md §5.5): given a file's path and its content
/// after imports are expanded, it returns the content to use, or a message that becomes the
/// chain's `Fs` error.
pub type TransformFn = dyn Fn(&Path, Vec<u8>) -> Result<Vec<u8>, String> + Send + Sync;

/// A transform of every file of the result that is read (SPEC.md §5.5), shared between the
/// options' clones.
///
/// ```
/// use std::collections::HashMap;
/// use agentsmd_core::Transform;
///
/// let upper = Transform::new(|_, text| Ok(text.to_ascii_uppercase()));
/// let env = Transform::interpolator(HashMap::from([("USER".to_owned(), b"ada".to_vec())]));
/// assert_eq!(env.apply("AGENTS.md".as_ref(), b"${env:USER}".to_vec()).unwrap(), b"ada");
/// # let _ = upper;
/// ```
#[derive(Clone)]
pub struct Transform(Arc<TransformFn>);

impl Transform {
    /// A transform by `f`.
    pub fn new(
        f: impl Fn(&Path, Vec<u8>) -> Result<Vec<u8>, String> + Send + Sync + 'static,
    ) -> Self {
        Self(Arc::new(f))
    }

    /// The interpolator: each `${env:NAME}` whose NAME is a key of `values` replaced by its value
    /// ([`interpolate`](crate::interpolate)). It reads nothing but `values`, never the process
    /// environment.
    pub fn interpolator(values: HashMap<String, Vec<u8>>) -> Self {
        Self::new(move |_, text| Ok(crate::interpolate(&text, &values)))
    }

    /// `content` of the file at `path`, transformed.
    pub fn apply(&self, path: &Path, content: Vec<u8>) -> Result<Vec<u8>, String> {
        (self.0)(path, content)
    }
}

impl fmt::Debug for Transform {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("Transform")
    }
}

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
    /// Fragment directories (SPEC.md §5.2): names relative to each directory of the walk and
    /// of each overlay, each one or more `/`-separated elements valid as [`Options::names`]
    /// are, e.g. `.agents/AGENTS.d`. Their `.md` files follow the directory's own file.
    pub fragments: Vec<Vec<u8>>,
    /// Overlay directories (SPEC.md §5.3): OS paths looked up after the whole walk, each as one
    /// more directory, from the OS and unconfined. Missing ones are skipped. See
    /// [`overlay_dir`](crate::overlay_dir).
    pub overlays: Vec<PathBuf>,
    /// Expand `@include P` and `@P` directives (SPEC.md §5.4).
    pub imports: bool,
    /// How deep imports may nest; `None` or 0 means [`DEFAULT_IMPORT_DEPTH`].
    pub import_depth: Option<u32>,
    /// The most import reads of one chain; `None` or 0 means [`DEFAULT_MAX_IMPORTS`].
    pub max_imports: Option<u32>,
    /// A transform of every file read (SPEC.md §5.5), before the bounds.
    pub transform: Option<Transform>,
    /// Of the files of the directories of the walk, only the nearest is included; the others are
    /// [`Reason::Superseded`](crate::Reason::Superseded) (SPEC.md §5.6).
    pub nearest: bool,
    /// List every place looked at in [`Chain::probes`](crate::Chain::probes) (SPEC.md §5.7).
    pub report: bool,
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

    /// With [`Options::fragments`].
    pub fn fragments<N: AsRef<[u8]>>(mut self, fragments: impl IntoIterator<Item = N>) -> Self {
        self.fragments = fragments.into_iter().map(|n| n.as_ref().to_vec()).collect();
        self
    }

    /// With [`Options::overlays`].
    pub fn overlays<P: Into<PathBuf>>(mut self, overlays: impl IntoIterator<Item = P>) -> Self {
        self.overlays = overlays.into_iter().map(Into::into).collect();
        self
    }

    /// With [`Options::imports`].
    pub fn imports(mut self, imports: bool) -> Self {
        self.imports = imports;
        self
    }

    /// With [`Options::import_depth`].
    pub fn import_depth(mut self, import_depth: u32) -> Self {
        self.import_depth = Some(import_depth);
        self
    }

    /// With [`Options::max_imports`].
    pub fn max_imports(mut self, max_imports: u32) -> Self {
        self.max_imports = Some(max_imports);
        self
    }

    /// With [`Options::transform`].
    pub fn transform(mut self, transform: Transform) -> Self {
        self.transform = Some(transform);
        self
    }

    /// With [`Options::nearest`].
    pub fn nearest(mut self, nearest: bool) -> Self {
        self.nearest = nearest;
        self
    }

    /// With [`Options::report`].
    pub fn report(mut self, report: bool) -> Self {
        self.report = report;
        self
    }

    /// The names looked for: [`Options::names`] without repeats (a name given twice would
    /// otherwise shadow itself), or the default. Borrowed when there is no repeat, the common
    /// case; a few names are compared in a scan, which beats hashing them.
    pub(crate) fn effective_names(&self) -> Cow<'_, [Vec<u8>]> {
        static DEFAULT: OnceLock<[Vec<u8>; 1]> = OnceLock::new();
        if self.names.is_empty() {
            return Cow::Borrowed(DEFAULT.get_or_init(|| [DEFAULT_NAME.as_bytes().to_vec()]));
        }
        let repeats = |names: &[Vec<u8>]| {
            if names.len() <= 16 {
                return names
                    .iter()
                    .enumerate()
                    .any(|(i, n)| names[..i].contains(n));
            }
            let mut seen = HashSet::with_capacity(names.len());
            !names.iter().all(|name| seen.insert(name.as_slice()))
        };
        if !repeats(&self.names) {
            return Cow::Borrowed(&self.names);
        }
        let mut seen = HashSet::with_capacity(self.names.len());
        Cow::Owned(
            self.names
                .iter()
                .filter(|name| seen.insert(name.as_slice()))
                .cloned()
                .collect(),
        )
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
            .field("fragments", &self.fragments)
            .field("overlays", &self.overlays)
            .field("imports", &self.imports)
            .field("import_depth", &self.import_depth)
            .field("max_imports", &self.max_imports)
            .field("transform", &self.transform)
            .field("nearest", &self.nearest)
            .field("report", &self.report)
            .finish()
    }
}
