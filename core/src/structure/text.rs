//! The small text rules §6 applies everywhere: what a blank line is, trimming a name, and the
//! one shape every text takes (blank lines around it removed, ending in one `\n`).

/// `text` without leading and trailing spaces and tabs.
pub(super) fn trim(text: &[u8]) -> &[u8] {
    let is_space = |b: &u8| matches!(b, b' ' | b'\t');
    let start = text.iter().position(|b| !is_space(b)).unwrap_or(text.len());
    let end = text
        .iter()
        .rposition(|b| !is_space(b))
        .map_or(start, |at| at + 1);
    &text[start..end]
}

/// Whether a line (its `\n` removed or not) is blank: empty, or only spaces, tabs or `\r`.
pub(super) fn is_blank(line: &[u8]) -> bool {
    line.iter()
        .all(|&b| matches!(b, b' ' | b'\t' | b'\r' | b'\n'))
}

/// Gathers lines of a text into the text they make with the leading and trailing blank lines
/// removed, ending in one `\n`: it keeps where the first and the last non-blank line are, so
/// that what lies between is copied once, whole.
#[derive(Default)]
pub(super) struct Span {
    /// The first non-blank line's offset, and the end of the last one without its `\n`.
    kept: Option<(usize, usize)>,
}

impl Span {
    /// Adds the line `raw` (its line ending included) found at `offset` in the text.
    pub(super) fn add(&mut self, offset: usize, raw: &[u8]) {
        if is_blank(raw) {
            return;
        }
        let end = offset + raw.strip_suffix(b"\n").unwrap_or(raw).len();
        let start = self.kept.map_or(offset, |(start, _)| start);
        self.kept = Some((start, end));
    }

    /// The text the lines added from `text` make: from the first non-blank line to the end of
    /// the last, then one `\n`; empty when none was non-blank.
    pub(super) fn text(&self, text: &[u8]) -> Vec<u8> {
        match self.kept {
            Some((start, end)) => [&text[start..end], b"\n"].concat(),
            None => Vec::new(),
        }
    }
}

/// `text` with its leading and trailing blank lines removed, ending in one `\n` (empty when
/// every line is blank).
pub(super) fn trimmed_lines(text: &[u8]) -> Vec<u8> {
    let mut span = Span::default();
    let mut offset = 0;
    for raw in text.split_inclusive(|&b| b == b'\n') {
        span.add(offset, raw);
        offset += raw.len();
    }
    span.text(text)
}
