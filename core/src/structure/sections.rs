//! Headings, skill sections and body units (SPEC §6.1), in one pass over the lines that
//! [`crate::code_regions`] marks.

use std::collections::hash_map::{Entry, HashMap};

use super::{text, Document, SkillSection, Unit, Warning};
use crate::code_regions;

/// What the lines after a level-1 or level-2 heading (or before the first) make.
enum Part<'a> {
    /// A body unit: the preamble (`None`) or the section of this title.
    Body(Option<&'a [u8]>),
    /// A skill section of this NAME, its heading at this line of the file.
    Skill { name: &'a [u8], line: usize },
}

/// Adds the units, skill sections and warnings of the body of `text` (from `body` on, after
/// `lines_before` lines of front matter) to `document`. Every line of `text` ends in `\n`.
pub(super) fn split(text: &[u8], body: usize, lines_before: usize, document: &mut Document) {
    // The part being read, and where its text starts (a skill's after its heading): each is
    // added once the next heading ends it, so that no list of them all is held.
    let mut part = (Part::Body(None), body);
    let mut first_lines = HashMap::new();
    let mut offset = body;
    for line in code_regions::lines(&text[body..]) {
        let opens = heading(line.text).filter(|_| !line.in_code);
        if let Some((level @ 1..=2, title)) = opens {
            // `## Skill: NAME`, NAME not empty once trimmed.
            let skill = title.strip_prefix(b"Skill:").filter(|_| level == 2);
            let name = skill.map(text::trim).filter(|name| !name.is_empty());
            let at = lines_before + line.number;
            let next = match name {
                Some(name) => (Part::Skill { name, line: at }, offset + line.raw.len()),
                None => (Part::Body(Some(title)), offset),
            };
            let (done, start) = std::mem::replace(&mut part, next);
            add(done, &text[start..offset], &mut first_lines, document);
        }
        offset += line.raw.len();
    }
    let (done, start) = part;
    add(done, &text[start..], &mut first_lines, document);
}

/// Adds what `part` made of its `lines` to `document`: a unit, unless blank; a skill section,
/// unless one of its NAME came before (`first_lines`).
fn add<'a>(
    part: Part<'a>,
    lines: &[u8],
    first_lines: &mut HashMap<&'a [u8], usize>,
    document: &mut Document,
) {
    let lines = text::trimmed_lines(lines);
    match part {
        Part::Body(title) if !lines.is_empty() => document.units.push(Unit {
            title: title.map(<[u8]>::to_vec),
            text: lines,
        }),
        Part::Body(_) => {}
        Part::Skill { name, line } => match first_lines.entry(name) {
            Entry::Vacant(first) => {
                first.insert(line);
                document.skills.push(SkillSection {
                    name: name.to_vec(),
                    text: lines,
                    line,
                });
            }
            Entry::Occupied(first) => document.warnings.push(Warning {
                line,
                message: format!(
                    "skill {:?} is defined again (first at line {}): the first stands",
                    String::from_utf8_lossy(name),
                    first.get()
                ),
            }),
        },
    }
}

/// The level and the title of an ATX heading, or `None` when `line` is none.
fn heading(line: &[u8]) -> Option<(usize, &[u8])> {
    let rest = code_regions::indented(line)?;
    let level = rest.iter().take_while(|&&b| b == b'#').count();
    let after = &rest[level..];
    if !(1..=6).contains(&level) || !matches!(after.first(), None | Some(b' ' | b'\t')) {
        return None;
    }
    Some((level, title(after)))
}

/// A heading's text after its opening `#`s, trimmed, without its closing run of `#`s.
fn title(after: &[u8]) -> &[u8] {
    let trimmed = text::trim(after);
    let hashes = trimmed.iter().rev().take_while(|&&b| b == b'#').count();
    let before = &trimmed[..trimmed.len() - hashes];
    if hashes == 0 || !(before.is_empty() || before.ends_with(b" ") || before.ends_with(b"\t")) {
        return trimmed;
    }
    text::trim(before)
}
