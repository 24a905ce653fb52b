//! The `--json` output: one object, written by hand because it is one fixed shape and needs
//! only string escaping.

use agentsmd::{Chain, Reason, PART_ID};

/// `bytes` as a JSON string; bytes that are not UTF-8 become U+FFFD.
fn string(out: &mut String, bytes: &[u8]) {
    out.push('"');
    for c in String::from_utf8_lossy(bytes).chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            c if u32::from(c) < 0x20 => out.push_str(&format!("\\u{:04x}", u32::from(c))),
            c => out.push(c),
        }
    }
    out.push('"');
}

/// The chain as one JSON object, ending in a newline.
pub fn object(chain: &Chain) -> String {
    let mut out = String::from("{\"part_id\":");
    string(&mut out, PART_ID.as_bytes());
    out.push_str(",\"files\":[");
    for (i, file) in chain.files.iter().enumerate() {
        out.push_str(if i == 0 { "{\"path\":" } else { ",{\"path\":" });
        string(&mut out, &file.path);
        out.push_str(",\"content\":");
        string(&mut out, &file.content);
        out.push('}');
    }
    out.push_str("],\"omitted\":[");
    for (i, omitted) in chain.omitted.iter().enumerate() {
        out.push_str(if i == 0 { "{\"path\":" } else { ",{\"path\":" });
        string(&mut out, &omitted.path);
        out.push_str(&format!(",\"size\":{},\"reason\":", omitted.size));
        out.push_str(match omitted.reason {
            Reason::OverBudget => "\"over_budget\"",
            Reason::Shadowed => "\"shadowed\"",
            Reason::Escapes => "\"escapes\"",
        });
        out.push_str(",\"by\":");
        string(&mut out, &omitted.by);
        out.push('}');
    }
    out.push_str("]}\n");
    out
}
