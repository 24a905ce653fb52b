//! The built-in transform of SPEC.md §5.5: `${env:NAME}` replaced from a map the caller gives.
//!
//! The map is the only source of values: the process environment is never read here, so that a
//! repository's text cannot pull a secret into a prompt by naming it.

use std::collections::HashMap;

/// `text` with each `${env:NAME}` whose `NAME` (`[A-Za-z_][A-Za-z0-9_]*`) is a key of `values`
/// replaced by its value. Every other `${…}` — another name, a name not in the map, no closing
/// brace — stays as it is, and a value put in is not scanned again. One pass over `text`.
///
/// ```
/// use std::collections::HashMap;
///
/// let values = HashMap::from([("USER".to_owned(), b"ada".to_vec())]);
/// let text = agentsmd_core::interpolate(b"hi ${env:USER}, ${env:HOME} ${USER}", &values);
/// assert_eq!(text, b"hi ada, ${env:HOME} ${USER}");
/// ```
pub fn interpolate(text: &[u8], values: &HashMap<String, Vec<u8>>) -> Vec<u8> {
    const OPEN: &[u8] = b"${env:";
    let mut out = Vec::with_capacity(text.len());
    let mut copied = 0;
    let mut at = 0;
    while let Some(dollar) = text[at..].iter().position(|&b| b == b'$') {
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
            out.extend_from_slice(&text[copied..start]);
            out.extend_from_slice(value);
            copied = start + OPEN.len() + len + 1;
            at = copied;
        }
    }
    out.extend_from_slice(&text[copied..]);
    out
}

/// The length of the name `[A-Za-z_][A-Za-z0-9_]*` that starts `text`; 0 when none does.
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
    fn the_process_environment_is_never_read() {
        // PATH is set in every test process; with an empty map it stays a reference.
        assert_eq!(run("${env:PATH}", &[]), "${env:PATH}");
    }
}
