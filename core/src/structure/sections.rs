//! Headings, skill sections and body units (SPEC.md §6.1), in one pass over the lines of the
//! body that [`crate::code_regions`] marks, so that a heading inside a fence or an HTML comment
//! is text.

use std::fmt;
use std::hash::BuildHasher;
use std::ops::Range;

use foldhash::quality::RandomState;
use hashbrown::HashTable;

use super::text::{self, Span};
use super::{SkillAt, UnitAt, Warning};
use crate::code_regions;

/// What the body holds, as ranges of the text.
pub(super) struct Sections {
    pub(super) units: Vec<UnitAt>,
    pub(super) skills: Vec<SkillAt>,
    pub(super) index: SkillIndex,
    pub(super) warnings: Vec<Warning>,
}

/// The skill sections by NAME, found in constant time: at parse, a repeat; at resolve, a
/// requested name's section. It holds indices into the sections, hashed by their NAME in the
/// text, so that the document keeps it without a copy of a name; the seed is its own, so that a
/// file cannot choose colliding names.
#[derive(Clone, Default)]
pub(super) struct SkillIndex {
    /// Each section's hash and index.
    table: HashTable<(u64, usize)>,
    hasher: RandomState,
}

impl SkillIndex {
    /// An index with room for `count` sections.
    fn with_capacity(count: usize) -> Self {
        Self {
            table: HashTable::with_capacity(count),
            hasher: RandomState::default(),
        }
    }

    /// The index in `skills` (sections of `text`) of the one named `name`.
    pub(super) fn find(&self, text: &[u8], skills: &[SkillAt], name: &[u8]) -> Option<usize> {
        if self.table.is_empty() {
            return None;
        }
        let hash = self.hasher.hash_one(name);
        let named = |&(_, index): &(u64, usize)| &text[skills[index].name.clone()] == name;
        self.table.find(hash, named).map(|&(_, index)| index)
    }

    /// The index in `skills` (sections of `text`) of the one named as `skills[index]` is, which
    /// is added when there is none: `index` then.
    fn find_or_insert(&mut self, text: &[u8], skills: &[SkillAt], index: usize) -> usize {
        let name = &text[skills[index].name.clone()];
        let hash = self.hasher.hash_one(name);
        let named = |&(_, index): &(u64, usize)| &text[skills[index].name.clone()] == name;
        // Each entry keeps its hash, so that growing the table hashes no name again.
        let entry = self.table.entry(hash, named, |&(hash, _)| hash);
        entry.or_insert((hash, index)).get().1
    }
}

impl fmt::Debug for SkillIndex {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("SkillIndex")
            .field("len", &self.table.len())
            .finish_non_exhaustive()
    }
}

/// Every index of the same sections finds the same: two documents whose sections are equal have
/// equal indices, whatever their seeds.
impl PartialEq for SkillIndex {
    fn eq(&self, _: &Self) -> bool {
        true
    }
}

impl Eq for SkillIndex {}

/// What the lines being gathered will make once the next level-1 or level-2 heading ends them.
enum Part {
    Preamble,
    /// A section, its title at this range of the text.
    Section {
        title: Range<usize>,
    },
    Skill {
        name: Range<usize>,
        line: usize,
    },
}

/// The fewest bytes a skill section takes: `## Skill: x\n`.
const SKILL_HEADING_BYTES: usize = 12;

/// Splits the body of `text` (from `body` on) into units and skill sections. `lines_before` is
/// the number of lines of the file before the body (its front matter), so that lines are
/// numbered as in the file. Every line of `text` ends in `\n`. `requested` is how many names
/// the front matter requests: as many sections are expected, so that 10,000 of them grow
/// neither their list nor their index 14 times (never more than the body can hold).
pub(super) fn split(text: &[u8], body: usize, lines_before: usize, requested: usize) -> Sections {
    let expected = requested.min((text.len() - body) / SKILL_HEADING_BYTES);
    let mut sections = Builder {
        text,
        sections: Sections {
            units: Vec::new(),
            skills: Vec::with_capacity(expected),
            index: SkillIndex::with_capacity(expected),
            warnings: Vec::new(),
        },
    };
    let mut part = Part::Preamble;
    let mut span = Span::default();
    let mut offset = body;
    for line in code_regions::lines(&text[body..]) {
        let number = lines_before + line.number;
        let opens = if line.in_code {
            None
        } else {
            heading(line.text)
        };
        if let Some((level @ 1..=2, title)) = opens {
            sections.finish(part, &span);
            span = Span::default();
            part = match skill_name(level, &line.text[title.clone()]) {
                Some(name) => Part::Skill {
                    name: offset + title.start + name.start..offset + title.start + name.end,
                    line: number,
                },
                None => {
                    span.add(offset, line.raw);
                    Part::Section {
                        title: offset + title.start..offset + title.end,
                    }
                }
            };
        } else {
            span.add(offset, line.raw);
        }
        offset += line.raw.len();
    }
    sections.finish(part, &span);
    sections.sections
}

/// [`Sections`] being built from `text`.
struct Builder<'a> {
    text: &'a [u8],
    sections: Sections,
}

impl Builder<'_> {
    /// Adds what `part` made of the lines `span` gathered.
    fn finish(&mut self, part: Part, span: &Span) {
        let title = match part {
            Part::Preamble => None,
            Part::Section { title } => Some(title),
            Part::Skill { name, line } => return self.skill(name, line, span.range()),
        };
        let text = span.range();
        if !text.is_empty() {
            self.sections.units.push(UnitAt { text, title });
        }
    }

    /// Adds the skill section `name` (its heading at `line`), unless one came before.
    fn skill(&mut self, name: Range<usize>, line: usize, text: Range<usize>) {
        let Sections {
            skills,
            index,
            warnings,
            ..
        } = &mut self.sections;
        skills.push(SkillAt { name, text, line });
        let added = skills.len() - 1;
        let first = index.find_or_insert(self.text, skills, added);
        if first != added {
            warnings.push(Warning {
                line,
                message: format!(
                    "skill {:?} is defined again (first at line {}): the first stands",
                    String::from_utf8_lossy(&self.text[skills[added].name.clone()]),
                    skills[first].line
                ),
            });
            skills.pop();
        }
    }
}

/// The NAME of a `## Skill: NAME` heading, where it is in `title`: level 2, a title starting
/// with `Skill:`, and a non-empty NAME once trimmed.
fn skill_name(level: usize, title: &[u8]) -> Option<Range<usize>> {
    let after = title.strip_prefix(b"Skill:").filter(|_| level == 2)?;
    let name = text::trim_range(after);
    let skipped = title.len() - after.len();
    (!name.is_empty()).then(|| skipped + name.start..skipped + name.end)
}

/// The level of an ATX heading and where its title is in `line`, or `None` when `line` (its `\r`
/// removed) is none: 0–3 spaces, 1–6 `#`, then a space, a tab or the end of the line.
fn heading(line: &[u8]) -> Option<(usize, Range<usize>)> {
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
    let title = title(after);
    let start = indent + level;
    Some((level, start + title.start..start + title.end))
}

/// A heading's text after its opening `#`s, without surrounding spaces and tabs, and without a
/// closing run of `#`s that a space or a tab precedes (or that is all there is).
fn title(after: &[u8]) -> Range<usize> {
    let trimmed = text::trim_range(after);
    let text = &after[trimmed.clone()];
    let hashes = text.iter().rev().take_while(|&&b| b == b'#').count();
    let before = &text[..text.len() - hashes];
    if hashes == 0 || !(before.is_empty() || before.ends_with(b" ") || before.ends_with(b"\t")) {
        return trimmed;
    }
    let inner = text::trim_range(before);
    trimmed.start + inner.start..trimmed.start + inner.end
}

#[cfg(test)]
mod tests {
    use super::*;

    fn titled(line: &str) -> Option<(usize, String)> {
        heading(line.as_bytes()).map(|(level, title)| (level, line[title].to_string()))
    }

    #[test]
    fn an_atx_heading_is_up_to_three_spaces_one_to_six_hashes_then_a_space_a_tab_or_the_end() {
        assert_eq!(titled("   ## a"), Some((2, "a".into())));
        assert_eq!(titled("#\ta"), Some((1, "a".into())));
        assert_eq!(titled("###"), Some((3, "".into())));
        assert_eq!(titled("###### six"), Some((6, "six".into())));
        assert_eq!(titled("    # four spaces"), None);
        assert_eq!(titled("####### seven"), None);
        assert_eq!(titled("#hash"), None);
    }

    #[test]
    fn a_closing_run_of_hashes_is_removed_only_after_a_space_or_a_tab() {
        assert_eq!(titled("## a ##  "), Some((2, "a".into())));
        assert_eq!(titled("## a\t#"), Some((2, "a".into())));
        assert_eq!(titled("## a#"), Some((2, "a#".into())));
        assert_eq!(titled("## ## "), Some((2, "".into())));
        assert_eq!(titled("# #a #"), Some((1, "#a".into())));
    }

    #[test]
    fn a_skill_heading_is_level_two_with_a_name_after_skill_colon() {
        assert_eq!(skill_name(2, b"Skill: x y"), Some(7..10));
        assert_eq!(skill_name(2, b"Skill:x"), Some(6..7));
        assert_eq!(skill_name(2, b"Skill: \t"), None);
        assert_eq!(skill_name(1, b"Skill: x"), None);
        assert_eq!(skill_name(2, b"skill: x"), None);
    }
}
