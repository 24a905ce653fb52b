//! The report of every place a chain looked at (SPEC.md §5.7, option `report`).

use std::path::PathBuf;

use crate::chain::Source;

/// One place the walk looked at, with [`Options::report`](crate::Options::report), in the order
/// looked at ([`Chain::probes`](crate::Chain::probes)).
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
    /// Omitted as [`Reason::Shadowed`](crate::Reason::Shadowed).
    Shadowed,
    /// Omitted as [`Reason::OverBudget`](crate::Reason::OverBudget).
    OverBudget,
    /// Omitted as [`Reason::Superseded`](crate::Reason::Superseded).
    Superseded,
    /// Omitted as [`Reason::Duplicate`](crate::Reason::Duplicate), or an import that was
    /// already in the result.
    Duplicate,
    /// A link leading out of root under confinement.
    Escapes,
    /// Nothing there.
    NotFound,
    /// Something that is no file: a directory, a FIFO, a link that dangles, loops or runs
    /// through a non-directory; or a fragment directory that is no directory.
    NotAFile,
    /// A fragment directory, listed.
    Listed,
    /// An import target read into a top-level file (also one then left out over budget).
    Imported,
}

impl Outcome {
    /// The word SPEC.md §5.7 uses: `included`, `shadowed`, `over_budget`, `superseded`,
    /// `duplicate`, `escapes`, `not_found`, `not_a_file`, `listed`, `imported`.
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
        }
    }
}
