//! What a chain returns (SPEC §1 "Omitted", §5.1, §5.7).

use std::path::PathBuf;

use crate::import::Import;
use crate::path;
use crate::render::Instruction;
use crate::rules::Available;
#[cfg(doc)]
use crate::{chain, Options};

/// Where a file of the result comes from (SPEC §5.1).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Source {
    /// One of [`Options::extra`].
    Extra,
    /// A directory of the walk's file.
    Chain,
    /// A file of a fragment directory of a directory of the walk ([`Options::fragments`]).
    Fragment,
    /// An overlay directory's file or one of its fragments ([`Options::overlays`]).
    Overlay,
    /// A rule file of a rule directory ([`Options::rules`], SPEC §11).
    Rule,
}

impl Source {
    /// The word SPEC §5.1 and the CLI's JSON (§7) use, e.g. `fragment`.
    pub fn as_str(self) -> &'static str {
        match self {
            Source::Extra => "extra",
            Source::Chain => "chain",
            Source::Fragment => "fragment",
            Source::Overlay => "overlay",
            Source::Rule => "rule",
        }
    }
}

/// One instruction file, read verbatim.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct File {
    /// The absolute OS path, or the name in the custom file system for a file of the chain.
    pub path: PathBuf,
    /// The bytes read.
    pub content: Vec<u8>,
    /// Where it comes from.
    pub source: Source,
}

impl Instruction for File {
    fn path(&self) -> &[u8] {
        path::bytes(&self.path)
    }
    fn content(&self) -> &[u8] {
        &self.content
    }
}

/// Why a file found was left out.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Reason {
    /// It, or a file before it, would have passed `budget` or `rendered_budget` (SPEC §1).
    OverBudget,
    /// An earlier name of `names` stands for the same directory.
    Shadowed,
    /// Under [`Options::confine`]: a link leading out of `root`, through which nothing was read.
    Escapes,
    /// Already in the result, so not read again (SPEC §5.3, §5.4).
    Duplicate,
    /// With [`Options::nearest`]: a directory's file other than the nearest one, `by`; not read.
    Superseded,
    /// With [`Options::preset`]: dropped as the product drops it, empty or whitespace only, or
    /// unreadable as its text (SPEC §12).
    Empty,
    /// With [`Options::preset`]: cut as the product cuts it; the file is also in the result with
    /// its cut text, and `size` is the bytes left out (SPEC §12).
    Truncated,
}

impl Reason {
    /// The word the CLI's JSON uses (SPEC §7), e.g. `over_budget`: its [`Outcome`]'s.
    pub fn as_str(self) -> &'static str {
        Outcome::from(self).as_str()
    }
}

/// A file found and not included.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct Omitted {
    /// The file's path, its stable key.
    pub path: PathBuf,
    /// The bytes read of a file left out over budget once read, 0 for [`Reason::Escapes`], else
    /// the size the file system reported.
    pub size: u64,
    /// Why it was left out.
    pub reason: Reason,
    /// The file that took its place ([`Reason::Shadowed`], [`Reason::Superseded`]); the file
    /// whose directive imported it, or its own path, for [`Reason::Duplicate`].
    pub by: Option<PathBuf>,
}

/// What [`chain`] found: the files that apply (SPEC §5.1), and every file left out.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
#[non_exhaustive]
pub struct Chain {
    /// The files to include, in the order of SPEC §5.1.
    pub files: Vec<File>,
    /// The files found and not included.
    pub omitted: Vec<Omitted>,
    /// With [`Options::imports`]: each directive expanded into a kept file, in the order met.
    pub imports: Vec<Import>,
    /// With [`Options::report`]: every place looked at, in the order looked at.
    pub probes: Vec<Probe>,
    /// With [`Options::rules`]: the rules that apply only on request (SPEC §11), in order.
    pub available: Vec<Available>,
    /// With [`Options::rules`]: what a rule file could not be read as, each `PATH: message`.
    pub warnings: Vec<String>,
}

/// One place the walk looked at, with [`Options::report`] ([`Chain::probes`]).
///
/// ```
/// let dir = tempfile::tempdir()?;
/// std::fs::write(dir.path().join("AGENTS.md"), "rules\n")?;
/// let options = agentsmd_core::Options::new().root(dir.path()).report(true);
/// let chain = agentsmd_core::chain(dir.path().join("main.rs"), &options)?;
/// assert_eq!(chain.probes[0].path, dir.path().join("AGENTS.md"));
/// assert_eq!(chain.probes[0].outcome, agentsmd_core::Outcome::Included);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub struct Probe {
    /// The path looked at: a file's, a fragment directory's, or a directory's of the walk.
    pub path: PathBuf,
    /// The source a file found there has (for an import, its top-level file's).
    pub source: Source,
    /// What was found.
    pub outcome: Outcome,
}

/// What a [`Probe`] found.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Outcome {
    /// A file of the result.
    Included,
    /// Omitted as [`Reason::Shadowed`].
    Shadowed,
    /// Omitted as [`Reason::OverBudget`].
    OverBudget,
    /// Omitted as [`Reason::Superseded`].
    Superseded,
    /// Omitted as [`Reason::Duplicate`], or an import that was already in the result.
    Duplicate,
    /// A link leading out of root under confinement.
    Escapes,
    /// Nothing there.
    NotFound,
    /// No regular file, or a fragment directory that is no directory (SPEC §5.8).
    NotAFile,
    /// A fragment directory, listed.
    Listed,
    /// An import target read into a top-level file (also one then left out over budget).
    Imported,
    /// A glob rule that the path does not match (SPEC §11).
    NotMatched,
    /// A rule that applies only on request ([`Chain::available`]).
    Available,
    /// Omitted as [`Reason::Empty`].
    Empty,
    /// Omitted as [`Reason::Truncated`].
    Truncated,
}

impl Outcome {
    /// The word SPEC §5.7 uses, e.g. `not_a_file`.
    pub fn as_str(self) -> &'static str {
        match self {
            Outcome::Included => "included",
            Outcome::Shadowed => "shadowed",
            Outcome::OverBudget => "over_budget",
            Outcome::Superseded => "superseded",
            Outcome::Duplicate => "duplicate",
            Outcome::Escapes => "escapes",
            Outcome::NotFound => "not_found",
            Outcome::NotAFile => "not_a_file",
            Outcome::Listed => "listed",
            Outcome::Imported => "imported",
            Outcome::NotMatched => "not_matched",
            Outcome::Available => "available",
            Outcome::Empty => "empty",
            Outcome::Truncated => "truncated",
        }
    }
}

impl From<Reason> for Outcome {
    fn from(reason: Reason) -> Self {
        match reason {
            Reason::OverBudget => Outcome::OverBudget,
            Reason::Shadowed => Outcome::Shadowed,
            Reason::Escapes => Outcome::Escapes,
            Reason::Duplicate => Outcome::Duplicate,
            Reason::Superseded => Outcome::Superseded,
            Reason::Empty => Outcome::Empty,
            Reason::Truncated => Outcome::Truncated,
        }
    }
}
