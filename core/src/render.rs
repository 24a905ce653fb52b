//! Rendering (SPEC §2): the exact bytes a product puts in its model's prompt, and the
//! arithmetic `rendered_budget` spends, kept beside each other so they cannot disagree.

const OPEN: &[u8] = b"<project_context>\n";
const CLOSE: &[u8] = b"</project_context>";
const ELEMENT_OPEN: &[u8] = b"<project_instructions path=\"";
const ELEMENT_OPEN_END: &[u8] = b"\">\n";
const ELEMENT_CLOSE: &[u8] = b"</project_instructions>\n";

/// Bytes of the `<project_context>` wrapper around one or more files.
pub(crate) const WRAPPER_LEN: u64 = (OPEN.len() + CLOSE.len()) as u64;

/// A (path, content) pair [`render`] accepts: a [`File`](crate::File) of a chain, or a pair a
/// product built itself.
pub trait Instruction {
    /// The path written in the element's `path` attribute.
    fn path(&self) -> &[u8];
    /// The content, written verbatim.
    fn content(&self) -> &[u8];
}

impl Instruction for (&[u8], &[u8]) {
    fn path(&self) -> &[u8] {
        self.0
    }
    fn content(&self) -> &[u8] {
        self.1
    }
}

impl<T: Instruction + ?Sized> Instruction for &T {
    fn path(&self) -> &[u8] {
        (**self).path()
    }
    fn content(&self) -> &[u8] {
        (**self).content()
    }
}

/// A byte of a path as the `path` attribute holds it.
fn escape(byte: &u8) -> &[u8] {
    match byte {
        b'&' => b"&amp;",
        b'<' => b"&lt;",
        b'>' => b"&gt;",
        b'"' => b"&quot;",
        _ => std::slice::from_ref(byte),
    }
}

/// Bytes of one file's element, its path escaped and the newline added where content lacks one.
pub(crate) fn element_len(path: &[u8], content_len: u64, ends_in_newline: bool) -> u64 {
    let fixed = (ELEMENT_OPEN.len() + ELEMENT_OPEN_END.len() + ELEMENT_CLOSE.len()) as u64;
    let escaped: u64 = path.iter().map(|b| escape(b).len() as u64).sum();
    fixed
        .saturating_add(escaped)
        .saturating_add(content_len)
        .saturating_add(u64::from(!ends_in_newline))
}

/// Renders `files` as SPEC §2 defines: `<project_context>`, one `<project_instructions>`
/// element per file in order, and no newline after the closing tag; no files render as nothing.
///
/// ```
/// let files = [(&b"/r/AGENTS.md"[..], &b"root rules\n"[..])];
/// assert_eq!(
///     agentsmd_core::render(files),
///     b"<project_context>\n<project_instructions path=\"/r/AGENTS.md\">\nroot rules\n\
///       </project_instructions>\n</project_context>"
/// );
/// ```
pub fn render<I>(files: I) -> Vec<u8>
where
    I: IntoIterator,
    I::Item: Instruction,
{
    let mut out = Vec::new();
    for file in files {
        let (path, content) = (file.path(), file.content());
        let ends_in_newline = content.ends_with(b"\n");
        // Room for this element and the closing tag: one file renders in one allocation.
        let room = element_len(path, content.len() as u64, ends_in_newline) as usize + CLOSE.len();
        if out.is_empty() {
            out.reserve_exact(OPEN.len() + room);
            out.extend_from_slice(OPEN);
        } else {
            out.reserve(room);
        }
        out.extend_from_slice(ELEMENT_OPEN);
        out.extend(path.iter().flat_map(escape));
        out.extend_from_slice(ELEMENT_OPEN_END);
        out.extend_from_slice(content);
        if !ends_in_newline {
            out.push(b'\n');
        }
        out.extend_from_slice(ELEMENT_CLOSE);
    }
    if !out.is_empty() {
        out.extend_from_slice(CLOSE);
    }
    out
}
