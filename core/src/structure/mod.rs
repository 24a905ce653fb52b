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
//! assert_eq!(document.requested().iter().collect::<Vec<_>>(), [b"review"]);
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
//! let skill = skills.skill(0).unwrap();
//! assert_eq!(skill.text, b"Tag it.\n");
//! assert!(matches!(skill.source, Source::File(_)));
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

use self::sections::SkillIndex;
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

/// Where a unit is in [`Document`]'s text. Ranges, not copies: a file of 100,000 headings costs
/// no allocation per unit.
#[derive(Clone, Debug, PartialEq, Eq)]
struct UnitAt {
    text: Range<usize>,
    /// Its heading's title; `None` for the preamble.
    title: Option<Range<usize>>,
}

/// A `## Skill: NAME` section, borrowed from its [`Document`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SkillSection<'a> {
    /// The NAME, trimmed.
    pub name: &'a [u8],
    /// The lines after the heading, blank lines around them removed, ending in one `\n`; empty
    /// when nothing is left.
    pub text: &'a [u8],
    /// The heading's line in the file, 1-based.
    pub line: usize,
}

/// Where a skill section is in [`Document`]'s text: 10,000 skills cost no allocation each.
#[derive(Clone, Debug, PartialEq, Eq)]
struct SkillAt {
    name: Range<usize>,
    text: Range<usize>,
    line: usize,
}

/// A list of names held back to back in one buffer, borrowed from a [`Document`] or a
/// [`Skills`]: 10,000 names cost two allocations, not 10,000.
#[derive(Clone, Copy)]
pub struct Names<'a> {
    bytes: &'a [u8],
    at: &'a [Range<usize>],
}

impl<'a> Names<'a> {
    /// How many names there are.
    pub fn len(&self) -> usize {
        self.at.len()
    }

    /// Whether there are none.
    pub fn is_empty(&self) -> bool {
        self.at.is_empty()
    }

    /// Name `index` (in order), in constant time.
    pub fn get(&self, index: usize) -> Option<&'a [u8]> {
        self.at.get(index).map(|at| &self.bytes[at.clone()])
    }

    /// The names, in order.
    pub fn iter(&self) -> impl ExactSizeIterator<Item = &'a [u8]> + 'a {
        let bytes = self.bytes;
        self.at.iter().map(move |at| &bytes[at.clone()])
    }
}

impl fmt::Debug for Names<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_list()
            .entries(self.iter().map(String::from_utf8_lossy))
            .finish()
    }
}

/// Appends `name` to `bytes`, and says where it is there.
fn push_name(bytes: &mut Vec<u8>, name: &[u8]) -> Range<usize> {
    let start = bytes.len();
    bytes.extend_from_slice(name);
    start..bytes.len()
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

/// One parsed instruction file. It holds its text once; every name, section and unit it hands
/// out is borrowed from it.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
#[non_exhaustive]
pub struct Document {
    /// Where the file is, when it was read from one: where `skills/NAME.md` is looked for, and
    /// the default name and place in the block's warning.
    pub origin: Option<Origin>,
    /// The text parsed, its BOM removed and a final `\n` added when it had none, so that every
    /// unit and skill section (blank lines around it removed, ending in one `\n`) is a range of
    /// it.
    text: Vec<u8>,
    /// The requested names, back to back (a quoted YAML name is not as written in the text),
    /// and where each is.
    names: Vec<u8>,
    requested: Vec<Range<usize>>,
    skills: Vec<SkillAt>,
    skill_index: SkillIndex,
    units: Vec<UnitAt>,
    /// What was ignored, in order of the lines.
    pub warnings: Vec<Warning>,
}

impl Document {
    /// The names the front matter's `skills` requests, in order.
    pub fn requested(&self) -> Names<'_> {
        Names {
            bytes: &self.names,
            at: &self.requested,
        }
    }

    /// The skill sections, the first of each NAME only, in order.
    pub fn skills(&self) -> impl ExactSizeIterator<Item = SkillSection<'_>> + '_ {
        self.skills.iter().map(|at| SkillSection {
            name: &self.text[at.name.clone()],
            text: &self.text[at.text.clone()],
            line: at.line,
        })
    }

    /// The body units, in order.
    pub fn units(&self) -> impl ExactSizeIterator<Item = Unit<'_>> + '_ {
        self.units.iter().map(|at| self.unit_at(at))
    }

    /// Body unit `index` (in order), in constant time: for a caller that walks them by index,
    /// as the C API does.
    pub fn unit(&self, index: usize) -> Option<Unit<'_>> {
        self.units.get(index).map(|at| self.unit_at(at))
    }

    /// The index of the skill section `name`, if any.
    fn skill_named(&self, name: &[u8]) -> Option<usize> {
        self.skill_index.find(&self.text, &self.skills, name)
    }

    fn unit_at(&self, at: &UnitAt) -> Unit<'_> {
        Unit {
            title: at.title.clone().map(|title| &self.text[title]),
            text: &self.text[at.text.clone()],
        }
    }
}

/// Parses `text` (SPEC.md §6.1). Never fails: what is malformed is a warning.
pub fn parse(text: &[u8]) -> Document {
    // Room for the final `\n` too: the one copy of the text is one allocation.
    let mut owned = Vec::with_capacity(text.len() + 1);
    owned.extend_from_slice(text.strip_prefix(BOM).unwrap_or(text));
    parse_owned(owned)
}

const BOM: &[u8] = b"\xef\xbb\xbf";

/// [`parse`] of a text without its BOM, which the document then keeps: a file read is not
/// copied again.
fn parse_owned(mut text: Vec<u8>) -> Document {
    // A last line without its `\n` reads as one with it (SPEC.md §6.1 ends every text in one),
    // so that it too is a range of the text.
    if !text.is_empty() && !text.ends_with(b"\n") {
        text.push(b'\n');
    }
    let split = front_matter::split(&text);
    let sections = sections::split(&text, split.body, split.lines_before, split.requested.len());
    let mut warnings = split.warnings;
    warnings.extend(sections.warnings);
    Document {
        origin: None,
        text,
        names: split.names,
        requested: split.requested,
        skills: sections.skills,
        skill_index: sections.index,
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
    let mut text = skills::read_regular(fs, &origin, max_bytes)?.ok_or_else(|| {
        Error::invalid_argument(format!(
            "read {}: no such regular file",
            display(origin.as_bytes())
        ))
    })?;
    if text.starts_with(BOM) {
        text.drain(..BOM.len());
    }
    let mut document = parse_owned(text);
    document.origin = Some(origin);
    Ok(document)
}
