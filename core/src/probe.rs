//! The report of every place a chain looked at (SPEC.md §5.7, option `report`).
//!
//! A chain with every option on looks at a hundred places or more: the report keeps their paths
//! in one buffer (see `path_list`), and [`Probe`] is a view of one, borrowed from the
//! [`Probes`] of its chain.

use std::ops::Range;
use std::path::Path;

use crate::chain::Source;
use crate::path_list::{path_at, path_list};

/// One place the walk looked at, with [`Options::report`](crate::Options::report), borrowed
/// from its [`Probes`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub struct Probe<'a> {
    /// The path looked at: a file's, a fragment directory's, or a directory's of the walk.
    pub path: &'a Path,
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

path_list! {
    /// Every place a chain looked at, in the order looked at: [`Chain::probes`](crate::Chain).
    ///
    /// ```
    /// let dir = tempfile::tempdir()?;
    /// std::fs::write(dir.path().join("AGENTS.md"), "rules\n")?;
    /// let options = agentsmd_core::Options::new().root(dir.path()).report(true);
    /// let chain = agentsmd_core::chain(dir.path().join("main.rs"), &options)?;
    /// let probe = chain.probes.get(0).expect("one probe");
    /// assert_eq!(probe.path, dir.path().join("AGENTS.md"));
    /// assert_eq!(probe.outcome, agentsmd_core::Outcome::Included);
    /// assert_eq!(chain.probes.iter().count(), chain.probes.len());
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    Probes of Record as Probe;
    /// The iterator of [`Probes::iter`].
    ProbesIter
}

/// One probe of [`Probes`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Record {
    path: Range<usize>,
    source: Source,
    outcome: Outcome,
}

impl Record {
    fn view<'a>(&self, bytes: &'a [u8]) -> Probe<'a> {
        let path = path_at(bytes, self.path.clone());
        let (source, outcome) = (self.source, self.outcome);
        Probe {
            path,
            source,
            outcome,
        }
    }
}

impl Probes {
    /// Adds a probe whose path is what `write` appends to the buffer it is given.
    // Inlined into the walk's loops: a probe is a hundred-odd instructions, the call's
    // saving and restoring of registers a fifth of them.
    #[inline]
    pub(crate) fn push_with(
        &mut self,
        source: Source,
        outcome: Outcome,
        write: impl FnOnce(&mut Vec<u8>),
    ) {
        let path = self.0.write(write);
        self.0.push(Record {
            path,
            source,
            outcome,
        });
    }

    /// Adds a probe of `path`.
    pub(crate) fn push(&mut self, path: &[u8], source: Source, outcome: Outcome) {
        self.push_with(source, outcome, |paths| paths.extend_from_slice(path));
    }
}
