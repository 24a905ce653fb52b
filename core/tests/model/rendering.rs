//! SPEC.md §2 read the other way: the length of a rendering from the spec's template, and a
//! strict parser that turns a rendering back into (path, content) pairs.
//!
//! The rendering is not injective, by design: content is verbatim, so `a` and `a\n` render
//! alike (the newline is added only when missing), and content holding
//! `</project_instructions>` can close its own element. The parser returns what a reader of the
//! prompt would see; the render target says which inputs must parse back exactly.

/// SPEC.md §2's template, as the spec writes it: the wrapper around the elements, and one
/// element per file, `P` its escaped path and `CONTENT` its content as rendered.
const OPEN: &[u8] = b"<project_context>\n";
const CLOSE: &[u8] = b"</project_context>";
const TEMPLATE: &[u8] = b"<project_instructions path=\"P\">\nCONTENT</project_instructions>\n";

/// The escapes SPEC.md §2 lists, in its order; every other byte of a path is itself.
const ESCAPES: [(u8, &[u8]); 4] = [
    (b'&', b"&amp;"),
    (b'<', b"&lt;"),
    (b'>', b"&gt;"),
    (b'"', b"&quot;"),
];

/// The template's pieces around `P` and `CONTENT`: before the path, between the path and the
/// content, after the content.
fn pieces() -> (&'static [u8], &'static [u8], &'static [u8]) {
    let find = |needle: &[u8]| {
        TEMPLATE
            .windows(needle.len())
            .position(|w| w == needle)
            .unwrap()
    };
    let (p, content) = (find(b"P\""), find(b"CONTENT"));
    (
        &TEMPLATE[..p],
        &TEMPLATE[p + 1..content],
        &TEMPLATE[content + b"CONTENT".len()..],
    )
}

/// (path, content) pairs, as `render` takes them and [`parse`] gives them back.
pub type Pairs = Vec<(Vec<u8>, Vec<u8>)>;

fn escaped(path: &[u8]) -> Vec<u8> {
    let mut out = Vec::new();
    for &byte in path {
        match ESCAPES.iter().find(|(raw, _)| *raw == byte) {
            Some((_, entity)) => out.extend_from_slice(entity),
            None => out.push(byte),
        }
    }
    out
}

/// The rendering of `files`, filled into the template.
pub fn render(files: &[(&[u8], &[u8])]) -> Vec<u8> {
    if files.is_empty() {
        return Vec::new();
    }
    let (before, between, after) = pieces();
    let mut out = OPEN.to_vec();
    for (path, content) in files {
        out.extend_from_slice(before);
        out.extend_from_slice(&escaped(path));
        out.extend_from_slice(between);
        out.extend_from_slice(&as_rendered(content));
        out.extend_from_slice(after);
    }
    out.extend_from_slice(CLOSE);
    out
}

/// Bytes of the rendering of files with these paths, content lengths and whether each content
/// ends in a newline: the template filled with an empty content that ends in one, measured,
/// plus each content and the newline added when it does not. Counted in `u128`, so that no
/// reported size can overflow it.
pub fn rendered_len(files: &[(&[u8], u128, bool)]) -> u128 {
    if files.is_empty() {
        return 0;
    }
    let mut len = (OPEN.len() + CLOSE.len()) as u128;
    for &(path, content_len, ends_in_newline) in files {
        let empty = render(&[(path, b"\n")]).len() - OPEN.len() - CLOSE.len() - 1;
        len += empty as u128 + content_len + u128::from(!ends_in_newline);
    }
    len
}

/// The content as it reads in a rendering: with the newline render adds when it is missing.
pub fn as_rendered(content: &[u8]) -> Vec<u8> {
    let mut out = content.to_vec();
    if !out.ends_with(b"\n") {
        out.push(b'\n');
    }
    out
}

/// Parses a rendering into (path, content as rendered) pairs, or says why it is not one: the
/// wrapper exactly, each element's path attribute unescaped (a raw `<`, `>` or `"`, or an `&`
/// that starts no entity, is refused), and each content up to the first closing tag.
pub fn parse(mut out: &[u8]) -> Result<Pairs, String> {
    let mut files = Vec::new();
    if out.is_empty() {
        return Ok(files);
    }
    let (element, element_end, element_close) = pieces();
    out = out
        .strip_prefix(OPEN)
        .ok_or("no opening <project_context>")?;
    while let Some(rest) = out.strip_prefix(element) {
        let end = rest
            .windows(element_end.len())
            .position(|w| w == element_end)
            .ok_or("an element's path is not closed")?;
        let path = unescape(&rest[..end])?;
        let rest = &rest[end + element_end.len()..];
        let close = rest
            .windows(element_close.len())
            .position(|w| w == element_close)
            .ok_or("an element is not closed")?;
        let content = &rest[..close];
        if !content.ends_with(b"\n") {
            return Err("content before a closing tag does not end in a newline".into());
        }
        files.push((path, content.to_vec()));
        out = &rest[close + element_close.len()..];
    }
    if out != CLOSE {
        return Err(format!(
            "after {} elements: {:?} is not the closing </project_context>",
            files.len(),
            String::from_utf8_lossy(out)
        ));
    }
    if files.is_empty() {
        return Err("a rendering of no files is the empty string".into());
    }
    Ok(files)
}

fn unescape(mut attribute: &[u8]) -> Result<Vec<u8>, String> {
    let mut path = Vec::new();
    while let Some((&byte, rest)) = attribute.split_first() {
        if matches!(byte, b'<' | b'>' | b'"') {
            return Err(format!("raw {:?} in a path attribute", byte as char));
        }
        if byte != b'&' {
            path.push(byte);
            attribute = rest;
            continue;
        }
        let (raw, entity) = ESCAPES
            .iter()
            .find(|(_, entity)| attribute.starts_with(entity))
            .ok_or("an '&' that starts no entity in a path attribute")?;
        path.push(*raw);
        attribute = &attribute[entity.len()..];
    }
    Ok(path)
}
