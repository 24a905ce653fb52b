//! Resolving the requested skills (SPEC.md §6.2): each name to its inline `## Skill:` section,
//! else to `skills/NAME.md` beside the parsed file, else reported unknown.
//!
//! Every file this module reads goes through [`Files::read_regular`], the one place that asks a
//! file system anything, so that a change to the file-system trait changes one function. The
//! file system is the chain's ([`Files::new`]): the options' own, else the OS, confined beneath
//! root when the options confine, so that a skill file's bytes never come from outside root
//! then.

use std::collections::HashSet;
use std::ops::Range;

use foldhash::quality::RandomState;

use super::{push_name, text, Document, Names, Origin, Warning};
use crate::chain::runs_through_a_file;
use crate::error::Error;
use crate::fs::{ConfinedFs, Entry, FileSystem, OsFs};
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
pub enum Source {
    /// A `## Skill: NAME` section of the parsed text.
    Inline,
    /// The file `skills/NAME.md`, here.
    File(Origin),
}

/// A requested skill that resolved, borrowed from its [`Skills`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Skill<'a> {
    /// Its name, as requested.
    pub name: &'a [u8],
    /// Its text: blank lines around it removed, ending in one `\n` (empty when blank).
    pub text: &'a [u8],
    /// Where the text came from.
    pub source: &'a Source,
}

/// Where a resolved skill's name and text are in [`Skills`]' bytes.
#[derive(Clone, Debug, PartialEq, Eq)]
struct SkillAt {
    name: Range<usize>,
    text: Range<usize>,
    source: Source,
}

/// What resolving the requested skills found. It holds every name and text it hands out in one
/// buffer of its own (an inline skill's text copied from the document, a file's appended once
/// it is read), so that 10,000 inline skills cost no allocation each; a skill file costs its
/// path and its read.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
#[non_exhaustive]
pub struct Skills {
    bytes: Vec<u8>,
    requested: Vec<Range<usize>>,
    resolved: Vec<SkillAt>,
    unknown: Vec<Range<usize>>,
    /// What resolving met and said rather than failed on: a skill file that leads out of a
    /// confined root (its name is then unknown). Its line is 0: it is about no line of the file.
    pub warnings: Vec<Warning>,
}

impl Skills {
    /// The names requested, repeats removed, in order.
    pub fn requested(&self) -> Names<'_> {
        self.names(&self.requested)
    }

    /// The names that resolved, in request order.
    pub fn resolved(&self) -> impl ExactSizeIterator<Item = Skill<'_>> + '_ {
        self.resolved.iter().map(|at| self.skill_at(at))
    }

    /// Resolved skill `index` (in request order), in constant time: for a caller that walks
    /// them by index, as the C API does.
    pub fn skill(&self, index: usize) -> Option<Skill<'_>> {
        self.resolved.get(index).map(|at| self.skill_at(at))
    }

    /// The names that neither an inline section nor a file defines, or that are no path element
    /// and have no inline section: reported, not an error.
    pub fn unknown(&self) -> Names<'_> {
        self.names(&self.unknown)
    }

    fn names<'a>(&'a self, at: &'a [Range<usize>]) -> Names<'a> {
        Names {
            bytes: &self.bytes,
            at,
        }
    }

    fn skill_at<'a>(&'a self, at: &'a SkillAt) -> Skill<'a> {
        Skill {
            name: &self.bytes[at.name.clone()],
            text: &self.bytes[at.text.clone()],
            source: &at.source,
        }
    }
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
        let files = Files::new(options)?;
        match &skills.requested {
            Some(names) => self.resolve(names.iter().map(Vec::as_slice), &files),
            None => self.resolve(self.requested().iter(), &files),
        }
    }

    /// [`Document::resolve_skills`] of the names `wanted`.
    fn resolve<'a>(
        &'a self,
        wanted: impl ExactSizeIterator<Item = &'a [u8]>,
        files: &Files,
    ) -> Result<Skills, Error> {
        // A name is found among the sections by the document's index; whether it was already
        // requested is a mark per section, or, for a name no section has, a set of those: so
        // that 10,000 names cost no more each than a few.
        let mut taken = vec![false; self.skills.len()];
        let mut others: HashSet<&[u8], RandomState> = HashSet::default();
        let mut skills = Skills::default();
        // Room for every name at once: a list of 10,000 grows no buffer of records 14 times.
        skills.requested.reserve(wanted.len());
        skills.resolved.reserve(wanted.len());
        for name in wanted {
            let inline = self.skill_named(name);
            let first = match inline {
                Some(index) => !std::mem::replace(&mut taken[index], true),
                None => others.insert(name),
            };
            if !first {
                continue;
            }
            let at = push_name(&mut skills.bytes, name);
            skills.requested.push(at.clone());
            let source = match inline {
                Some(index) => {
                    let text = &self.text[self.skills[index].text.clone()];
                    Some((push_name(&mut skills.bytes, text), Source::Inline))
                }
                None => self.skill_file(name, files, &mut skills)?,
            };
            match source {
                Some((text, source)) => skills.resolved.push(SkillAt {
                    name: at,
                    text,
                    source,
                }),
                None => skills.unknown.push(at),
            }
        }
        Ok(skills)
    }

    /// The text of the skill `skills/NAME.md` beside the document, appended to `bytes`, and
    /// where it is there; `None` when there is none. The name is checked as one path element
    /// before any path is built from it.
    fn skill_file(
        &self,
        name: &[u8],
        files: &Files,
        skills: &mut Skills,
    ) -> Result<Option<(Range<usize>, Source)>, Error> {
        let Some(origin) = &self.origin else {
            return Ok(None);
        };
        if !path::is_element(name) {
            return Ok(None);
        }
        let file = origin.beside(b"skills", &[name, b".md"].concat());
        Ok(match files.read_regular(&file)? {
            Regular::File(content) => Some((
                text::append_trimmed_lines(&content, &mut skills.bytes),
                Source::File(file),
            )),
            Regular::None => None,
            Regular::Escapes => {
                let message = [
                    &b"skill file "[..],
                    file.as_bytes(),
                    b" escapes root: not read, skill unknown",
                ]
                .concat();
                skills.warnings.push(Warning {
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
    fs: FilesFs<'a>,
    max_bytes: u64,
}

enum FilesFs<'a> {
    Custom(&'a dyn FileSystem),
    Os,
    /// Beneath `root` (absolute and clean): names are below it, and nothing outside is opened.
    Confined {
        fs: ConfinedFs,
        root: Vec<u8>,
    },
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
    pub(super) fn new(options: &'a Options) -> Result<Self, Error> {
        let fs = match (&options.fs, options.confine) {
            (Some(fs), _) => FilesFs::Custom(&**fs),
            (None, false) => FilesFs::Os,
            (None, true) => {
                let root = match &options.root {
                    Some(root) => path::absolute(root)?,
                    None => path::to_path_buf(OS_ROOT),
                };
                if path::bytes(&root) == OS_ROOT {
                    return Err(Error::confined_to_slash());
                }
                FilesFs::Confined {
                    fs: ConfinedFs::open(&root)?,
                    root: path::bytes(&root).to_vec(),
                }
            }
        };
        Ok(Self {
            fs,
            max_bytes: options.effective_max_bytes(),
        })
    }

    /// The content of the regular file at `origin` (after following links), at most
    /// `max_bytes`; more is `TooLarge`.
    pub(super) fn read_regular(&self, origin: &Origin) -> Result<Regular, Error> {
        let (fs, name): (&dyn FileSystem, FsName) = match (&self.fs, origin) {
            (FilesFs::Custom(fs), _) => (*fs, origin.name()?),
            (FilesFs::Os, _) => (&OsFs, origin.name()?),
            (FilesFs::Confined { fs, root }, Origin::Os(os_path)) => {
                let os_path = path::absolute(os_path)?;
                let os_path = path::bytes(&os_path);
                if !path::is_below_or_at(os_path, root) {
                    return Ok(Regular::Escapes);
                }
                (fs, path::name_below(root, os_path))
            }
            (FilesFs::Confined { fs, .. }, Origin::Fs(name)) => (fs, name.clone()),
        };
        let size = match fs.stat(&name) {
            Ok(Some(Entry::File { size })) => size,
            Ok(Some(Entry::Escapes)) => return Ok(Regular::Escapes),
            Ok(_) => return Ok(Regular::None),
            Err(error) if runs_through_a_file(&error) => return Ok(Regular::None),
            Err(error) => return Err(error),
        };
        let Some(content) = fs.read(&name, size, self.max_bytes.saturating_add(1))? else {
            return Ok(Regular::None);
        };
        if content.len() as u64 > self.max_bytes {
            return Err(Error::too_large(origin.as_bytes(), self.max_bytes));
        }
        Ok(Regular::File(content))
    }
}
