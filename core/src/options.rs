//! The options of [`chain`](crate::chain) (SPEC §1): `None` or empty is the default.

use std::collections::{HashMap, HashSet};
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::{fmt, io};

use crate::cancel::Cancel;
use crate::error::Error;
use crate::fs::FileSystem;
use crate::interpolate::interpolate_within;
use crate::path::{self, Syntax};
use crate::preset::product::Preset;
use crate::rules::RuleDir;

/// The file name looked for when no names are given.
pub const DEFAULT_NAME: &str = "AGENTS.md";

/// The most one file may read when no limit is given: 1 MiB.
pub const DEFAULT_MAX_BYTES: u64 = 1 << 20;

/// How deep imports may nest when no depth is given: a directive of a depth-5 file is an error.
pub const DEFAULT_IMPORT_DEPTH: u32 = 5;

/// The most import reads of one chain when no count is given.
pub const DEFAULT_MAX_IMPORTS: u32 = 64;

/// The callback of [`Options::transform`] (SPEC §5.5): a file's path and content to the content
/// to use, or a message that becomes the chain's `Fs` error.
pub type TransformFn = dyn Fn(&Path, Vec<u8>) -> Result<Vec<u8>, String> + Send + Sync;

/// A transform of every file read (SPEC §5.5), shared between the options' clones.
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

/// What a [`Transform`] runs: the caller's function, or the built-in interpolator.
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

    /// The interpolator ([`interpolate`](crate::interpolate)) of `values`, never the process
    /// environment (SPEC §5.5).
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

    /// [`Transform::apply`] as a chain runs it: the interpolator bounded by `max_bytes`, a
    /// callback's message an `Fs` error.
    pub(crate) fn apply_within(
        &self,
        path: &[u8],
        content: Vec<u8>,
        max_bytes: u64,
    ) -> Result<Vec<u8>, Error> {
        match &self.0 {
            Kind::Callback(f) => f(&path::to_path_buf(path), content)
                .map_err(|message| Error::of_fs("transform", path, io::Error::other(message))),
            Kind::Interpolator(values) => interpolate_within(&content, values, max_bytes, path),
        }
    }
}

impl fmt::Debug for Transform {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("Transform")
    }
}

/// What [`chain`](crate::chain) looks for and how far it may go. `Options::default()` looks for
/// `AGENTS.md` from the OS file system's root, with no budget and a 1 MiB limit per file.
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
    /// File names looked for in each directory, in order of preference; empty means `AGENTS.md`.
    /// A name may be several `/`-separated elements, naming a file below the directory (SPEC §9).
    pub names: Vec<Vec<u8>>,
    /// Every name a directory has is included, in `names` order, none shadowing another
    /// (SPEC §9).
    pub all_names: bool,
    /// The directory the walk stops after (an FS name with [`Options::fs`]); `None` means the
    /// file system's root.
    pub root: Option<PathBuf>,
    /// OS paths included before the chain, in order. Missing ones are skipped.
    pub extra: Vec<PathBuf>,
    /// The most one file may read, else `TooLarge`; `None` means [`DEFAULT_MAX_BYTES`].
    pub max_bytes: Option<u64>,
    /// Total bytes of the files returned. `None` means no budget.
    pub budget: Option<u64>,
    /// Total bytes of [`render`](crate::render)'s output. `None` means no budget.
    pub rendered_budget: Option<u64>,
    /// A custom file system for the path, root and chain (not `extra`); `None` means the OS.
    pub fs: Option<Arc<dyn FileSystem>>,
    /// Confinement (SPEC §3): no file outside `root` is opened or read, for the OS file system
    /// only, not `extra`; a root of `/` is an `InvalidArgument` error. See docs/security.md.
    pub confine: bool,
    /// Fragment directories (SPEC §5.2), relative to each directory, e.g. `.agents/AGENTS.d`.
    pub fragments: Vec<Vec<u8>>,
    /// Rule directories (SPEC §11): each with its dialect, relative to the root or to each
    /// directory of the walk as the dialect says, e.g. `.cursor/rules`.
    pub rules: Vec<RuleDir>,
    /// Overlay directories (SPEC §5.3): OS paths looked up after the whole walk, each as one
    /// more directory; missing ones are skipped. See [`overlay_dir`](crate::overlay_dir).
    pub overlays: Vec<PathBuf>,
    /// Expand `@include P` and `@P` directives (SPEC §5.4).
    pub imports: bool,
    /// How deep imports may nest; 0 (the default value) means [`DEFAULT_IMPORT_DEPTH`].
    pub import_depth: u32,
    /// The most import reads of one chain; 0 (the default value) means [`DEFAULT_MAX_IMPORTS`].
    pub max_imports: u32,
    /// A transform of every file read (SPEC §5.5), before the bounds.
    pub transform: Option<Transform>,
    /// Only the walk's nearest file is included, the others superseded (SPEC §5.6).
    pub nearest: bool,
    /// List every place looked at in [`Chain::probes`](crate::Chain::probes) (SPEC §5.7).
    pub report: bool,
    /// A token that stops the chain once cancelled, with an `Aborted` error (SPEC §4).
    pub cancel: Option<Cancel>,
    /// What a product would load, instead of the chain of SPEC §1 (SPEC §12): see [`Preset`].
    pub preset: Option<Preset>,
    /// The home directory a preset reads a product's global files in; with it, no environment
    /// variable is read. `None` means the caller's (SPEC §12).
    pub home: Option<PathBuf>,
}

/// The builder methods: `$field(value)` sets the field of that name to `$set`.
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
    all_names(all_names: bool) => all_names;
    root(root: impl Into<PathBuf>) => Some(root.into());
    extra(extra: impl IntoIterator<Item = impl Into<PathBuf>>) => paths(extra);
    max_bytes(max_bytes: u64) => Some(max_bytes);
    budget(budget: u64) => Some(budget);
    rendered_budget(rendered_budget: u64) => Some(rendered_budget);
    fs(fs: Arc<dyn FileSystem>) => Some(fs);
    confine(confine: bool) => confine;
    fragments(fragments: impl IntoIterator<Item = impl AsRef<[u8]>>) => byte_strings(fragments);
    rules(rules: Vec<RuleDir>) => rules;
    overlays(overlays: impl IntoIterator<Item = impl Into<PathBuf>>) => paths(overlays);
    imports(imports: bool) => imports;
    import_depth(import_depth: u32) => import_depth;
    max_imports(max_imports: u32) => max_imports;
    transform(transform: Transform) => Some(transform);
    nearest(nearest: bool) => nearest;
    report(report: bool) => report;
    cancel(cancel: Cancel) => Some(cancel);
    preset(preset: Preset) => Some(preset);
    home(home: impl Into<PathBuf>) => Some(home.into());
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

    /// [`Options::names`] without repeats (a name would shadow itself), or the default.
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

    /// The OS root of a chain at the clean absolute OS path `path` (SPEC §1, §8.2).
    pub(crate) fn os_root(&self, path: &[u8]) -> Result<Vec<u8>, Error> {
        let root = match &self.root {
            Some(root) => path::absolute_bytes(root)?,
            None => Syntax::OS.root(path).unwrap_or(path::OS_ROOT.to_vec()),
        };
        path::check_path_length(&root, "root")?;
        if self.confine && (root.is_empty() || Syntax::OS.root(&root).is_some_and(|r| r == root)) {
            return Err(Error::invalid_argument(match Syntax::OS {
                Syntax::Unix => {
                    "confine: the root is /, and confinement to / confines nothing; give a root"
                }
                Syntax::Windows => {
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
