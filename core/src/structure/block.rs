//! The bounded rendering (SPEC §6.3): whole units in order while they fit the cap, and one
//! warning line that says what was dropped and where to read it.

use std::borrow::Cow;

use super::{Document, Origin, Skills};
use crate::error::Error;
use crate::options::DEFAULT_NAME;

/// The cap when none is given, in bytes.
pub const DEFAULT_CAP: usize = 8192;
/// The smallest cap in force: a lower one is raised to it.
pub const MIN_CAP: usize = 2048;
/// The heading when none is given.
pub const DEFAULT_HEADING: &[u8] = b"# Repository Agent Instructions (AGENTS.md)";

/// What goes around the units, and how many bytes they may take.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct BlockOptions {
    /// The most bytes of the block, its warning line aside; `None` or 0 means [`DEFAULT_CAP`],
    /// and a value under [`MIN_CAP`] is raised to it.
    pub cap: Option<usize>,
    /// The first line of the block; an empty one is kept as given.
    pub heading: Vec<u8>,
    /// A paragraph after the heading; empty means none.
    pub preamble: Vec<u8>,
    /// The file's name in the warning; `None`: [`Document::origin`]'s, else `AGENTS.md`.
    pub name: Option<Vec<u8>>,
    /// Where the full file is, in the warning; `None` or empty: [`Document::origin`], or `name`.
    pub location: Option<Vec<u8>>,
}

impl Default for BlockOptions {
    fn default() -> Self {
        Self {
            cap: None,
            heading: DEFAULT_HEADING.to_vec(),
            preamble: Vec::new(),
            name: None,
            location: None,
        }
    }
}

/// A unit left out of the block, for the product's log.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Dropped {
    /// A section's title, `(preamble)`, or `skill: NAME`.
    pub title: Vec<u8>,
    /// Its rendered length (a skill's `### NAME\n\n` and text, never `## Requested Skills`).
    pub bytes: usize,
}

/// The bounded rendering and what it left out.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct Block {
    /// The bytes to put in the prompt.
    pub text: Vec<u8>,
    /// The cap in force.
    pub cap: usize,
    /// The units dropped, in order.
    pub dropped: Vec<Dropped>,
}

/// Renders `document`'s units, then `skills`' resolved ones, within `options.cap` (SPEC §6.3).
/// Fails only when the heading and the preamble alone are longer than the cap in force.
pub fn block(document: &Document, skills: &Skills, options: &BlockOptions) -> Result<Block, Error> {
    let cap = match options.cap {
        None | Some(0) => DEFAULT_CAP,
        Some(cap) => cap.max(MIN_CAP),
    };
    // Each unit's title, rendering, and whether it is a skill.
    let bodies = document.units.iter().map(|unit| {
        let title = unit.title.as_deref().unwrap_or(b"(preamble)").to_vec();
        (title, Cow::Borrowed(&unit.text[..]), false)
    });
    let resolved = skills.resolved.iter().map(|skill| {
        let title = [b"skill: ", &skill.name[..]].concat();
        let rendered = [b"### ", &skill.name[..], b"\n\n", &skill.text].concat();
        (title, Cow::Owned(rendered), true)
    });
    let mut fixed = [&options.heading[..], b"\n\n"].concat();
    if !options.preamble.is_empty() {
        fixed.extend([&options.preamble[..], b"\n\n"].concat());
    }
    if fixed.len() > cap {
        return Err(Error::invalid_argument(format!(
            "block: the heading and preamble take {} bytes, more than the cap of {cap}",
            fixed.len()
        )));
    }
    let mut left = cap - fixed.len();
    let mut kept = Vec::new();
    let mut dropped = Vec::new();
    let mut skill_kept = false;
    for (title, rendered, is_skill) in bodies.chain(resolved) {
        let header: &[u8] = match is_skill && !skill_kept {
            true => b"## Requested Skills\n\n",
            false => b"",
        };
        let cost = header.len() + rendered.len() + 1;
        if cost > left {
            let bytes = rendered.len();
            dropped.push(Dropped { title, bytes });
            continue;
        }
        left -= cost;
        skill_kept |= is_skill;
        kept.push([header, &rendered].concat());
    }
    let mut text = Vec::new();
    if !kept.is_empty() || !dropped.is_empty() {
        text = fixed;
        if !dropped.is_empty() {
            warning(&mut text, document, options, cap, &dropped, kept.is_empty());
            text.extend_from_slice(if kept.is_empty() { b"\n" } else { b"\n\n" });
        }
        text.extend_from_slice(&kept.join(&b'\n'));
    }
    Ok(Block { text, cap, dropped })
}

/// Appends the WARNING line, or the WHOLE line when every unit was dropped, to `line`.
fn warning(
    line: &mut Vec<u8>,
    document: &Document,
    options: &BlockOptions,
    cap: usize,
    dropped: &[Dropped],
    whole: bool,
) {
    let origin = document.origin.as_ref();
    let name = options
        .name
        .as_deref()
        .or(origin.map(Origin::file_name))
        .unwrap_or(DEFAULT_NAME.as_bytes());
    let location = options
        .location
        .as_deref()
        .filter(|location| !location.is_empty())
        .or(origin.map(Origin::as_bytes))
        .unwrap_or(name);
    let bytes: usize = dropped.iter().map(|d| d.bytes).sum();
    line.extend_from_slice(b"> \xe2\x9a\xa0\xef\xb8\x8f ");
    controls_escaped(line, name);
    line.extend_from_slice(format!(" exceeded {cap} bytes; ").as_bytes());
    if whole {
        line.extend_from_slice(format!("the whole file was omitted ({bytes} bytes)").as_bytes());
    } else {
        let count = dropped.len();
        line.extend_from_slice(format!("{count} section(s) omitted ({bytes} bytes): ").as_bytes());
        for (index, unit) in dropped.iter().take(LISTED).enumerate() {
            if index > 0 {
                line.extend_from_slice(b", ");
            }
            quote(line, &unit.title);
        }
        if count > LISTED {
            line.extend_from_slice(format!(", and {} more", count - LISTED).as_bytes());
        }
    }
    line.extend_from_slice(" — read ".as_bytes());
    controls_escaped(line, location);
    line.extend_from_slice(b" for the full instructions before you start.");
}

/// How many dropped units the warning names, and how many bytes of each title (SPEC §6.3), so
/// that the cap bounds the block whatever the file holds; `dropped` keeps them all, whole.
const LISTED: usize = 8;
const TITLE_BYTES: usize = 64;

/// `title` quoted, cut and escaped as SPEC §6.3 says.
fn quote(out: &mut Vec<u8>, title: &[u8]) {
    // A byte 10xxxxxx continues a character, of 4 bytes at most: the cut moves back to where
    // it starts (bytes that are no UTF-8 are cut where they are).
    let end = match title.len() > TITLE_BYTES {
        true => (TITLE_BYTES - 3..=TITLE_BYTES)
            .rev()
            .find(|&end| title[end] & 0xc0 != 0x80)
            .unwrap_or(TITLE_BYTES),
        false => title.len(),
    };
    out.push(b'"');
    for &byte in &title[..end] {
        match byte {
            b'"' | b'\\' => out.extend_from_slice(&[b'\\', byte]),
            _ => controls_escaped(out, &[byte]),
        }
    }
    if end < title.len() {
        out.extend_from_slice("…".as_bytes());
    }
    out.push(b'"');
}

/// `text` with each control byte escaped (SPEC §6.3), so that no name can write a line of its
/// own into the prompt.
fn controls_escaped(out: &mut Vec<u8>, text: &[u8]) {
    for &byte in text {
        match byte {
            b'\n' => out.extend_from_slice(b"\\n"),
            b'\r' => out.extend_from_slice(b"\\r"),
            b'\t' => out.extend_from_slice(b"\\t"),
            0..=0x1f | 0x7f => out.extend_from_slice(format!("\\x{byte:02x}").as_bytes()),
            byte => out.push(byte),
        }
    }
}
