//! The small text rules §6 applies everywhere: what a blank line is, trimming a name, and the
//! one shape every text takes (blank lines around it removed, ending in one `\n`).

use std::ops::Range;

/// `text` without leading and trailing spaces and tabs.
pub(super) fn trim(text: &[u8]) -> &[u8] {
    &text[trim_range(text)]
}

/// Where [`trim`]'s answer is in `text`.
pub(super) fn trim_range(text: &[u8]) -> Range<usize> {
    let is_space = |b: &u8| matches!(b, b' ' | b'\t');
    let start = text.iter().position(|b| !is_space(b)).unwrap_or(text.len());
    let end = text
        .iter()
        .rposition(|b| !is_space(b))
        .map_or(start, |at| at + 1);
    start..end
}

/// Whether a line (its `\n` removed or not) is blank: empty, or only spaces, tabs or `\r`.
pub(super) fn is_blank(line: &[u8]) -> bool {
    line.iter()
        .all(|&b| matches!(b, b' ' | b'\t' | b'\r' | b'\n'))
}

/// Gathers lines into a text with the leading and trailing blank lines removed, ending in one
/// `\n`. Lines are added as they stand in the text, so that the span between the first and the
/// last non-blank line is copied once, whole.
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

    /// Where the text the lines added make is in a text whose every line ends in `\n`: from the
    /// first non-blank line to the last one's `\n`; empty when none was non-blank.
    pub(super) fn range(&self) -> Range<usize> {
        self.kept.map_or(0..0, |(start, end)| start..end + 1)
    }

    /// Appends the text the lines added from `text` make to `out` (empty when none was
    /// non-blank), and says where it is there.
    pub(super) fn append_to(&self, text: &[u8], out: &mut Vec<u8>) -> Range<usize> {
        let at = out.len();
        if let Some((start, end)) = self.kept {
            out.extend_from_slice(&text[start..end]);
            out.push(b'\n');
        }
        at..out.len()
    }
}

/// Appends `text` with its leading and trailing blank lines removed, ending in one `\n`, to
/// `out`, and says where it is there.
pub(super) fn append_trimmed_lines(text: &[u8], out: &mut Vec<u8>) -> Range<usize> {
    let mut span = Span::default();
    let mut offset = 0;
    for raw in text.split_inclusive(|&b| b == b'\n') {
        span.add(offset, raw);
        offset += raw.len();
    }
    span.append_to(text, out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn blank_lines_around_a_text_are_removed_and_it_ends_in_one_newline() {
        let trimmed_lines = |text: &[u8]| {
            let mut out = b"before".to_vec();
            let at = append_trimmed_lines(text, &mut out);
            out[at].to_vec()
        };
        assert_eq!(
            trimmed_lines(b"\n \t\r\n a\r\n\nb  \n\n\n"),
            b" a\r\n\nb  \n"
        );
        assert_eq!(trimmed_lines(b"x"), b"x\n");
        assert_eq!(trimmed_lines(b" \n\t\n"), b"");
    }

    #[test]
    fn trimming_removes_only_spaces_and_tabs() {
        assert_eq!(trim(b" \t a b\t "), b"a b");
        assert_eq!(trim(b"\na\n"), b"\na\n");
        assert_eq!(trim(b"  "), b"");
    }
}
