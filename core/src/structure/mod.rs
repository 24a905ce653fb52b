//! Structure (SPEC.md §6): what one instruction file says beyond its plain text — front matter
//! that requests skills, `## Skill: NAME` sections that define them, the body split into units
//! — and a rendering bounded in bytes that keeps whole units and says what it dropped.
//!
//! Opt-in and apart from the walk: it works on any text, on a file of the OS ([`read`]), or on a
//! file of a custom [`FileSystem`] ([`read_fs`]), the same file system then resolving
//! `skills/NAME.md`. Three steps, each its own call so that a product can log or change what lies
//! between them:
//!
//! ```
//! use agentsmd_core::structure::{self, BlockOptions, SkillOptions};
//!
//! let text = concat!(
//!     "---\nskills: [review]\n---\n",
//!     "Be brief.\n\n",
//!     "## Build\n\nRun `make`.\n\n",
//!     "## Skill: review\n\nRead every diff twice.\n",
//! );
//! let document = structure::parse(text.as_bytes());
//! assert_eq!(document.requested, [b"review".to_vec()]);
//! let skills = document.resolve_skills_os(&SkillOptions::default()).unwrap();
//! let block = structure::block(&document, &skills, &BlockOptions::default());
//! let expected = concat!(
//!     "# Repository Agent Instructions (AGENTS.md)\n\n",
//!     "Be brief.\n\n",
//!     "## Build\n\nRun `make`.\n\n",
//!     "## Requested Skills\n\n### review\n\nRead every diff twice.\n",
//! );
//! assert_eq!(block.text, expected.as_bytes());
//! assert_eq!(block.dropped().len(), 0);
//! ```
//!
//! On a file of the chain, `skills/NAME.md` beside it resolves too:
//!
//! ```
//! use agentsmd_core::structure::{self, BlockOptions, SkillOptions, Source};
//!
//! let repo = tempfile::tempdir()?;
//! std::fs::write(repo.path().join("AGENTS.md"), "---\nskills: [release]\n---\nBe brief.\n")?;
//! std::fs::create_dir(repo.path().join("skills"))?;
//! std::fs::write(repo.path().join("skills/release.md"), "Tag it.\n")?;
//! let document = structure::read(repo.path().join("AGENTS.md"), None)?;
//! let skills = document.resolve_skills_os(&SkillOptions::default())?;
//! assert_eq!(skills.resolved[0].text, b"Tag it.\n");
//! assert!(matches!(skills.resolved[0].source, Source::File(_)));
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

mod block;
mod front_matter;
mod sections;
mod skills;
mod text;

use std::fmt;
use std::ops::Range;
use std::path::{Path, PathBuf};

pub use block::{block, Block, BlockOptions, Dropped, DEFAULT_CAP, DEFAULT_HEADING, MIN_CAP};
pub use skills::{Skill, SkillOptions, Skills, Source};

use crate::error::{display, Error};
use crate::fs::{FileSystem, OsFs};
use crate::path::{self, FsName, OS_ROOT};

/// A body unit: the preamble (the lines before the first level-1 or level-2 heading) or a
/// section (such a heading and the lines up to the next), borrowed from its [`Document`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Unit<'a> {
    /// The heading's title; `None` for the preamble.
    pub title: Option<&'a [u8]>,
    /// Its lines, blank lines around them removed, ending in one `\n`; never empty.
    pub text: &'a [u8],
}

/// Where a unit is in [`Document`]'s units text. Ranges, not copies: a file of 100,000 headings
/// costs no allocation per unit.
#[derive(Clone, Debug, PartialEq, Eq)]
struct UnitAt {
    text: Range<usize>,
    /// Within the unit's first line, its heading; `None` for the preamble.
    title: Option<Range<usize>>,
}

/// A `## Skill: NAME` section.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SkillSection {
    /// The NAME, trimmed.
    pub name: Vec<u8>,
    /// The lines after the heading, blank lines around them removed, ending in one `\n`; empty
    /// when nothing is left.
    pub text: Vec<u8>,
    /// The heading's line in the file, 1-based.
    pub line: usize,
}

/// Something in the text that was not what it looked like, said rather than failed on.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Warning {
    /// The line of the file it is about, 1-based.
    pub line: usize,
    /// What is wrong, and what was done instead.
    pub message: String,
}

impl fmt::Display for Warning {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "line {}: {}", self.line, self.message)
    }
}

/// Where a file is: on the OS, or in a custom file system.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Origin {
    /// An OS path; [`read`] makes it absolute and clean.
    Os(PathBuf),
    /// A name in a custom file system.
    Fs(FsName),
}

impl Origin {
    /// The path's or the name's bytes, as the block's warning shows them.
    pub fn as_bytes(&self) -> &[u8] {
        match self {
            Origin::Os(path) => path::bytes(path),
            Origin::Fs(name) => name.as_bytes(),
        }
    }

    /// The name a file system knows it by: an OS path's below `/`, as [`OsFs`] names files.
    fn name(&self) -> Result<FsName, Error> {
        match self {
            Origin::Os(os_path) => {
                let absolute = path::absolute(os_path)?;
                Ok(path::name_below(OS_ROOT, path::bytes(&absolute)))
            }
            Origin::Fs(name) => Ok(name.clone()),
        }
    }

    /// The file `element` in the directory `dir` below this one's directory.
    fn beside(&self, dir: &[u8], element: &[u8]) -> Origin {
        match self {
            Origin::Os(os_path) => {
                let parent = os_path.parent().unwrap_or(Path::new("/"));
                Origin::Os(
                    parent
                        .join(path::to_path_buf(dir))
                        .join(path::to_path_buf(element)),
                )
            }
            Origin::Fs(name) => {
                let parent = name.parent().unwrap_or_else(FsName::root);
                Origin::Fs(parent.join(dir).join(element))
            }
        }
    }
}

/// One parsed instruction file.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
#[non_exhaustive]
pub struct Document {
    /// Where the file is, when it was read from one: where `skills/NAME.md` is looked for, and
    /// the default name and place in the block's warning.
    pub origin: Option<Origin>,
    /// The names the front matter's `skills` requests, in order.
    pub requested: Vec<Vec<u8>>,
    /// The skill sections, the first of each NAME only, in order.
    pub skills: Vec<SkillSection>,
    /// The body units' texts, back to back; see [`Document::units`].
    units_text: Vec<u8>,
    units: Vec<UnitAt>,
    /// What was ignored, in order of the lines.
    pub warnings: Vec<Warning>,
}

impl Document {
    /// The body units, in order.
    pub fn units(&self) -> impl ExactSizeIterator<Item = Unit<'_>> + '_ {
        self.units.iter().map(|at| self.unit_at(at))
    }

    /// Body unit `index` (in order), in constant time: for a caller that walks them by index,
    /// as the C API does.
    pub fn unit(&self, index: usize) -> Option<Unit<'_>> {
        self.units.get(index).map(|at| self.unit_at(at))
    }

    fn unit_at(&self, at: &UnitAt) -> Unit<'_> {
        let text = &self.units_text[at.text.clone()];
        Unit {
            title: at.title.clone().map(|title| &text[title]),
            text,
        }
    }
}

/// Parses `text` (SPEC.md §6.1). Never fails: what is malformed is a warning.
pub fn parse(text: &[u8]) -> Document {
    let text = text.strip_prefix(b"\xef\xbb\xbf").unwrap_or(text);
    let split = front_matter::split(text);
    let sections = sections::split(split.body, split.lines_before);
    let mut warnings = split.warnings;
    warnings.extend(sections.warnings);
    Document {
        origin: None,
        requested: split.requested,
        skills: sections.skills,
        units_text: sections.units_text,
        units: sections.units,
        warnings,
    }
}

/// Reads and parses the regular file at the OS path `path` (made absolute and clean, which is
/// then its [`Document::origin`]), at most `max_bytes` of it (`None`:
/// [`DEFAULT_MAX_BYTES`](crate::DEFAULT_MAX_BYTES)). Fails when there is no regular file there,
/// when it holds more, or when reading fails.
pub fn read(path: impl AsRef<Path>, max_bytes: Option<u64>) -> Result<Document, Error> {
    read_in(&OsFs, Origin::Os(path::absolute(path)?), max_bytes)
}

/// [`read`] of the file `name` of the custom file system `fs`.
pub fn read_fs(
    fs: &dyn FileSystem,
    name: &FsName,
    max_bytes: Option<u64>,
) -> Result<Document, Error> {
    read_in(fs, Origin::Fs(name.clone()), max_bytes)
}

fn read_in(fs: &dyn FileSystem, origin: Origin, max_bytes: Option<u64>) -> Result<Document, Error> {
    let text = skills::read_regular(fs, &origin, max_bytes)?.ok_or_else(|| {
        Error::invalid_argument(format!(
            "read {}: no such regular file",
            display(origin.as_bytes())
        ))
    })?;
    let mut document = parse(&text);
    document.origin = Some(origin);
    Ok(document)
}
