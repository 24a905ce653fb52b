//! Headings, skill sections and body units (SPEC.md §6.1), in one pass over the lines of the
//! body that [`crate::code_regions`] marks, so that a heading inside a fence or an HTML comment
//! is text.

use std::collections::hash_map::{Entry, HashMap};

use super::text::{self, Span};
use super::{SkillSection, Unit, Warning};
use crate::code_regions;

/// What the body holds.
#[derive(Default)]
pub(super) struct Sections {
    pub(super) units: Vec<Unit>,
    pub(super) skills: Vec<SkillSection>,
    pub(super) warnings: Vec<Warning>,
}

/// What the lines being gathered will make once the next level-1 or level-2 heading ends them.
enum Part<'a> {
    Preamble,
    /// A section under a heading of this title.
    Section {
        title: &'a [u8],
    },
    /// A skill section of this NAME, its heading at this line of the file.
    Skill {
        name: &'a [u8],
        line: usize,
    },
}

/// Splits the body of `text` (from `body` on) into units and skill sections. `lines_before` is
/// the number of lines of the file before the body (its front matter), so that lines are
/// numbered as in the file. Every line of `text` ends in `\n`.
pub(super) fn split(text: &[u8], body: usize, lines_before: usize) -> Sections {
    let mut builder = Builder {
        text,
        sections: Sections::default(),
        first_lines: HashMap::new(),
    };
    let mut part = Part::Preamble;
    let mut span = Span::default();
    let mut offset = body;
    for line in code_regions::lines(&text[body..]) {
        let opens = if line.in_code {
            None
        } else {
            heading(line.text)
        };
        if let Some((level @ 1..=2, title)) = opens {
            builder.finish(part, &span);
            span = Span::default();
            part = match skill_name(level, title) {
                Some(name) => Part::Skill {
                    name,
                    line: lines_before + line.number,
                },
                None => {
                    span.add(offset, line.raw);
                    Part::Section { title }
                }
            };
        } else {
            span.add(offset, line.raw);
        }
        offset += line.raw.len();
    }
    builder.finish(part, &span);
    builder.sections
}

/// [`Sections`] being built from `text`.
struct Builder<'a> {
    text: &'a [u8],
    sections: Sections,
    /// The line of each skill NAME's first section, so that a repeat is found in constant time.
    first_lines: HashMap<&'a [u8], usize>,
}

impl<'a> Builder<'a> {
    /// Adds what `part` made of the lines `span` gathered.
    fn finish(&mut self, part: Part<'a>, span: &Span) {
        let title = match part {
            Part::Preamble => None,
            Part::Section { title } => Some(title.to_vec()),
            Part::Skill { name, line } => return self.skill(name, line, span),
        };
        let text = span.text(self.text);
        if !text.is_empty() {
            self.sections.units.push(Unit { title, text });
        }
    }

    /// Adds the skill section `name` (its heading at `line`), unless one came before.
    fn skill(&mut self, name: &'a [u8], line: usize, span: &Span) {
        match self.first_lines.entry(name) {
            Entry::Vacant(first) => {
                first.insert(line);
                self.sections.skills.push(SkillSection {
                    name: name.to_vec(),
                    text: span.text(self.text),
                    line,
                });
            }
            Entry::Occupied(first) => self.sections.warnings.push(Warning {
                line,
                message: format!(
                    "skill {:?} is defined again (first at line {}): the first stands",
                    String::from_utf8_lossy(name),
                    first.get()
                ),
            }),
        }
    }
}

/// The NAME of a `## Skill: NAME` heading of `title`: level 2, a title starting with `Skill:`,
/// and a non-empty NAME once trimmed.
fn skill_name(level: usize, title: &[u8]) -> Option<&[u8]> {
    let after = title.strip_prefix(b"Skill:").filter(|_| level == 2)?;
    let name = text::trim(after);
    (!name.is_empty()).then_some(name)
}

/// The level and the title of an ATX heading, or `None` when `line` (its `\r` removed) is none:
/// 0–3 spaces, 1–6 `#`, then a space, a tab or the end of the line.
fn heading(line: &[u8]) -> Option<(usize, &[u8])> {
    let indent = line.iter().take(4).take_while(|&&b| b == b' ').count();
    if indent > 3 {
        return None;
    }
    let rest = &line[indent..];
    let level = rest.iter().take_while(|&&b| b == b'#').count();
    let after = &rest[level..];
    if !(1..=6).contains(&level) || !matches!(after.first(), None | Some(b' ' | b'\t')) {
        return None;
    }
    Some((level, title(after)))
}

/// A heading's text after its opening `#`s, without surrounding spaces and tabs, and without a
/// closing run of `#`s that a space or a tab precedes (or that is all there is).
fn title(after: &[u8]) -> &[u8] {
    let trimmed = text::trim(after);
    let hashes = trimmed.iter().rev().take_while(|&&b| b == b'#').count();
    let before = &trimmed[..trimmed.len() - hashes];
    if hashes == 0 || !(before.is_empty() || before.ends_with(b" ") || before.ends_with(b"\t")) {
        return trimmed;
    }
    text::trim(before)
}
