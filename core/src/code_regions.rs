//! The lines of a file, each marked as inside a code region (SPEC §5.4 "Code regions") or not:
//! the one scanner imports and structure share, so that both agree on what it hides.

/// One line of a text split at `\n`.
pub(crate) struct Line<'a> {
    /// The line without its `\n`, a final `\r` and (line 1) a UTF-8 BOM, as it is compared.
    pub(crate) text: &'a [u8],
    /// Where `text` starts in `raw`: 3 after line 1's BOM, else 0.
    pub(crate) text_at: usize,
    /// The line as it stands in the text, its line ending included.
    pub(crate) raw: &'a [u8],
    /// 1-based.
    pub(crate) number: usize,
    /// Whether the line is inside a fenced code block or an HTML comment.
    pub(crate) in_code: bool,
}

/// A UTF-8 byte order mark, ignored at the start of a text.
pub(crate) const BOM: &[u8] = b"\xef\xbb\xbf";

/// The code region the scan is inside, if any.
#[derive(Clone, Copy)]
enum Region {
    Text,
    /// A fence of `len` times `byte`.
    Fence {
        byte: u8,
        len: usize,
    },
    Comment,
}

/// The lines of `text`, in order, each marked by [`Line::in_code`].
pub(crate) fn lines(text: &[u8]) -> impl Iterator<Item = Line<'_>> {
    let mut region = Region::Text;
    // Each line with its `\n`, found by `memchr`: a byte loop costs a 1 MiB file twice as much.
    let mut rest = text;
    let raws = std::iter::from_fn(move || {
        let end = memchr::memchr(b'\n', rest).map_or(rest.len(), |at| at + 1);
        let (raw, after) = rest.split_at(end);
        rest = after;
        (!raw.is_empty()).then_some(raw)
    });
    raws.enumerate().map(move |(index, raw)| {
        let text = raw.strip_suffix(b"\n").unwrap_or(raw);
        let text = text.strip_suffix(b"\r").unwrap_or(text);
        let text_at = match index == 0 && text.starts_with(BOM) {
            true => BOM.len(),
            false => 0,
        };
        let text = &text[text_at..];
        let (in_code, next) = step(region, text);
        region = next;
        Line {
            text,
            text_at,
            raw,
            number: index + 1,
            in_code,
        }
    })
}

/// Whether `line`, in `region`, is inside a code region, and the region the next line is in.
fn step(region: Region, line: &[u8]) -> (bool, Region) {
    match region {
        Region::Fence { byte, len } => {
            let closes = indented(line).is_some_and(|body| {
                let run = run_of(body, byte);
                run >= len && body[run..].iter().all(|&b| b == b' ' || b == b'\t')
            });
            (true, if closes { Region::Text } else { region })
        }
        Region::Comment => {
            let ends = memchr::memmem::find(line, b"-->").is_some();
            (true, if ends { Region::Text } else { region })
        }
        Region::Text => match opens(line) {
            Some(next) => (true, next),
            None => (false, Region::Text),
        },
    }
}

/// The region a line outside any opens (`Text` for a one-line comment); `None` for text.
fn opens(line: &[u8]) -> Option<Region> {
    let body = indented(line)?;
    if let Some(after) = body.strip_prefix(b"<!--") {
        let ends = memchr::memmem::find(after, b"-->").is_some();
        return Some(if ends { Region::Text } else { Region::Comment });
    }
    let byte = *body.first()?;
    if byte != b'`' && byte != b'~' {
        return None;
    }
    let len = run_of(body, byte);
    if len < 3 || (byte == b'`' && body[len..].contains(&b'`')) {
        return None;
    }
    Some(Region::Fence { byte, len })
}

/// `line` without 0–3 leading spaces; `None` when it has four or more.
pub(crate) fn indented(line: &[u8]) -> Option<&[u8]> {
    let spaces = line.iter().take(4).take_while(|&&b| b == b' ').count();
    (spaces < 4).then(|| &line[spaces..])
}

/// How many times `byte` starts `text`.
fn run_of(text: &[u8], byte: u8) -> usize {
    text.iter().take_while(|&&b| b == byte).count()
}
