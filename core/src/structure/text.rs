//! The text rules SPEC §6 applies everywhere: blank lines, trimmed names, and the one shape of
//! every text.

/// `text` without leading and trailing spaces and tabs.
pub(super) fn trim(text: &[u8]) -> &[u8] {
    let is_space = |b: &&u8| matches!(b, b' ' | b'\t');
    let start = text.iter().take_while(is_space).count();
    let end = text.len() - text.iter().rev().take_while(is_space).count();
    &text[start.min(end)..end]
}

/// Whether a line (its `\n` removed or not) is blank: empty, or only spaces, tabs or `\r`.
pub(super) fn is_blank(line: &[u8]) -> bool {
    line.iter()
        .all(|&b| matches!(b, b' ' | b'\t' | b'\r' | b'\n'))
}

/// `text` with its leading and trailing blank lines removed, ending in one `\n` (empty when
/// every line is blank).
pub(super) fn trimmed_lines(text: &[u8]) -> Vec<u8> {
    // The first non-blank line's offset, and the end of the last one without its `\n`.
    let mut kept: Option<(usize, usize)> = None;
    let mut offset = 0;
    for raw in text.split_inclusive(|&b| b == b'\n') {
        if !is_blank(raw) {
            let end = offset + raw.strip_suffix(b"\n").unwrap_or(raw).len();
            kept = Some((kept.map_or(offset, |(start, _)| start), end));
        }
        offset += raw.len();
    }
    kept.map_or_else(Vec::new, |(start, end)| [&text[start..end], b"\n"].concat())
}
