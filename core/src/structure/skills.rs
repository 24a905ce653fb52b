//! Resolving the requested skills (SPEC.md §6.2): each name to its inline `## Skill:` section,
//! else to `skills/NAME.md` beside the parsed file, else reported unknown.
//!
//! Every file this module reads goes through [`Files::read_regular`], the one place that asks a
//! file system anything, so that a change to the file-system trait changes one function. The
//! file system is the chain's ([`Files::new`]): the options' own, else the OS, confined beneath
//! root when the options confine, so that a skill file's bytes never come from outside root
//! then.

use std::collections::{HashMap, HashSet};
use std::path::Path;

use super::{text, Document, Origin, SkillSection, Warning};
use crate::error::Error;
use crate::fs::{self, Entry};
use crate::options::Options;
use crate::path::{self, OS_ROOT};

/// Which skills [`Document::resolve_skills`] resolves.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
#[non_exhaustive]
pub struct SkillOptions {
    /// The caller's list of names; `None` takes the front matter's. An empty list requests none.
    pub requested: Option<Vec<Vec<u8>>>,
}

/// Where a resolved skill's text came from.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum SkillSource {
    /// A `## Skill: NAME` section of the parsed text.
    Inline,
    /// The file `skills/NAME.md`, here.
    File(Origin),
}

impl SkillSource {
    /// The word the CLI's JSON uses (SPEC.md §7): `inline` or `file`.
    pub fn as_str(&self) -> &'static str {
        match self {
            SkillSource::Inline => "inline",
            SkillSource::File(_) => "file",
        }
    }
}

/// A requested skill that resolved.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Skill {
    /// Its name, as requested.
    pub name: Vec<u8>,
    /// Its text: blank lines around it removed, ending in one `\n` (empty when blank).
    pub text: Vec<u8>,
    /// Where the text came from.
    pub source: SkillSource,
}

/// What resolving the requested skills found.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
#[non_exhaustive]
pub struct Skills {
    /// The names requested, repeats removed, in order.
    pub requested: Vec<Vec<u8>>,
    /// The names that resolved, in request order.
    pub resolved: Vec<Skill>,
    /// The names that neither an inline section nor a file defines, or that are no path
    /// element and have no inline section: reported, not an error.
    pub unknown: Vec<Vec<u8>>,
    /// What resolving met and said rather than failed on: a skill file that leads out of a
    /// confined root (its name is then unknown). Its line is 0: it is about no line of the file.
    pub warnings: Vec<Warning>,
}

impl Document {
    /// Resolves the requested skills, reading `skills/NAME.md` files in the directory of
    /// [`Document::origin`] (none are read when the document has none) through the file system
    /// of the chain's `options` (SPEC.md §6.2): [`Options::fs`] (the origin a name in it), else
    /// the OS, beneath [`Options::root`] when [`Options::confine`] is on, at most
    /// [`Options::max_bytes`] each. Confined, a skill file that lies outside root, or whose link
    /// leads out of it, is not read: its name is unknown, with a warning naming the file.
    ///
    /// Fails only when reading a skill file fails: too large, or a stat or read error other than
    /// "no such file", a link that loops or a path through a non-directory; or when `options`
    /// confine to the root `/`.
    pub fn resolve_skills(
        &self,
        skills: &SkillOptions,
        options: &Options,
    ) -> Result<Skills, Error> {
        let files = Files::new(options, self.origin.as_ref())?;
        let wanted = skills.requested.as_ref().unwrap_or(&self.requested);
        // The sections by NAME and the names already asked, found in constant time: 10,000
        // names cost no more each than a few.
        let inline: HashMap<&[u8], &SkillSection> = self
            .skills
            .iter()
            .map(|section| (section.name.as_slice(), section))
            .collect();
        let mut asked = HashSet::new();
        let mut skills = Skills::default();
        for name in wanted.iter().filter(|name| asked.insert(name.as_slice())) {
            skills.requested.push(name.clone());
            let found = match inline.get(name.as_slice()) {
                Some(section) => Some((section.text.clone(), SkillSource::Inline)),
                None => self.skill_file(name, &files, &mut skills.warnings)?,
            };
            match found {
                Some((text, source)) => skills.resolved.push(Skill {
                    name: name.clone(),
                    text,
                    source,
                }),
                None => skills.unknown.push(name.clone()),
            }
        }
        Ok(skills)
    }

    /// The text of the skill file `skills/NAME.md` beside the document, and where it is; `None`
    /// when there is none. The name is checked as one path element before any path is built
    /// from it. A file that escapes a confined root is none, with a warning.
    fn skill_file(
        &self,
        name: &[u8],
        files: &Files,
        warnings: &mut Vec<Warning>,
    ) -> Result<Option<(Vec<u8>, SkillSource)>, Error> {
        let Some(origin) = &self.origin else {
            return Ok(None);
        };
        if !path::is_element(name) {
            return Ok(None);
        }
        let file = origin.beside(b"skills", &[name, b".md"].concat());
        Ok(match files.read_regular(&file)? {
            Regular::File(content) => {
                Some((text::trimmed_lines(&content), SkillSource::File(file)))
            }
            Regular::None => None,
            Regular::Escapes => {
                let message = [
                    &b"skill file "[..],
                    file.as_bytes(),
                    b" escapes root: not read, skill unknown",
                ]
                .concat();
                warnings.push(Warning {
                    line: 0,
                    message: String::from_utf8_lossy(&message).into_owned(),
                });
                None
            }
        })
    }
}

/// The file system a document and its skill files are read through (SPEC.md §6.2): the chain's
/// options' own, else the OS, confined beneath root when the options confine.
pub(super) struct Files<'a> {
    files: fs::Files<'a>,
    confined: bool,
    max_bytes: u64,
}

/// What [`Files::read_regular`] finds.
pub(super) enum Regular {
    /// A regular file, and its content.
    File(Vec<u8>),
    /// No regular file: nothing, something else, a link that loops or runs through a
    /// non-directory (SPEC.md §1), a path through a file, or a file gone between stat and read.
    None,
    /// Confined: a file outside root, or a link leading out of it; nothing was read.
    Escapes,
}

impl<'a> Files<'a> {
    /// The file system of the chain's `options`; confinement to `/` is refused, as the chain
    /// refuses it.
    pub(super) fn new(options: &'a Options, origin: Option<&Origin>) -> Result<Self, Error> {
        let confined = options.confine && options.fs.is_none();
        let root = match (confined, origin) {
            (true, Some(Origin::Os(path))) => options.os_root(path::bytes(path))?,
            (true, _) if options.root.is_some() => options.os_root(b"")?,
            (true, _) => options.os_root(&path::absolute_bytes(Path::new("."))?)?,
            (false, _) => OS_ROOT.to_vec(),
        };
        Ok(Self {
            files: fs::Files::new(options, &root)?,
            confined,
            max_bytes: options.effective_max_bytes(),
        })
    }

    /// The content of the regular file at `origin` (after following links), at most
    /// `max_bytes`; more is `TooLarge`.
    pub(super) fn read_regular(&self, origin: &Origin) -> Result<Regular, Error> {
        let name = match origin {
            Origin::Os(os_path) if self.confined => {
                let os_path = path::absolute_bytes(os_path)?;
                if !self.files.confines(&os_path) {
                    return Ok(Regular::Escapes);
                }
                self.files.name_of(&os_path)
            }
            _ => origin.name()?,
        };
        let size = match self.files.find(&name)? {
            Some(Entry::File { size }) => size,
            Some(Entry::Escapes) => return Ok(Regular::Escapes),
            _ => return Ok(Regular::None),
        };
        match self.files.read(&name, size, self.max_bytes)? {
            Some(content) => Ok(Regular::File(content)),
            None => Ok(Regular::None),
        }
    }
}
