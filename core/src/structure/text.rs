//! The text rules SPEC §6 applies everywhere: blank lines and trimmed names.

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
    // Only the blank lines at either end are looked at, not every line of a long text.
    let blank = |b: &u8| matches!(b, b' ' | b'\t' | b'\r' | b'\n');
    let (Some(first), Some(last)) = (
        text.iter().position(|b| !blank(b)),
        text.iter().rposition(|b| !blank(b)),
    ) else {
        return Vec::new();
    };
    // From the start of the first line holding anything else, to the end of the last one
    // without its `\n`: both searches run over a few blank bytes, too few for `memchr`.
    let start = text[..first]
        .iter()
        .rposition(|&b| b == b'\n')
        .map_or(0, |at| at + 1);
    let end = text[last..]
        .iter()
        .position(|&b| b == b'\n')
        .map_or(text.len(), |at| last + at);
    [&text[start..end], b"\n"].concat()
}
