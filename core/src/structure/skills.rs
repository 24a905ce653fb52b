//! Resolving the requested skills (SPEC.md §6.2): each name to its inline `## Skill:` section,
//! else to `skills/NAME.md` beside the parsed file, else reported unknown.
//!
//! Every file this module reads goes through [`read_regular`], the one place that asks a file
//! system anything, so that a change to the file-system trait changes one function.

use std::collections::HashMap;

use foldhash::quality::RandomState;

use super::{text, Document, Origin, SkillSection};
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

/// A requested skill that resolved.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Skill {
    /// Its name, as requested.
    pub name: Vec<u8>,
    /// Its text: blank lines around it removed, ending in one `\n` (empty when blank).
    pub text: Vec<u8>,
    /// Where the text came from.
    pub source: Source,
}

/// What resolving the requested skills found.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
#[non_exhaustive]
pub struct Skills {
    /// The names requested, repeats removed, in order.
    pub requested: Vec<Vec<u8>>,
    /// The names that resolved, in request order.
    pub resolved: Vec<Skill>,
    /// The names that neither an inline section nor a file defines, or that are no path element
    /// and have no inline section: reported, not an error.
    pub unknown: Vec<Vec<u8>>,
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
        let wanted = options.requested.as_ref().unwrap_or(&self.requested);
        // One map by name: each inline section, and whether a name was already requested, so
        // that 10,000 names cost no more each than a few.
        let mut by_name: HashMap<&[u8], (Option<&SkillSection>, bool), RandomState> =
            HashMap::with_capacity_and_hasher(
                self.skills.len() + wanted.len(),
                RandomState::default(),
            );
        for skill in &self.skills {
            by_name.insert(&skill.name, (Some(skill), false));
        }
        let mut skills = Skills::default();
        for name in wanted {
            let (inline, requested) = by_name.entry(name).or_insert((None, false));
            if std::mem::replace(requested, true) {
                continue;
            }
            skills.requested.push(name.clone());
            let resolved = match inline {
                Some(section) => Some(Skill {
                    name: name.clone(),
                    text: section.text.clone(),
                    source: Source::Inline,
                }),
                None => self.skill_file(name, fs, options.max_bytes)?,
            };
            match resolved {
                Some(skill) => skills.resolved.push(skill),
                None => skills.unknown.push(name.clone()),
            }
        }
        Ok(skills)
    }

    /// [`Document::resolve_skills`] on the OS file system.
    pub fn resolve_skills_os(&self, options: &SkillOptions) -> Result<Skills, Error> {
        self.resolve_skills(options, &OsFs)
    }

    /// The skill `skills/NAME.md` beside the document defines, if any. The name is checked as
    /// one path element before any path is built from it.
    fn skill_file(
        &self,
        name: &[u8],
        fs: &dyn FileSystem,
        max_bytes: Option<u64>,
    ) -> Result<Option<Skill>, Error> {
        let Some(origin) = &self.origin else {
            return Ok(None);
        };
        if !path::is_element(name) {
            return Ok(None);
        }
        let file = origin.beside(b"skills", &[name, b".md"].concat());
        Ok(read_regular(fs, &file, max_bytes)?.map(|content| Skill {
            name: name.to_vec(),
            text: text::trimmed_lines(&content),
            source: Source::File(file),
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
