//! The built-in transform of SPEC §5.5: `${env:NAME}` replaced from a map the caller gives, the
//! only source of values, so that a repository's text cannot pull a secret into a prompt.

use std::collections::HashMap;

use crate::error::{out_of_memory, Error};

/// `text` with each `${env:NAME}` whose `NAME` is a key of `values` replaced by its value
/// (SPEC §5.5), unbounded, unlike a chain's
/// [`Transform::interpolator`](crate::Transform::interpolator).
///
/// ```
/// use std::collections::HashMap;
///
/// let values = HashMap::from([("USER".to_owned(), b"ada".to_vec())]);
/// let text = agentsmd_core::interpolate(b"hi ${env:USER}, ${env:HOME} ${USER}", &values);
/// assert_eq!(text, b"hi ada, ${env:HOME} ${USER}");
/// ```
pub fn interpolate(text: &[u8], values: &HashMap<String, Vec<u8>>) -> Vec<u8> {
    interpolate_within(text, values, u64::MAX, b"").expect("memory for the interpolated text")
}

/// [`interpolate`] as a chain runs it on the file at `path`: an output past `max_bytes` is
/// `TooLarge`, and memory that cannot be had is an `Io` error, not an abort.
pub(crate) fn interpolate_within(
    text: &[u8],
    values: &HashMap<String, Vec<u8>>,
    max_bytes: u64,
    path: &[u8],
) -> Result<Vec<u8>, Error> {
    const OPEN: &[u8] = b"${env:";
    let no_memory = |_| Error::io("transform", path, out_of_memory());
    let limit = usize::try_from(max_bytes).unwrap_or(usize::MAX);
    let mut out = Vec::new();
    out.try_reserve_exact(text.len().min(limit))
        .map_err(no_memory)?;
    let mut push = |piece: &[u8]| {
        let len = out.len();
        if piece.len() > limit - len {
            return Err(Error::too_large(path, max_bytes));
        }
        if piece.len() > out.capacity() - len {
            // Doubling, but never past the limit.
            let room = out
                .capacity()
                .saturating_mul(2)
                .clamp(len + piece.len(), limit);
            out.try_reserve_exact(room - len).map_err(no_memory)?;
        }
        out.extend_from_slice(piece);
        Ok(())
    };
    let mut copied = 0;
    let mut at = 0;
    while let Some(dollar) = memchr::memchr(b'$', &text[at..]) {
        let start = at + dollar;
        at = start + 1;
        let Some(rest) = text[start..].strip_prefix(OPEN) else {
            continue;
        };
        let len = name_len(rest);
        if len == 0 || rest.get(len) != Some(&b'}') {
            continue;
        }
        // A valid name is ASCII, so it is a `str` as it stands.
        let name = std::str::from_utf8(&rest[..len]).unwrap_or_default();
        if let Some(value) = values.get(name) {
            push(&text[copied..start])?;
            push(value)?;
            copied = start + OPEN.len() + len + 1;
            at = copied;
        }
    }
    push(&text[copied..])?;
    Ok(out)
}

/// Whether `name` is a NAME of `${env:NAME}` (SPEC §5.5): `[A-Za-z_][A-Za-z0-9_]*`.
pub fn is_env_name(name: &[u8]) -> bool {
    !name.is_empty() && name_len(name) == name.len()
}

/// The length of the NAME (`[A-Za-z_][A-Za-z0-9_]*`) that starts `text`; 0 when none does.
fn name_len(text: &[u8]) -> usize {
    match text.first() {
        Some(b) if b.is_ascii_alphabetic() || *b == b'_' => text
            .iter()
            .take_while(|b| b.is_ascii_alphanumeric() || **b == b'_')
            .count(),
        _ => 0,
    }
}
