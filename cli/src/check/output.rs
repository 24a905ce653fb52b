//! What `agentsmd check` prints: a table for people, coloured on a terminal, and one JSON object
//! for programs (docs/check.md documents both).

use std::io::IsTerminal;
use std::path::Path;

use agentsmd_core::ffi_support::path_to_bytes;
use agentsmd_core::PART_ID;
use serde_json::{json, Value};

use super::Report;
use crate::json::{bytes, list};

/// Whether the table is coloured: stdout is a terminal and `NO_COLOR` is unset or empty
/// (no-color.org).
pub fn colour() -> bool {
    let no_color = std::env::var_os("NO_COLOR").is_some_and(|value| !value.is_empty());
    std::io::stdout().is_terminal() && !no_color
}

/// The report as one JSON object, on one line ending in a newline.
pub fn json(report: &Report) -> String {
    let path = |path: &Path| bytes(path_to_bytes(path));
    let products = list(&report.products, |product| {
        let files = list(
            &product.files,
            |(file, size)| json!({ "path": path(file), "size": size }),
        );
        let omitted = list(&product.omitted, |omitted| {
            json!({
                "path": path(&omitted.path),
                "size": omitted.size,
                "reason": omitted.reason.as_str(),
                "by": omitted.by.as_deref().map_or_else(|| json!(""), path),
            })
        });
        json!({
            "preset": product.preset.as_str(),
            "product": product.preset.product(),
            "files": files,
            "omitted": omitted,
            "error": product.error.as_deref().map_or(Value::Null, |error| json!(error)),
        })
    });
    let problems = list(&report.problems, |problem| {
        json!({
            "kind": problem.kind.as_str(),
            "path": problem.path.as_deref().map_or(Value::Null, path),
            "message": problem.message,
            "products": problem.products,
        })
    });
    let object = json!({
        "part_id": PART_ID,
        "path": path(&report.path),
        "root": path(&report.root),
        "products": products,
        "problems": problems,
    });
    format!("{object}\n")
}

/// ANSI styles, or none.
struct Style {
    on: bool,
}

impl Style {
    fn paint(&self, code: &str, text: &str) -> String {
        match self.on {
            true => format!("\x1b[{code}m{text}\x1b[0m"),
            false => text.to_string(),
        }
    }
}

const BOLD: &str = "1";
const GREEN: &str = "32";
const YELLOW: &str = "33";
const RED: &str = "31";

/// The report as a table: each product with the files it loads and those it drops, cuts or
/// leaves unread, then the problems, then a last line that sums them up.
pub fn table(report: &Report, colour: bool) -> String {
    let style = Style { on: colour };
    let shown = |file: &Path| shown(file, &report.root);
    let mut out = format!(
        "agentsmd check {}\nrepository {}\n",
        escaped(path_to_bytes(&report.path)),
        escaped(path_to_bytes(&report.root))
    );
    for product in &report.products {
        let name = format!("{:<9}", product.preset.as_str());
        out += &format!(
            "\n{} {}\n",
            style.paint(BOLD, &name),
            product.preset.product()
        );
        if let Some(error) = &product.error {
            let word = style.paint(RED, &format!("{:<11}", "error"));
            out += &format!("  {word} {:>9}  {}\n", "", escaped(error.as_bytes()));
            continue;
        }
        if product.files.is_empty() && product.omitted.is_empty() {
            out += "  (no file)\n";
        }
        for (file, size) in &product.files {
            let word = style.paint(GREEN, &format!("{:<11}", "loads"));
            out += &format!("  {word} {size:>9}  {}\n", shown(file));
        }
        for omitted in &product.omitted {
            let word = format!("{:<11}", omitted.reason.as_str());
            let by = match &omitted.by {
                Some(by) => format!(" (by {})", shown(by)),
                None => String::new(),
            };
            out += &format!(
                "  {} {:>9}  {}{by}\n",
                style.paint(YELLOW, &word),
                omitted.size,
                shown(&omitted.path)
            );
        }
    }
    if !report.problems.is_empty() {
        out += &format!("\n{}\n", style.paint(BOLD, "problems"));
    }
    for problem in &report.problems {
        let kind = style.paint(RED, &format!("{:<14}", problem.kind.as_str()));
        // An error's message names its file already.
        let named = |file: &Path| problem.message.as_bytes().starts_with(path_to_bytes(file));
        let file = match &problem.path {
            Some(file) if !named(file) => format!("{}: ", shown(file)),
            _ => String::new(),
        };
        let message = escaped(problem.message.as_bytes());
        let products = problem.products.join(", ");
        out += &format!("  {kind} {file}{message} [{products}]\n");
    }
    let failing = report.products.iter();
    let failing = failing.filter(|p| !p.omitted.is_empty() || p.error.is_some());
    let summary = match (failing.count(), report.problems.len()) {
        (0, 0) => "ok: every product loads every file whole; no problem found".to_string(),
        (failing, problems) => format!(
            "{failing} of {} products drop, cut or fail something; {problems} problems",
            report.products.len()
        ),
    };
    out + "\n" + &summary + "\n"
}

/// `file` relative to `root` when inside it, else whole, [`escaped`].
fn shown(file: &Path, root: &Path) -> String {
    let relative = file
        .strip_prefix(root)
        .ok()
        .filter(|r| !r.as_os_str().is_empty());
    escaped(path_to_bytes(relative.unwrap_or(file)))
}

/// `bytes` as text that stays on its line and cannot drive the terminal: controls and bytes
/// that are not UTF-8 escaped as on stderr (SPEC §7).
fn escaped(bytes: &[u8]) -> String {
    let mut text = String::new();
    for chunk in bytes.utf8_chunks() {
        for c in chunk.valid().chars() {
            match c {
                '\n' => text.push_str("\\n"),
                '\r' => text.push_str("\\r"),
                '\t' => text.push_str("\\t"),
                c if c.is_ascii_control() => text += &format!("\\x{:02x}", u32::from(c)),
                c if c.is_control() => text += &format!("\\u{{{:04x}}}", u32::from(c)),
                c => text.push(c),
            }
        }
        for byte in chunk.invalid() {
            text += &format!("\\x{byte:02x}");
        }
    }
    text
}
