//! SPEC.md §2 read the other way: the length of a rendering from the spec's template, and a
//! strict parser that turns a rendering back into (path, content) pairs.
//!
//! The rendering is not injective, by design: content is verbatim, so `a` and `a\n` render
//! alike (the newline is added only when missing), and content holding
//! `</project_instructions>` can close its own element. The parser returns what a reader of the
//! prompt would see; the render target says which inputs must parse back exactly.

const OPEN: &[u8] = b"<project_context>\n";
const CLOSE: &[u8] = b"</project_context>";
const ELEMENT: &[u8] = b"<project_instructions path=\"";
const ELEMENT_END: &[u8] = b"\">\n";
const ELEMENT_CLOSE: &[u8] = b"</project_instructions>\n";

/// (path, content) pairs, as `render` takes them and [`parse`] gives them back.
pub type Pairs = Vec<(Vec<u8>, Vec<u8>)>;

/// The escaped form of a path byte, as SPEC.md §2 lists them; every other byte is itself.
fn entity(byte: u8) -> Option<&'static [u8]> {
    match byte {
        b'&' => Some(b"&amp;"),
        b'<' => Some(b"&lt;"),
        b'>' => Some(b"&gt;"),
        b'"' => Some(b"&quot;"),
        _ => None,
    }
}

/// Bytes of the rendering of files with these paths, content lengths and whether each content
/// ends in a newline. Counted in `u128`, so that no reported size can overflow it.
pub fn rendered_len(files: &[(&[u8], u128, bool)]) -> u128 {
    if files.is_empty() {
        return 0;
    }
    let mut len = (OPEN.len() + CLOSE.len()) as u128;
    for &(path, content_len, ends_in_newline) in files {
        let escaped: usize = path.iter().map(|&b| entity(b).map_or(1, <[u8]>::len)).sum();
        len += (ELEMENT.len() + escaped + ELEMENT_END.len() + ELEMENT_CLOSE.len()) as u128;
        len += content_len + u128::from(!ends_in_newline);
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
    out = out
        .strip_prefix(OPEN)
        .ok_or("no opening <project_context>")?;
    while let Some(rest) = out.strip_prefix(ELEMENT) {
        let end = rest
            .windows(ELEMENT_END.len())
            .position(|w| w == ELEMENT_END)
            .ok_or("an element's path is not closed")?;
        let path = unescape(&rest[..end])?;
        let rest = &rest[end + ELEMENT_END.len()..];
        let close = rest
            .windows(ELEMENT_CLOSE.len())
            .position(|w| w == ELEMENT_CLOSE)
            .ok_or("an element is not closed")?;
        let content = &rest[..close];
        if !content.ends_with(b"\n") {
            return Err("content before a closing tag does not end in a newline".into());
        }
        files.push((path, content.to_vec()));
        out = &rest[close + ELEMENT_CLOSE.len()..];
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
        let (raw, len) = [(b'&', 5), (b'<', 4), (b'>', 4), (b'"', 6)]
            .into_iter()
            .find(|&(raw, len)| attribute.len() >= len && entity(raw) == Some(&attribute[..len]))
            .ok_or("an '&' that starts no entity in a path attribute")?;
        path.push(raw);
        attribute = &attribute[len..];
    }
    Ok(path)
}
