//! Resolving the requested skills (SPEC §6.2): each name to its inline section, else to
//! `skills/NAME.md` beside the parsed file, else reported unknown.

use std::collections::{HashMap, HashSet};
use std::path::Path;

use super::{text, Document, Origin, SkillSection, Warning};
use crate::error::Error;
use crate::fs::{self, Kind};
use crate::options::Options;
use crate::path::{self, FsName, OS_ROOT};

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
    /// The word the CLI's JSON uses (SPEC §7): `inline` or `file`.
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
    /// The names that did not resolve: reported, not an error.
    pub unknown: Vec<Vec<u8>>,
    /// Skill files that escape a confined root, or that the total bound left unread (line 0).
    pub warnings: Vec<Warning>,
}

/// What the skill files of one document may still read: `max_bytes` in all (SPEC §6.2).
struct Allowance {
    max_bytes: u64,
    left: u64,
    /// The skill files not read, or not kept, because they would take the total over it.
    not_read: usize,
}

impl Allowance {
    /// Whether a skill file of `size` bytes (its stat's before the `read`, its length after) is
    /// let in: none once one was not; one over `max_bytes` on its own is, unread, to be `TooLarge`.
    fn admits(&mut self, size: u64, read: bool) -> bool {
        let fits = size <= self.left || (!read && size > self.max_bytes);
        if self.not_read > 0 || !fits {
            self.not_read += 1;
            return false;
        }
        if read {
            self.left -= size;
        }
        true
    }
}

impl Document {
    /// Resolves the requested skills (SPEC §6.2, §6.4) through the file system of the chain's
    /// `options`. Fails only when reading a skill file fails, or when `options` confine to `/`.
    pub fn resolve_skills(
        &self,
        skills: &SkillOptions,
        options: &Options,
    ) -> Result<Skills, Error> {
        let files = Files::new(options, self.origin.as_ref())?;
        let wanted = skills.requested.as_ref().unwrap_or(&self.requested);
        // By NAME, in constant time: 10,000 names cost no more each than a few.
        let inline: HashMap<&[u8], &SkillSection> = self
            .skills
            .iter()
            .map(|section| (section.name.as_slice(), section))
            .collect();
        let mut asked = HashSet::new();
        let mut skills = Skills::default();
        let mut allowance = Allowance {
            max_bytes: files.max_bytes,
            left: files.max_bytes,
            not_read: 0,
        };
        for name in wanted.iter().filter(|name| asked.insert(name.as_slice())) {
            skills.requested.push(name.clone());
            let found = match inline.get(name.as_slice()) {
                Some(section) => Some((section.text.clone(), SkillSource::Inline)),
                None => self.skill_file(name, &files, &mut allowance, &mut skills.warnings)?,
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
        let (max_bytes, not_read) = (allowance.max_bytes, allowance.not_read);
        if not_read > 0 {
            let message = format!("skill files over {max_bytes} bytes: {not_read} not read");
            skills.warnings.push(Warning { line: 0, message });
        }
        Ok(skills)
    }

    /// The text of `skills/NAME.md` beside the document, and where it is, if it can be read.
    fn skill_file(
        &self,
        name: &[u8],
        files: &Files,
        allowance: &mut Allowance,
        warnings: &mut Vec<Warning>,
    ) -> Result<Option<(Vec<u8>, SkillSource)>, Error> {
        let Some(origin) = self.origin.as_ref().filter(|_| path::is_element(name)) else {
            return Ok(None);
        };
        let file = origin.skill_file(name);
        let (name, size) = match files.find_regular(&file)? {
            Found::File { name, size } => (name, size),
            Found::None => return Ok(None),
            Found::Escapes => {
                let file = String::from_utf8_lossy(file.as_bytes());
                let message = format!("skill file {file} escapes root: not read, skill unknown");
                warnings.push(Warning { line: 0, message });
                return Ok(None);
            }
        };
        if !allowance.admits(size, false) {
            return Ok(None);
        }
        Ok(match files.read(&name, size)? {
            Some(content) if allowance.admits(content.len() as u64, true) => {
                Some((text::trimmed_lines(&content), SkillSource::File(file)))
            }
            _ => None,
        })
    }
}

/// The file system a document and its skill files are read through (SPEC §6.2).
pub(super) struct Files<'a> {
    files: fs::Files<'a>,
    confined: bool,
    max_bytes: u64,
}

/// What [`Files::find_regular`] finds, before anything is read.
pub(super) enum Found {
    /// A regular file: its name in the file system, and the size its stat reports.
    File { name: FsName, size: u64 },
    /// No regular file (SPEC §1).
    None,
    /// Confined: a file outside root, or a link leading out of it.
    Escapes,
}

impl<'a> Files<'a> {
    /// The file system of the chain's `options`, as the chain confines it.
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

    /// Whether a regular file is at `origin` (after following links), and its size.
    pub(super) fn find_regular(&self, origin: &Origin) -> Result<Found, Error> {
        let name = match origin {
            Origin::Os(os_path) if self.confined => {
                let os_path = path::absolute_bytes(os_path)?;
                if !self.files.confines(&os_path) {
                    return Ok(Found::Escapes);
                }
                self.files.name_of(&os_path)
            }
            // The name the file system knows it by: an OS path's below `/`.
            Origin::Os(os_path) => path::name_below(OS_ROOT, &path::absolute_bytes(os_path)?),
            Origin::Fs(name) => name.clone(),
        };
        Ok(match self.files.find(&name)? {
            Some(Kind::File { size }) => Found::File { name, size },
            Some(Kind::Escapes) => Found::Escapes,
            _ => Found::None,
        })
    }

    /// The content of the file `name` of `size` bytes, at most `max_bytes`; `None` when gone.
    pub(super) fn read(&self, name: &FsName, size: u64) -> Result<Option<Vec<u8>>, Error> {
        self.files.read(name, size, self.max_bytes)
    }
}
