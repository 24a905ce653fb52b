//! The `--json` output, and the one rule every JSON output of the command line follows for
//! bytes ([`bytes`]), so that JSON is as lossless as the rendering.

use std::path::Path;

use agentsmd_core::ffi_support::path_to_bytes;
use agentsmd_core::{Chain, Options, PART_ID};
use base64::engine::general_purpose::STANDARD;
use base64::Engine as _;
use serde_json::{json, Value};

/// `bytes` as a JSON value that loses nothing: a string when they are valid UTF-8, else
/// `{"bytes":"<base64>"}` in standard base64 with padding (ripgrep's convention).
pub fn bytes(bytes: &[u8]) -> Value {
    match std::str::from_utf8(bytes) {
        Ok(text) => Value::String(text.to_owned()),
        Err(_) => json!({ "bytes": STANDARD.encode(bytes) }),
    }
}

/// The chain as one JSON object (SPEC §7), ending in a newline; `imports`, `probes`,
/// `available` and `warnings` only when the `options` asked for them.
pub fn object(chain: &Chain, options: &Options) -> String {
    let mut object = json!({ "part_id": PART_ID });
    extend(&mut object, result(chain, options));
    format!("{object}\n")
}

/// A session's touches as one JSON object (SPEC §10), ending in a newline: each touch's path,
/// absolute and clean, then its delta shaped as [`object`]'s.
pub fn touches<'a>(
    deltas: impl IntoIterator<Item = (&'a Path, &'a Chain)>,
    options: &Options,
) -> String {
    let touches = list(deltas, |(path, delta)| {
        let mut touch = json!({ "path": bytes(path_to_bytes(path)) });
        extend(&mut touch, result(delta, options));
        touch
    });
    format!("{}\n", json!({ "part_id": PART_ID, "touches": touches }))
}

/// Adds the fields of the object `more` to the object `object`, in their order.
fn extend(object: &mut Value, more: Value) {
    if let (Value::Object(object), Value::Object(more)) = (object, more) {
        object.extend(more);
    }
}

/// The fields of a result: files, omitted, and imports, probes, and the rules' available and
/// warnings when asked for.
fn result(chain: &Chain, options: &Options) -> Value {
    let path = |path: &Path| bytes(path_to_bytes(path));
    let files = list(&chain.files, |file| {
        json!({
            "path": path(&file.path),
            "content": bytes(&file.content),
            "source": file.source.as_str(),
        })
    });
    let omitted = list(&chain.omitted, |omitted| {
        json!({
            "path": path(&omitted.path),
            "size": omitted.size,
            "reason": omitted.reason.as_str(),
            // No file took its place: the empty string, as the field has always been.
            "by": omitted.by.as_deref().map_or_else(|| json!(""), path),
        })
    });
    let mut object = json!({ "files": files, "omitted": omitted });
    if options.imports {
        object["imports"] = list(&chain.imports, |import| {
            json!({
                "path": path(&import.path),
                "by": path(&import.by),
                "line": import.line,
                "depth": import.depth,
                "size": import.size,
                "duplicate": import.duplicate,
            })
        });
    }
    if options.report {
        object["probes"] = list(&chain.probes, |probe| {
            json!({
                "path": path(&probe.path),
                "source": probe.source.as_str(),
                "outcome": probe.outcome.as_str(),
            })
        });
    }
    if !options.rules.is_empty() {
        object["available"] = list(&chain.available, |available| {
            json!({
                "path": path(&available.path),
                "name": available.name,
                "description": available.description,
            })
        });
        object["warnings"] = list(&chain.warnings, |warning| json!(warning));
    }
    object
}

/// The JSON array of `items`, each as `each` writes it.
pub fn list<T>(items: impl IntoIterator<Item = T>, each: impl Fn(T) -> Value) -> Value {
    items.into_iter().map(each).collect()
}
