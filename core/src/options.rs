//! The options of [`chain`](crate::chain) (SPEC.md §1): `None` or empty is the default.

use std::collections::{HashMap, HashSet};
use std::fmt;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use crate::cancel::Cancel;
use crate::error::Error;
use crate::fs::FileSystem;
use crate::interpolate::{interpolate_within, Stop};

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
pub struct Transform(Kind);

/// What a [`Transform`] runs: the caller's function, or the built-in interpolator, which a
/// chain bounds by its `max_bytes` ([`Transform::apply_within`]).
#[derive(Clone)]
enum Kind {
    Callback(Arc<TransformFn>),
    Interpolator(Arc<HashMap<String, Vec<u8>>>),
}

impl Transform {
    /// A transform by `f`.
    pub fn new(
        f: impl Fn(&Path, Vec<u8>) -> Result<Vec<u8>, String> + Send + Sync + 'static,
    ) -> Self {
        Self(Kind::Callback(Arc::new(f)))
    }

    /// The interpolator: each `${env:NAME}` whose NAME is a key of `values` replaced by its value
    /// ([`interpolate`](crate::interpolate)). It reads nothing but `values`, never the process
    /// environment. In a chain it stops with a `TooLarge` error naming the file as soon as its
    /// output passes `max_bytes` (SPEC.md §5.5).
    pub fn interpolator(values: HashMap<String, Vec<u8>>) -> Self {
        Self(Kind::Interpolator(Arc::new(values)))
    }

    /// `content` of the file at `path`, transformed.
    pub fn apply(&self, path: &Path, content: Vec<u8>) -> Result<Vec<u8>, String> {
        match &self.0 {
            Kind::Callback(f) => f(path, content),
            Kind::Interpolator(values) => Ok(crate::interpolate(&content, values)),
        }
    }

    /// [`Transform::apply`] as a chain runs it on the file at `path`, whose bytes are
    /// `path_bytes`, with its `max_bytes`: the interpolator stops as soon as its output passes
    /// `max_bytes` (`TooLarge`), and memory it cannot get is an `Io` error (`ENOMEM`); a
    /// callback's message is the chain's `Fs` error.
    pub(crate) fn apply_within(
        &self,
        path: &[u8],
        content: Vec<u8>,
        max_bytes: u64,
    ) -> Result<Vec<u8>, Error> {
        match &self.0 {
            Kind::Callback(f) => f(&crate::path::to_path_buf(path), content)
                .map_err(|message| Error::fs("transform", path, &message)),
            Kind::Interpolator(values) => {
                interpolate_within(&content, values, max_bytes).map_err(|stop| match stop {
                    Stop::TooLarge => Error::too_large(path, max_bytes),
                    Stop::NoMemory => Error::io("transform", path, crate::error::out_of_memory()),
                })
            }
        }
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
#[derive(Clone, Debug, Default)]
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
    /// (SPEC.md §3), and `extra` files are the host's own choice. See docs/security.md.
    pub confine: bool,
    /// Fragment directories (SPEC.md §5.2): names relative to each directory of the walk and
    /// of each overlay, each one or more `/`-separated elements valid as [`Options::names`]
    /// are, e.g. `.agents/AGENTS.d`. Their `.md` files follow the directory's own file.
    pub fragments: Vec<Vec<u8>>,
    /// Overlay directories (SPEC.md §5.3): OS paths looked up after the whole walk, each as one
    /// more directory, from the OS even with [`Options::fs`]. One outside the root is not
    /// confined (the host's choice, as `extra` is); with [`Options::confine`], one inside the
    /// root is confined as the walk is. Missing ones are skipped. See
    /// [`overlay_dir`](crate::overlay_dir).
    pub overlays: Vec<PathBuf>,
    /// Expand `@include P` and `@P` directives (SPEC.md §5.4).
    pub imports: bool,
    /// How deep imports may nest; 0 (the default value) means [`DEFAULT_IMPORT_DEPTH`].
    pub import_depth: u32,
    /// The most import reads of one chain; 0 (the default value) means [`DEFAULT_MAX_IMPORTS`].
    pub max_imports: u32,
    /// A transform of every file read (SPEC.md §5.5), before the bounds.
    pub transform: Option<Transform>,
    /// Of the files of the directories of the walk, only the nearest is included; the others are
    /// [`Reason::Superseded`](crate::Reason::Superseded) (SPEC.md §5.6).
    pub nearest: bool,
    /// List every place looked at in [`Chain::probes`](crate::Chain::probes) (SPEC.md §5.7).
    pub report: bool,
    /// A token that stops the chain between two questions to its file system once cancelled
    /// (SPEC.md §4): an [`Aborted`](crate::ErrorKind::Aborted) error. `None` means it runs to
    /// its end.
    pub cancel: Option<Cancel>,
}

/// The builder methods: `$field(value)` sets [`Options`]'s field of that name to `$set`.
macro_rules! builders {
    ($($field:ident($value:ident: $type:ty) => $set:expr;)*) => {
        impl Options {
            $(
                #[doc = concat!("With [`Options::", stringify!($field), "`].")]
                pub fn $field(mut self, $value: $type) -> Self {
                    self.$field = $set;
                    self
                }
            )*
        }
    };
}

builders! {
    names(names: impl IntoIterator<Item = impl AsRef<[u8]>>) => byte_strings(names);
    root(root: impl Into<PathBuf>) => Some(root.into());
    extra(extra: impl IntoIterator<Item = impl Into<PathBuf>>) => paths(extra);
    max_bytes(max_bytes: u64) => Some(max_bytes);
    budget(budget: u64) => Some(budget);
    rendered_budget(rendered_budget: u64) => Some(rendered_budget);
    fs(fs: Arc<dyn FileSystem>) => Some(fs);
    confine(confine: bool) => confine;
    fragments(fragments: impl IntoIterator<Item = impl AsRef<[u8]>>) => byte_strings(fragments);
    overlays(overlays: impl IntoIterator<Item = impl Into<PathBuf>>) => paths(overlays);
    imports(imports: bool) => imports;
    import_depth(import_depth: u32) => import_depth;
    max_imports(max_imports: u32) => max_imports;
    transform(transform: Transform) => Some(transform);
    nearest(nearest: bool) => nearest;
    report(report: bool) => report;
    cancel(cancel: Cancel) => Some(cancel);
}

fn byte_strings(items: impl IntoIterator<Item = impl AsRef<[u8]>>) -> Vec<Vec<u8>> {
    items.into_iter().map(|n| n.as_ref().to_vec()).collect()
}

fn paths(items: impl IntoIterator<Item = impl Into<PathBuf>>) -> Vec<PathBuf> {
    items.into_iter().map(Into::into).collect()
}

impl Options {
    /// The defaults: `Options::default()`.
    pub fn new() -> Self {
        Self::default()
    }

    /// The names looked for: [`Options::names`] without repeats (a name given twice would
    /// otherwise shadow itself), or the default.
    pub(crate) fn effective_names(&self) -> Vec<Vec<u8>> {
        if self.names.is_empty() {
            return vec![DEFAULT_NAME.as_bytes().to_vec()];
        }
        let mut seen = HashSet::new();
        self.names
            .iter()
            .filter(|name| seen.insert(name.as_slice()))
            .cloned()
            .collect()
    }

    /// The OS root of a chain at the OS path `path` (absolute and clean; SPEC.md §1, §8.2):
    /// [`Options::root`] made absolute and clean, or the root of `path` (`/`, `C:\`); one over
    /// 4,096 bytes is an invalid argument, and so is confinement to a root, which confines
    /// nothing.
    pub(crate) fn os_root(&self, path: &[u8]) -> Result<Vec<u8>, crate::Error> {
        let root = match &self.root {
            Some(root) => crate::path::absolute_bytes(root)?,
            None => crate::path::root_of(path),
        };
        crate::path::check_path_length(&root, "root")?;
        if self.confine && (crate::path::is_root(&root) || root.is_empty()) {
            return Err(Error::invalid_argument(match crate::path::Syntax::OS {
                crate::path::Syntax::Unix => {
                    "confine: the root is /, and confinement to / confines nothing; give a root"
                }
                crate::path::Syntax::Windows => {
                    "confine: the root is a drive's or share's root, and confinement to it \
                     confines nothing; give a root"
                }
            }));
        }
        Ok(root)
    }

    /// The limit of one file.
    pub(crate) fn effective_max_bytes(&self) -> u64 {
        self.max_bytes.unwrap_or(DEFAULT_MAX_BYTES)
    }
}
