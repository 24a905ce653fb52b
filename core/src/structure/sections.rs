//! Headings, skill sections and body units (SPEC.md §6.1), in one pass over the lines of the
//! body that [`crate::code_regions`] marks, so that a heading inside a fence or an HTML comment
//! is text.

use std::collections::HashMap;

use foldhash::quality::RandomState;
use std::ops::Range;

use super::text::{self, Span};
use super::{SkillSection, UnitAt, Warning};
use crate::code_regions;

/// What the body holds.
pub(super) struct Sections<'a> {
    /// The units' texts, back to back, and where each unit is in them.
    pub(super) units_text: Vec<u8>,
    pub(super) units: Vec<UnitAt>,
    pub(super) skills: Vec<SkillSection>,
    pub(super) warnings: Vec<Warning>,
    /// The index in `skills` of each NAME, so that a repeat is found in constant time.
    names: HashMap<&'a [u8], usize, RandomState>,
}

/// What the lines being gathered will make once the next level-1 or level-2 heading ends them.
enum Part<'a> {
    Preamble,
    /// A section, its title at this range of its heading line (the first line of its text).
    Section {
        title: Range<usize>,
    },
    Skill {
        name: &'a [u8],
        line: usize,
    },
}

/// Splits `body` into units and skill sections. `lines_before` is the number of lines of the
/// file before `body` (its front matter), so that lines are numbered as in the file.
pub(super) fn split(body: &[u8], lines_before: usize) -> Sections<'_> {
    let mut sections = Sections {
        units_text: Vec::new(),
        units: Vec::new(),
        skills: Vec::new(),
        warnings: Vec::new(),
        names: HashMap::default(),
    };
    let mut part = Part::Preamble;
    let mut span = Span::default();
    let mut offset = 0;
    for line in code_regions::lines(body) {
        let number = lines_before + line.number;
        let opens = if line.in_code {
            None
        } else {
            heading(line.text)
        };
        if let Some((level @ 1..=2, title)) = opens {
            sections.finish(part, &span, body);
            span = Span::default();
            part = match skill_name(level, &line.text[title.clone()]) {
                Some(name) => Part::Skill { name, line: number },
                None => Part::Section { title },
            };
            if matches!(part, Part::Section { .. }) {
                span.add(offset, line.raw);
            }
        } else {
            span.add(offset, line.raw);
        }
        offset += line.raw.len();
    }
    sections.finish(part, &span, body);
    sections
}

impl<'a> Sections<'a> {
    /// Adds what `part` made of the lines `span` gathered from `body`.
    fn finish(&mut self, part: Part<'a>, span: &Span, body: &[u8]) {
        let title = match part {
            Part::Preamble => None,
            Part::Section { title } => Some(title),
            Part::Skill { name, line } => return self.skill(name, line, span.text(body)),
        };
        let text = span.append_to(body, &mut self.units_text);
        if !text.is_empty() {
            self.units.push(UnitAt { text, title });
        }
    }

    /// Adds the skill section `name` (its heading at `line`), unless one came before.
    fn skill(&mut self, name: &'a [u8], line: usize, text: Vec<u8>) {
        if let Some(&first) = self.names.get(name) {
            let first = &self.skills[first];
            self.warnings.push(Warning {
                line,
                message: format!(
                    "skill {:?} is defined again (first at line {}): the first stands",
                    String::from_utf8_lossy(name),
                    first.line
                ),
            });
        } else {
            self.names.insert(name, self.skills.len());
            self.skills.push(SkillSection {
                name: name.to_vec(),
                text,
                line,
            });
        }
    }
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

/// The NAME of a `## Skill: NAME` heading: level 2, a title starting with `Skill:`, and a
/// non-empty NAME once trimmed.
fn skill_name(level: usize, title: &[u8]) -> Option<&[u8]> {
    let name = text::trim(title.strip_prefix(b"Skill:").filter(|_| level == 2)?);
    (!name.is_empty()).then_some(name)
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
        assert_eq!(skill_name(2, b"Skill: x y"), Some(b"x y".as_slice()));
        assert_eq!(skill_name(2, b"Skill:x"), Some(b"x".as_slice()));
        assert_eq!(skill_name(2, b"Skill: \t"), None);
        assert_eq!(skill_name(1, b"Skill: x"), None);
        assert_eq!(skill_name(2, b"skill: x"), None);
    }
}
