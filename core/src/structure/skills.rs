//! Resolving the requested skills (SPEC.md §6.2): each name to its inline `## Skill:` section,
//! else to `skills/NAME.md` beside the parsed file, else reported unknown.
//!
//! Every file this module reads goes through [`read_regular`], the one place that asks a file
//! system anything, so that a change to the file-system trait changes one function.

use std::collections::HashSet;
use std::ops::Range;

use foldhash::quality::RandomState;

use super::{push_name, text, Document, Names, Origin};
use crate::chain::runs_through_a_file;
use crate::error::Error;
use crate::fs::{Entry, FileSystem, OsFs};
use crate::options::DEFAULT_MAX_BYTES;
use crate::path;

/// How [`Document::resolve_skills`] resolves.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
#[non_exhaustive]
pub struct SkillOptions {
    /// The caller's list of names; `None` takes the front matter's. An empty list requests none.
    pub requested: Option<Vec<Vec<u8>>>,
    /// The most bytes a skill file may hold (more is
    /// [`ErrorKind::TooLarge`](crate::ErrorKind::TooLarge)); `None` means [`DEFAULT_MAX_BYTES`].
    pub max_bytes: Option<u64>,
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
    /// Resolves the requested skills, reading `skills/NAME.md` files through `fs` in the
    /// directory of [`Document::origin`] (none are read when the document has none). `fs` is the
    /// file system the document was read from: an OS origin is named below `/` in it, as
    /// [`OsFs`] names files.
    ///
    /// Fails only when reading a skill file fails: too large, or a stat or read error other than
    /// "no such file", a link that loops or a path through a non-directory.
    pub fn resolve_skills(
        &self,
        options: &SkillOptions,
        fs: &dyn FileSystem,
    ) -> Result<Skills, Error> {
        match &options.requested {
            Some(names) => self.resolve(names.iter().map(Vec::as_slice), options, fs),
            None => self.resolve(self.requested().iter(), options, fs),
        }
    }

    /// [`Document::resolve_skills`] of the names `wanted`.
    fn resolve<'a>(
        &'a self,
        wanted: impl ExactSizeIterator<Item = &'a [u8]>,
        options: &SkillOptions,
        fs: &dyn FileSystem,
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
                None => self.skill_file(name, fs, options.max_bytes, &mut skills.bytes)?,
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

    /// [`Document::resolve_skills`] on the OS file system.
    pub fn resolve_skills_os(&self, options: &SkillOptions) -> Result<Skills, Error> {
        self.resolve_skills(options, &OsFs)
    }

    /// The text of the skill `skills/NAME.md` beside the document, appended to `bytes`, and
    /// where it is there; `None` when there is none. The name is checked as one path element
    /// before any path is built from it.
    fn skill_file(
        &self,
        name: &[u8],
        fs: &dyn FileSystem,
        max_bytes: Option<u64>,
        bytes: &mut Vec<u8>,
    ) -> Result<Option<(Range<usize>, Source)>, Error> {
        let Some(origin) = &self.origin else {
            return Ok(None);
        };
        if !path::is_element(name) {
            return Ok(None);
        }
        let file = origin.beside(b"skills", &[name, b".md"].concat());
        Ok(read_regular(fs, &file, max_bytes)?.map(|content| {
            (
                text::append_trimmed_lines(&content, bytes),
                Source::File(file),
            )
        }))
    }
}

/// The content of the regular file at `origin` (after following links), at most `max_bytes`
/// (`None`: [`DEFAULT_MAX_BYTES`]); `None` when there is no regular file there: nothing,
/// something else, a link that loops or runs through a non-directory (SPEC.md §1), a path
/// through a file (as a custom file system answers it, and as imports take it), or a file gone
/// between stat and read.
pub(super) fn read_regular(
    fs: &dyn FileSystem,
    origin: &Origin,
    max_bytes: Option<u64>,
) -> Result<Option<Vec<u8>>, Error> {
    let max_bytes = max_bytes.unwrap_or(DEFAULT_MAX_BYTES);
    let name = origin.name()?;
    let size = match fs.stat(&name) {
        Ok(Some(Entry::File { size })) => size,
        Ok(_) => return Ok(None),
        Err(error) if runs_through_a_file(&error) => return Ok(None),
        Err(error) => return Err(error),
    };
    let content = fs.read(&name, size, max_bytes.saturating_add(1))?;
    if content
        .as_ref()
        .is_some_and(|content| content.len() as u64 > max_bytes)
    {
        return Err(Error::too_large(origin.as_bytes(), max_bytes));
    }
    Ok(content)
}
