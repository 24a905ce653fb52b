//! The report of every place a chain looked at (SPEC.md §5.7, option `report`).
//!
//! A chain with every option on looks at a hundred places or more, so the report keeps their
//! paths in one buffer, each probe a range of it: one allocation for all the paths instead of
//! one per probe. [`Probe`] is a view of one entry, borrowed from the [`Probes`] of its chain.

use std::ffi::OsStr;
use std::fmt;
use std::os::unix::ffi::OsStrExt;
use std::path::Path;

use crate::chain::Source;

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
#[derive(Clone, Default, PartialEq, Eq)]
pub struct Probes {
    /// Every probe's path, one after the other.
    paths: Vec<u8>,
    entries: Vec<Entry>,
}

/// One probe of [`Probes`]: its path is `paths[previous end..end]`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Entry {
    end: usize,
    source: Source,
    outcome: Outcome,
}

impl Probes {
    /// How many places were looked at.
    pub fn len(&self) -> usize {
        self.entries.len()
    }

    /// Whether no place was looked at: always so with the report off.
    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    /// Probe `index`, in the order looked at; `None` at or past [`Probes::len`].
    pub fn get(&self, index: usize) -> Option<Probe<'_>> {
        let entry = self.entries.get(index)?;
        let start = match index {
            0 => 0,
            _ => self.entries[index - 1].end,
        };
        Some(Probe {
            path: as_path(&self.paths[start..entry.end]),
            source: entry.source,
            outcome: entry.outcome,
        })
    }

    /// Every probe, in the order looked at.
    pub fn iter(&self) -> ProbesIter<'_> {
        ProbesIter {
            probes: self,
            start: 0,
            next: 0,
        }
    }

    /// Room for `probes` more probes of about `path_len` bytes each, at once rather than by
    /// doubling.
    pub(crate) fn reserve(&mut self, probes: usize, path_len: usize) {
        self.entries.reserve(probes);
        self.paths.reserve(probes.saturating_mul(path_len));
    }

    /// Adds a probe whose path is what `write` appends to the buffer it is given.
    pub(crate) fn push_with(
        &mut self,
        source: Source,
        outcome: Outcome,
        write: impl FnOnce(&mut Vec<u8>),
    ) {
        write(&mut self.paths);
        self.entries.push(Entry {
            end: self.paths.len(),
            source,
            outcome,
        });
    }

    /// Adds a probe of `path`.
    pub(crate) fn push(&mut self, path: &[u8], source: Source, outcome: Outcome) {
        self.push_with(source, outcome, |paths| paths.extend_from_slice(path));
    }
}

impl fmt::Debug for Probes {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_list().entries(self.iter()).finish()
    }
}

impl<'a> IntoIterator for &'a Probes {
    type Item = Probe<'a>;
    type IntoIter = ProbesIter<'a>;

    fn into_iter(self) -> ProbesIter<'a> {
        self.iter()
    }
}

/// The iterator of [`Probes::iter`].
#[derive(Clone, Debug)]
pub struct ProbesIter<'a> {
    probes: &'a Probes,
    /// Where the next probe's path starts.
    start: usize,
    next: usize,
}

impl<'a> Iterator for ProbesIter<'a> {
    type Item = Probe<'a>;

    fn next(&mut self) -> Option<Probe<'a>> {
        let entry = self.probes.entries.get(self.next)?;
        let path = &self.probes.paths[self.start..entry.end];
        self.start = entry.end;
        self.next += 1;
        Some(Probe {
            path: as_path(path),
            source: entry.source,
            outcome: entry.outcome,
        })
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        let left = self.probes.entries.len() - self.next;
        (left, Some(left))
    }
}

impl ExactSizeIterator for ProbesIter<'_> {}

/// An OS path (or a custom file system's name) from its bytes, borrowed.
fn as_path(bytes: &[u8]) -> &Path {
    Path::new(OsStr::from_bytes(bytes))
}
