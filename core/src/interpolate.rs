//! The built-in transform of SPEC.md §5.5: `${env:NAME}` replaced from a map the caller gives.
//!
//! The map is the only source of values: the process environment is never read here, so that a
//! repository's text cannot pull a secret into a prompt by naming it.

use std::collections::HashMap;
use std::convert::Infallible;

/// `text` with each `${env:NAME}` whose `NAME` (`[A-Za-z_][A-Za-z0-9_]*`) is a key of `values`
/// replaced by its value. Every other `${…}` — another name, a name not in the map, no closing
/// brace — stays as it is, and a value put in is not scanned again. One pass over `text`.
///
/// The output is as long as the values make it. A chain's interpolator
/// ([`Transform::interpolator`](crate::Transform::interpolator)) is bounded: it stops with a
/// `TooLarge` error as soon as its output passes `max_bytes` (SPEC.md §5.5).
///
/// ```
/// use std::collections::HashMap;
///
/// let values = HashMap::from([("USER".to_owned(), b"ada".to_vec())]);
/// let text = agentsmd_core::interpolate(b"hi ${env:USER}, ${env:HOME} ${USER}", &values);
/// assert_eq!(text, b"hi ada, ${env:HOME} ${USER}");
/// ```
pub fn interpolate(text: &[u8], values: &HashMap<String, Vec<u8>>) -> Vec<u8> {
    let mut out = Vec::with_capacity(text.len());
    let Ok(()) = pieces(text, values, |piece| {
        out.extend_from_slice(piece);
        Ok::<_, Infallible>(())
    });
    out
}

/// Why [`interpolate_within`] stopped.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Stop {
    /// The output would pass the limit.
    TooLarge,
    /// The memory for the output cannot be had.
    NoMemory,
}

/// [`interpolate`] as a chain runs it: the output never holds more than `limit` bytes, nor its
/// buffer more room than that, and memory that cannot be had is an answer, not an abort.
pub(crate) fn interpolate_within(
    text: &[u8],
    values: &HashMap<String, Vec<u8>>,
    limit: u64,
) -> Result<Vec<u8>, Stop> {
    let limit = usize::try_from(limit).unwrap_or(usize::MAX);
    let mut out = Vec::new();
    out.try_reserve_exact(text.len().min(limit))
        .map_err(|_| Stop::NoMemory)?;
    pieces(text, values, |piece| {
        let len = out.len();
        if piece.len() > limit - len {
            return Err(Stop::TooLarge);
        }
        if piece.len() > out.capacity() - len {
            // Doubling, but never past the limit.
            let room = out
                .capacity()
                .saturating_mul(2)
                .clamp(len + piece.len(), limit);
            out.try_reserve_exact(room - len)
                .map_err(|_| Stop::NoMemory)?;
        }
        out.extend_from_slice(piece);
        Ok(())
    })?;
    Ok(out)
}

/// The output of the interpolation of `text`, handed to `push` piece by piece, in order: the
/// text between the references replaced, and their values. The first error of `push` stops it.
fn pieces<E>(
    text: &[u8],
    values: &HashMap<String, Vec<u8>>,
    mut push: impl FnMut(&[u8]) -> Result<(), E>,
) -> Result<(), E> {
    const OPEN: &[u8] = b"${env:";
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
    push(&text[copied..])
}

/// Whether `name` is a NAME of `${env:NAME}` (SPEC.md §5.5): `[A-Za-z_][A-Za-z0-9_]*`. The
/// interpolator replaces no other; the C API and the command line refuse any other as a key of
/// its map.
///
/// ```
/// assert!(agentsmd_core::is_env_name(b"_HOME2"));
/// assert!(!agentsmd_core::is_env_name(b"2HOME") && !agentsmd_core::is_env_name(b""));
/// ```
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

#[cfg(test)]
mod tests {
    use super::*;

    fn values(pairs: &[(&str, &str)]) -> HashMap<String, Vec<u8>> {
        pairs
            .iter()
            .map(|(k, v)| (k.to_string(), v.as_bytes().to_vec()))
            .collect()
    }

    fn run(text: &str, pairs: &[(&str, &str)]) -> String {
        String::from_utf8(interpolate(text.as_bytes(), &values(pairs))).unwrap()
    }

    #[test]
    fn a_name_in_the_map_is_replaced_by_its_value() {
        assert_eq!(
            run("${env:A}-${env:_b9}${env:A}", &[("A", "x"), ("_b9", "")]),
            "x-x"
        );
    }

    #[test]
    fn a_name_not_in_the_map_stays_as_it_is() {
        assert_eq!(run("${env:HOME} ${env:A}", &[("A", "1")]), "${env:HOME} 1");
    }

    #[test]
    fn every_other_dollar_brace_stays_as_it_is() {
        let text = "${A} ${env:} ${env:9A} ${env:A-B} ${env:A ${env:A $ $$ ${ENV:A} ${env:A}}";
        assert_eq!(
            run(text, &[("A", "v"), ("9A", "n"), ("A-B", "n")]),
            "${A} ${env:} ${env:9A} ${env:A-B} ${env:A ${env:A $ $$ ${ENV:A} v}"
        );
    }

    #[test]
    fn a_value_is_not_scanned_again() {
        assert_eq!(
            run("${env:A}${env:B}", &[("A", "${env:"), ("B", "B}")]),
            "${env:B}"
        );
    }

    #[test]
    fn bytes_that_are_not_utf8_pass_through() {
        let map = values(&[("A", "v")]);
        assert_eq!(interpolate(b"\xff${env:A}\xfe", &map), b"\xffv\xfe");
    }

    #[test]
    fn a_bounded_interpolation_stops_before_its_output_passes_the_limit() {
        let map = values(&[("A", "0123456789")]);
        let text = b"${env:A}${env:A}!";
        assert_eq!(interpolate_within(text, &map, 21).unwrap().len(), 21);
        assert_eq!(interpolate_within(text, &map, 20), Err(Stop::TooLarge));
        assert_eq!(interpolate_within(text, &map, 19), Err(Stop::TooLarge));
        let out = interpolate_within(&text.repeat(100), &map, 2_100).unwrap();
        assert_eq!((out.len(), out.capacity()), (2_100, 2_100));
        assert_eq!(out, interpolate(&text.repeat(100), &map));
    }

    #[test]
    fn the_process_environment_is_never_read() {
        // PATH is set in every test process; with an empty map it stays a reference.
        assert_eq!(run("${env:PATH}", &[]), "${env:PATH}");
    }
}
