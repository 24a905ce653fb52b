//! SPEC.md §6.3 read from the spec's text: which units a cap keeps, and the block's shape, so that
//! a block can be checked against what it must be.

/// A unit as the block renders it (a skill with its `### NAME\n\n`), and its title in the
/// warning.
pub struct Rendered {
    pub title: Vec<u8>,
    pub text: Vec<u8>,
    pub skill: bool,
}

/// Which of `units` fit `room` (the cap less the fixed part), visited in order: each kept when
/// its rendered length plus one (and `## Requested Skills\n\n` for the first kept skill) fits
/// what is left.
pub fn kept(units: &[Rendered], room: usize) -> Vec<bool> {
    let mut left = room;
    let mut skill_kept = false;
    units
        .iter()
        .map(|unit| {
            let header = if unit.skill && !skill_kept { 21 } else { 0 };
            let cost = header + unit.text.len() + 1;
            let fits = cost <= left;
            if fits {
                left -= cost;
                skill_kept |= unit.skill;
            }
            fits
        })
        .collect()
}

/// The units that `kept` marks, each with the `## Requested Skills` header before the first
/// skill, joined by `\n`.
pub fn joined(units: &[Rendered], kept: &[bool]) -> Vec<u8> {
    let mut out = Vec::new();
    let mut skill_seen = false;
    for (unit, _) in units.iter().zip(kept).filter(|(_, &kept)| kept) {
        if !out.is_empty() {
            out.push(b'\n');
        }
        if unit.skill && !skill_seen {
            out.extend_from_slice(b"## Requested Skills\n\n");
            skill_seen = true;
        }
        out.extend_from_slice(&unit.text);
    }
    out
}

/// The titles a WARNING line lists, unquoted, or `None` when `line` lists none as SPEC.md
/// writes it (`…: "A", "B" — read …`).
pub fn listed_titles(line: &[u8]) -> Option<Vec<Vec<u8>>> {
    let start = find(line, b" bytes): ")? + b" bytes): ".len();
    let mut rest = &line[start..];
    let mut titles = Vec::new();
    loop {
        rest = rest.strip_prefix(b"\"")?;
        let mut title = Vec::new();
        let mut bytes = rest.iter();
        loop {
            match *bytes.next()? {
                b'\\' => title.push(*bytes.next()?),
                b'"' => break,
                b => title.push(b),
            }
        }
        rest = bytes.as_slice();
        titles.push(title);
        match rest.strip_prefix(b", ") {
            Some(more) => rest = more,
            None => return rest.starts_with(" — read ".as_bytes()).then_some(titles),
        }
    }
}

pub fn find(haystack: &[u8], needle: &[u8]) -> Option<usize> {
    haystack.windows(needle.len()).position(|w| w == needle)
}
