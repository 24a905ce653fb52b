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

/// How many dropped units a WARNING line names, and the most bytes of a title it shows
/// (SPEC.md §6.3).
pub const LISTED: usize = 8;
pub const TITLE_BYTES: usize = 64;

/// A title as a WARNING line names it, unquoted (SPEC.md §6.3): its first [`TITLE_BYTES`] bytes,
/// back to the start of a UTF-8 character of up to 4 bytes that they would split, and `…` when
/// cut.
pub fn listed_title(title: &[u8]) -> Vec<u8> {
    if title.len() <= TITLE_BYTES {
        return title.to_vec();
    }
    let continues = |b: u8| b & 0xc0 == 0x80;
    let end = (TITLE_BYTES - 3..=TITLE_BYTES)
        .rev()
        .find(|&end| !continues(title[end]))
        .unwrap_or(TITLE_BYTES);
    [&title[..end], "…".as_bytes()].concat()
}

/// The titles a WARNING line lists, unquoted, and the M of its `, and M more` (0 when it has
/// none), or `None` when `line` lists none as SPEC.md writes it
/// (`…: "A", "B", and 3 more — read …`).
pub fn listed_titles(line: &[u8]) -> Option<(Vec<Vec<u8>>, usize)> {
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
        if let Some(more) = rest.strip_prefix(b", and ") {
            let digits = more.iter().take_while(|b| b.is_ascii_digit()).count();
            let count = std::str::from_utf8(&more[..digits]).ok()?.parse().ok()?;
            let rest = more[digits..].strip_prefix(b" more")?;
            return rest
                .starts_with(" — read ".as_bytes())
                .then_some((titles, count));
        }
        match rest.strip_prefix(b", ") {
            Some(more) => rest = more,
            None => {
                return rest
                    .starts_with(" — read ".as_bytes())
                    .then_some((titles, 0))
            }
        }
    }
}

pub fn find(haystack: &[u8], needle: &[u8]) -> Option<usize> {
    haystack.windows(needle.len()).position(|w| w == needle)
}
