//! The `--json` output, and the one rule every JSON output of the command line follows for
//! bytes ([`bytes`]), so that JSON is as lossless as the rendering.

use agentsmd::{Chain, Reason, PART_ID};
use base64::engine::general_purpose::STANDARD;
use base64::Engine as _;
use serde_json::{json, Value};

/// `bytes` as a JSON value that loses nothing: a string when they are valid UTF-8, else
/// `{"bytes":"<base64>"}` in standard base64 with padding (ripgrep's convention). A path or a
/// content that is not UTF-8 then stays apart from every other one, and decodes to the bytes
/// the rendering holds.
pub fn bytes(bytes: &[u8]) -> Value {
    match std::str::from_utf8(bytes) {
        Ok(text) => Value::String(text.to_owned()),
        Err(_) => json!({ "bytes": STANDARD.encode(bytes) }),
    }
}

/// The chain as one JSON object, ending in a newline.
pub fn object(chain: &Chain) -> String {
    let files: Vec<Value> = chain
        .files
        .iter()
        .map(|file| json!({ "path": bytes(&file.path), "content": bytes(&file.content) }))
        .collect();
    let omitted: Vec<Value> = chain
        .omitted
        .iter()
        .map(|omitted| {
            let reason = match omitted.reason {
                Reason::OverBudget => "over_budget",
                Reason::Shadowed => "shadowed",
                Reason::Escapes => "escapes",
            };
            json!({
                "path": bytes(&omitted.path),
                "size": omitted.size,
                "reason": reason,
                "by": bytes(&omitted.by),
            })
        })
        .collect();
    let object = json!({ "part_id": PART_ID, "files": files, "omitted": omitted });
    format!("{object}\n")
}
