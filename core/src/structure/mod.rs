//! Structure (SPEC §6): one instruction file's front matter, skills and body units, and a
//! rendering bounded in bytes that keeps whole units. Three calls, so that a product can log
//! or change what lies between them ([`parse`] or [`read`], [`Document::resolve_skills`],
//! [`block()`]):
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
//! assert_eq!(document.requested, [b"review"]);
//! let options = agentsmd_core::Options::default();
//! let skills = document.resolve_skills(&SkillOptions::default(), &options).unwrap();
//! let block = structure::block(&document, &skills, &BlockOptions::default()).unwrap();
//! let expected = concat!(
//!     "# Repository Agent Instructions (AGENTS.md)\n\n",
//!     "Be brief.\n\n",
//!     "## Build\n\nRun `make`.\n\n",
//!     "## Requested Skills\n\n### review\n\nRead every diff twice.\n",
//! );
//! assert_eq!(block.text, expected.as_bytes());
//! assert!(block.dropped.is_empty());
//! ```

mod block;
pub(crate) mod front_matter;
mod sections;
mod skills;
mod text;

use std::fmt;
use std::path::{Path, PathBuf};

pub use block::{block, Block, BlockOptions, Dropped, DEFAULT_CAP, DEFAULT_HEADING, MIN_CAP};
pub use skills::{Skill, SkillOptions, SkillSource, Skills};

use self::skills::Found;
use crate::code_regions::BOM;
use crate::error::Error;
use crate::options::Options;
use crate::path::{self, FsName};

/// A body unit: the preamble (the lines before the first level-1 or level-2 heading) or a
/// section (such a heading and the lines up to the next).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Unit {
    /// The heading's title; `None` for the preamble.
    pub title: Option<Vec<u8>>,
    /// Its lines, blank lines around them removed, ending in one `\n`; never empty.
    pub text: Vec<u8>,
}

/// A `## Skill: NAME` section.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SkillSection {
    /// The NAME, trimmed.
    pub name: Vec<u8>,
    /// The lines after the heading, as [`Unit::text`] has them, but empty when nothing is left.
    pub text: Vec<u8>,
    /// The heading's line in the file, 1-based.
    pub line: usize,
}

/// Something in the text that was not what it looked like, said rather than failed on.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Warning {
    /// The line of the file it is about, 1-based; 0 when none is (a skill file's warning).
    pub line: usize,
    /// What is wrong, and what was done instead.
    pub message: String,
}

impl fmt::Display for Warning {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.line {
            0 => f.write_str(&self.message),
            line => write!(f, "line {line}: {}", self.message),
        }
    }
}

/// Where a file is: on the OS, or in a custom file system.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Origin {
    /// An OS path; [`read`] makes it absolute and clean.
    Os(PathBuf),
    /// A name in a custom file system.
    Fs(FsName),
}

impl Origin {
    /// Where the file at `path` is, as the chain's `options` name it (SPEC §1): a name of
    /// [`Options::fs`], else an OS path, made absolute and clean.
    pub fn new(path: impl AsRef<Path>, options: &Options) -> Result<Self, Error> {
        let path = path.as_ref();
        let origin = match options.fs {
            Some(_) => Origin::Fs(FsName::new(path::bytes(path))?),
            None => Origin::Os(path::absolute(path)?),
        };
        path::check_path_length(origin.as_bytes(), "path")?;
        Ok(origin)
    }

    /// The path's or the name's bytes, as the block's warning shows them.
    pub fn as_bytes(&self) -> &[u8] {
        match self {
            Origin::Os(path) => path::bytes(path),
            Origin::Fs(name) => name.as_bytes(),
        }
    }

    /// The last element of the path (`\` separates too on Windows) or of the name.
    pub(crate) fn file_name(&self) -> &[u8] {
        match self {
            Origin::Os(path) => path
                .file_name()
                .map_or(path::bytes(path), |name| name.as_encoded_bytes()),
            Origin::Fs(name) => name
                .as_bytes()
                .rsplit(|&b| b == b'/')
                .next()
                .unwrap_or_default(),
        }
    }

    /// The skill file `skills/NAME.md` beside this file.
    fn skill_file(&self, name: &[u8]) -> Origin {
        let file_name = [name, b".md"].concat();
        match self {
            Origin::Os(os_path) => {
                let skills = os_path.parent().unwrap_or(Path::new("/")).join("skills");
                Origin::Os(skills.join(path::to_path_buf(&file_name)))
            }
            Origin::Fs(fs_name) => {
                let parent = fs_name.parent().unwrap_or_else(FsName::root);
                Origin::Fs(parent.join(b"skills").join(&file_name))
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
    /// The names the front matter's `skills` requests, in order, trimmed, empty ones dropped.
    pub requested: Vec<Vec<u8>>,
    /// The skill sections, the first of each NAME only, in order.
    pub skills: Vec<SkillSection>,
    /// The body units, in order.
    pub units: Vec<Unit>,
    /// What was ignored, in order of the lines.
    pub warnings: Vec<Warning>,
}

/// Parses `text` (SPEC §6.1). Never fails: what is malformed is a warning.
pub fn parse(text: &[u8]) -> Document {
    let mut text = text.strip_prefix(BOM).unwrap_or(text).to_vec();
    // Every line the parts below read ends in `\n`.
    if !text.is_empty() && !text.ends_with(b"\n") {
        text.push(b'\n');
    }
    let mut document = Document::default();
    let (body, lines_before) = front_matter::split(&text, &mut document);
    sections::split(&text, body, lines_before, &mut document);
    document
}

/// The nearest document at `path` (SPEC §6.5): the chain's nearest file, parsed, with it as its
/// origin; `None` when there is none or it is over a budget. Resolve its skills with `options`.
///
/// ```
/// let repo = tempfile::tempdir()?;
/// std::fs::write(repo.path().join("AGENTS.md"), "## Root\n")?;
/// std::fs::create_dir(repo.path().join("src"))?;
/// std::fs::write(repo.path().join("src/AGENTS.md"), "## Src\n")?;
/// let options = agentsmd_core::Options::new().root(repo.path());
/// let document = agentsmd_core::structure::parse_nearest(repo.path().join("src/main.rs"), &options)?
///     .expect("src/AGENTS.md");
/// assert_eq!(document.units[0].title.as_deref(), Some(&b"Src"[..]));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn parse_nearest(path: impl AsRef<Path>, options: &Options) -> Result<Option<Document>, Error> {
    let mut nearest = options.clone();
    nearest.nearest = true;
    nearest.extra.clear();
    let files = crate::chain(path, &nearest)?.files.into_iter();
    let Some(file) = files.rev().find(|file| file.source == crate::Source::Chain) else {
        return Ok(None);
    };
    let origin = Origin::new(&file.path, options)?;
    let mut document = parse(&file.content);
    document.origin = Some(origin);
    Ok(Some(document))
}

/// Reads and parses the regular file at `path`, at most [`Options::max_bytes`], through the file
/// system of the chain's `options` (SPEC §6.2); it is then the [`Document::origin`]. Fails when
/// there is no regular file there, when reading fails, or when it escapes a confined root.
///
/// ```
/// use agentsmd_core::structure::{self, SkillOptions, SkillSource};
///
/// let repo = tempfile::tempdir()?;
/// std::fs::write(repo.path().join("AGENTS.md"), "---\nskills: [release]\n---\nBe brief.\n")?;
/// std::fs::create_dir(repo.path().join("skills"))?;
/// std::fs::write(repo.path().join("skills/release.md"), "Tag it.\n")?;
/// let options = agentsmd_core::Options::new().root(repo.path()).confine(true);
/// let document = structure::read(repo.path().join("AGENTS.md"), &options)?;
/// let skills = document.resolve_skills(&SkillOptions::default(), &options)?;
/// let skill = &skills.resolved[0];
/// assert_eq!(skill.text, b"Tag it.\n");
/// assert!(matches!(skill.source, SkillSource::File(_)));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn read(path: impl AsRef<Path>, options: &Options) -> Result<Document, Error> {
    let origin = Origin::new(path, options)?;
    let files = skills::Files::new(options, Some(&origin))?;
    let refused = |why: &[u8]| Error::invalid_argument([b"read ", origin.as_bytes(), why].concat());
    let text = match files.find_regular(&origin)? {
        Found::File { name, size } => files.read(&name, size)?,
        Found::None => None,
        Found::Escapes => return Err(refused(b": leads out of root")),
    };
    let text = text.ok_or_else(|| refused(b": no such regular file"))?;
    let mut document = parse(&text);
    document.origin = Some(origin);
    Ok(document)
}
