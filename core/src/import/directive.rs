//! Which lines of a file are import directives, and where each one's `P` is (SPEC §5.4
//! "Directives").

use std::collections::TryReserveError;
use std::ops::Range;

use crate::code_regions::{indented, lines};

/// One directive line of a file, as byte ranges into it.
pub(super) struct Directive {
    /// The whole line, its `\n` or `\r\n` included: what the target's content replaces.
    pub(super) line: Range<usize>,
    /// `P`.
    pub(super) target: Range<usize>,
    /// 1-based, for the messages and the provenance.
    pub(super) number: usize,
    /// Whether the line ends in `\n`: only then is a `\n` added after content that lacks one.
    pub(super) newline: bool,
}

/// The directives of `content`, in order; memory that cannot be had is an error, not an abort.
pub(super) fn directives(content: &[u8]) -> Result<Vec<Directive>, TryReserveError> {
    let mut found = Vec::new();
    // Every directive holds an `@`: a file without one, the common case, needs no line scan,
    // and the lines after the last one need none either.
    let Some(last) = memchr::memrchr(b'@', content) else {
        return Ok(found);
    };
    let mut start = 0;
    for line in lines(content) {
        if start > last {
            break;
        }
        let at = start;
        start += line.raw.len();
        let Some(target) = target_of(line.text).filter(|_| !line.in_code) else {
            continue;
        };
        found.try_reserve(1)?;
        let text = at + line.text_at;
        found.push(Directive {
            line: at..start,
            target: text + target.start..text + target.end,
            number: line.number,
            newline: line.raw.ends_with(b"\n"),
        });
    }
    Ok(found)
}

/// Where `P` is in `text` (a line less its ending) when the line is a directive; `@alice`, with
/// no `.` or `/`, stays text.
fn target_of(text: &[u8]) -> Option<Range<usize>> {
    let after_at = indented(text)?.strip_prefix(b"@")?;
    let start = text.len() - after_at.len();
    // Never below `start`: the `@` before it is no blank.
    let end = text.len() - text.iter().rev().take_while(|&&b| is_blank(b)).count();
    if let Some(rest) = after_at.strip_prefix(b"include") {
        let gap = rest.iter().take_while(|&&b| is_blank(b)).count();
        let from = start + b"include".len() + gap;
        if gap > 0 && from < end {
            return Some(from..end);
        }
    }
    let p = &text[start..end];
    let short_form = !p.is_empty()
        && !p.iter().any(|&b| is_blank(b))
        && p.iter().any(|&b| b == b'.' || b == b'/');
    short_form.then_some(start..end)
}

fn is_blank(byte: u8) -> bool {
    byte == b' ' || byte == b'\t'
}
