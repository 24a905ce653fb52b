//! Cline, cline/cline at 21cb8d2. At that commit the VS Code extension runs its sessions on the
//! SDK: `apps/vscode/src/core/context/instructions/user-instructions/` keeps only the rules'
//! toggles, and what reaches the model is the SDK's user-instruction watcher
//! (`sdk/packages/core/src/extensions/config/user-instruction-config-loader.ts`: the
//! directories of `resolveRulesConfigSearchPaths` in `sdk/packages/shared/src/storage/paths.ts`,
//! `discoverRulesLikeFiles`, `parseRuleConfigFromMarkdown`), listed and rendered by
//! `sdk/packages/core/src/runtime/safety/rules.ts` and trimmed into the system prompt by
//! `session-runtime-orchestrator.ts` (`resolveRuleContent`), the runtime's `rules` being
//! `{ workspacePath: config.cwd }` (`runtime-builder.ts`).

use std::cmp::Ordering;
use std::path::{Path, PathBuf};

use super::{env_path, home, lossy, Loader};
use crate::chain::{File, Reason, Source};
use crate::error::Error;
use crate::fs::Kind;
use crate::options::Options;
use crate::path;

/// The workspace's and the user's `AGENTS.md`.
const AGENTS: &str = "AGENTS.md";

/// The endings of a rule file (`MARKDOWN_EXTENSIONS`), compared lowercased.
const EXTENSIONS: [&str; 3] = [".md", ".markdown", ".txt"];

/// A rule as the watcher keeps it.
struct Rule {
    id: String,
    name: String,
    instructions: String,
    disabled: bool,
    path: PathBuf,
    source: Source,
}

/// The rules of `CWD/AGENTS.md`, `CWD/.clinerules` (a file, or a directory's rule files),
/// `CWD/.cline/rules`, `~/.agents/AGENTS.md`, `~/.cline/rules` (`CLINE_DIR/rules`) and
/// `~/Documents/Cline/Rules`, in that order; a rule named as an earlier one (case aside)
/// replaces it; the enabled rules sorted by name.
pub(super) fn load(loader: &mut Loader, cwd: &Path, options: &Options) -> Result<(), Error> {
    let home = home(options);
    let cline_dir = options
        .home
        .is_none()
        .then(|| env_path("CLINE_DIR"))
        .flatten()
        .or_else(|| home.as_ref().map(|home| home.join(".cline")));
    let workspace = [
        cwd.join(AGENTS),
        cwd.join(".clinerules"),
        cwd.join(".cline").join("rules"),
    ];
    let global_agents = home.as_ref().map(|home| home.join(".agents").join(AGENTS));
    let user = [
        global_agents.clone(),
        cline_dir.map(|dir| dir.join("rules")),
        home.as_ref()
            .map(|home| home.join("Documents").join("Cline").join("Rules")),
    ];
    let mut directories: Vec<(PathBuf, Source)> = Vec::new();
    let all = workspace
        .into_iter()
        .map(|dir| (dir, Source::Chain))
        .chain(user.into_iter().flatten().map(|dir| (dir, Source::Extra)));
    for (dir, source) in all {
        // `dedupePaths`: a directory named twice is read once.
        if directories.iter().all(|(seen, _)| *seen != dir) {
            directories.push((dir, source));
        }
    }
    let mut rules: Vec<Rule> = Vec::new();
    for (dir, source) in directories {
        for (path, size) in discover(loader, &dir)? {
            let text = lossy(&loader.read(&path, size)?);
            let fallback = fallback_name(&path, cwd, global_agents.as_deref());
            let Some(parsed) = parse(&text, &fallback) else {
                // An empty body (or a front matter the product cannot take) throws: no rule.
                loader.omit(&path, size, Reason::Empty, None);
                continue;
            };
            let rule = Rule {
                id: parsed.name.to_lowercase(),
                name: parsed.name,
                instructions: parsed.instructions,
                disabled: parsed.disabled,
                path,
                source,
            };
            // `records.set(id, …)`: a later file of the same id takes the earlier one's place.
            match rules.iter_mut().find(|earlier| earlier.id == rule.id) {
                Some(earlier) => {
                    let size = loader.file_size(&earlier.path)?.unwrap_or(0);
                    loader.omit(&earlier.path, size, Reason::Shadowed, Some(&rule.path));
                    *earlier = rule;
                }
                None => rules.push(rule),
            }
        }
    }
    rules.retain(|rule| !rule.disabled);
    rules.sort_by(|a, b| locale_compare(&a.name, &b.name));
    for rule in rules {
        let content = format!("## {}\n{}", rule.name, rule.instructions);
        loader.give(&rule.path, content, rule.source);
    }
    Ok(())
}

/// `discoverRulesLikeFiles` and the definition's `includeFile`: a path that is a file (links
/// followed) is itself a candidate when it is `.clinerules` or a rule file; a directory gives
/// its own regular rule files (not below, not links), then its `AGENTS.md` when that is a file
/// the listing did not give.
fn discover(loader: &Loader, dir: &Path) -> Result<Vec<(PathBuf, u64)>, Error> {
    match loader.kind(dir)? {
        Some(Kind::File { size }) => {
            let name = dir.file_name().unwrap_or_default().to_string_lossy();
            let taken = name == ".clinerules" || is_rule_file(&name);
            Ok(taken
                .then(|| (dir.to_path_buf(), size))
                .into_iter()
                .collect())
        }
        Some(Kind::Dir) => {
            let Some(mut names) = loader.files.list(&loader.files.name_of(path::bytes(dir)))?
            else {
                return Ok(Vec::new());
            };
            names.sort();
            let mut found = Vec::new();
            for name in names {
                let path = dir.join(&name);
                if !is_rule_file(&name.to_string_lossy()) || is_link(loader, &path)? {
                    continue;
                }
                if let Some(size) = loader.file_size(&path)? {
                    found.push((path, size));
                }
            }
            let agents = dir.join(AGENTS);
            let listed = found.iter().any(|(path, _)| *path == agents);
            if let (false, Some(size)) = (listed, loader.file_size(&agents)?) {
                found.push((agents, size));
            }
            Ok(found)
        }
        _ => Ok(Vec::new()),
    }
}

/// Whether `path` is a symbolic link, not followed (a directory entry that is no file).
pub(super) fn is_link(loader: &Loader, path: &Path) -> Result<bool, Error> {
    loader
        .files
        .is_link(&loader.files.name_of(path::bytes(path)))
}

/// Whether `name` ends in a rule file's extension (Node's `extname`, lowercased).
fn is_rule_file(name: &str) -> bool {
    extname(name).is_some_and(|ext| EXTENSIONS.contains(&ext.to_lowercase().as_str()))
}

/// Node's `path.extname` of a base name: from its last `.`, unless that `.` begins it.
fn extname(name: &str) -> Option<&str> {
    let dot = name.rfind('.')?;
    let leading_dots = name.len() - name.trim_start_matches('.').len();
    (dot >= leading_dots.max(1)).then(|| &name[dot..])
}

/// `resolveRuleFallbackName`: the workspace's `AGENTS.md` is `Workspace AGENTS.md`, the user's
/// `Global AGENTS.md`; any other file its base name less its extension.
fn fallback_name(path: &Path, cwd: &Path, global_agents: Option<&Path>) -> String {
    let name = path.file_name().unwrap_or_default().to_string_lossy();
    if name.to_lowercase() == AGENTS.to_lowercase() {
        if path == cwd.join(AGENTS) {
            return "Workspace AGENTS.md".to_string();
        }
        if Some(path) == global_agents {
            return "Global AGENTS.md".to_string();
        }
    }
    match extname(&name) {
        Some(ext) if ext.len() < name.len() => name[..name.len() - ext.len()].to_string(),
        _ => name.into_owned(),
    }
}

/// A rule file as `parseRuleConfigFromMarkdown` reads it.
struct Parsed {
    name: String,
    instructions: String,
    disabled: bool,
}

/// The BOM stripped, the front matter (`^---\r?\n(…)\r?\n---\r?\n?`) read for `name`,
/// `disabled` and `enabled`, and the body trimmed; `None` where the product throws (an empty
/// body, a `disabled` or `enabled` that is not a boolean, a `name` that is not a string).
fn parse(text: &str, fallback: &str) -> Option<Parsed> {
    let text = text.strip_prefix('\u{FEFF}').unwrap_or(text);
    let (front, body) = front_matter(text).unwrap_or(("", text));
    let mut name: Option<String> = None;
    let mut disabled: Option<bool> = None;
    let mut enabled: Option<bool> = None;
    for line in front.lines() {
        let Some((key, value)) = line.split_once(':') else {
            continue;
        };
        let value = plain(value.trim());
        match key.trim_end() {
            "name" => name = scalar_string(value)?,
            "disabled" => disabled = boolean(value)?,
            "enabled" => enabled = boolean(value)?,
            _ => {}
        }
    }
    let instructions = js_trim(body);
    if instructions.is_empty() {
        return None;
    }
    let name = match name.as_deref().map(js_trim) {
        Some(name) if !name.is_empty() => name.to_string(),
        _ => js_trim(fallback).to_string(),
    };
    if name.is_empty() {
        return None;
    }
    Some(Parsed {
        name,
        instructions: instructions.to_string(),
        disabled: disabled.unwrap_or(enabled == Some(false)),
    })
}

/// The front matter and the body of `text`, as the product's expression splits them.
fn front_matter(text: &str) -> Option<(&str, &str)> {
    let start = ["---\r\n", "---\n"]
        .iter()
        .find(|open| text.starts_with(*open))?
        .len();
    let rest = &text[start..];
    // The lazy group ends at the first `\n---` (less a `\r` before it).
    let at = rest.find("\n---")?;
    let front_end = match at > 0 && rest.as_bytes()[at - 1] == b'\r' {
        true => at - 1,
        false => at,
    };
    let body = &rest[at + 4..];
    let body = body.strip_prefix('\r').unwrap_or(body);
    let body = body.strip_prefix('\n').unwrap_or(body);
    Some((&rest[..front_end], body))
}

/// A YAML scalar taken as `parseStringField` takes it: `Some(None)` for nothing, `Some(text)`
/// for a string, `None` (the product throws) for a boolean or a number.
fn scalar_string(value: &str) -> Option<Option<String>> {
    if matches!(value, "" | "~" | "null" | "Null" | "NULL") {
        return Some(None);
    }
    let collection = value.starts_with('[') || value.starts_with('{');
    if boolean(value).is_some_and(|b| b.is_some()) || yaml_number(value) || collection {
        return None;
    }
    Some(Some(unquoted(value).to_string()))
}

/// A YAML boolean as `parseBooleanField` takes it: `Some(None)` for nothing, `None` (the
/// product throws) for anything else that is not a boolean.
fn boolean(value: &str) -> Option<Option<bool>> {
    match value {
        "" | "~" | "null" | "Null" | "NULL" => Some(None),
        "true" | "True" | "TRUE" => Some(Some(true)),
        "false" | "False" | "FALSE" => Some(Some(false)),
        _ => None,
    }
}

/// A plain (unquoted) YAML scalar less its comment (` #` to the end of the line).
fn plain(value: &str) -> &str {
    if value.starts_with(['"', '\'']) {
        return value;
    }
    match value.find(" #") {
        Some(at) => value[..at].trim_end(),
        None => value,
    }
}

/// Whether a plain scalar is a number in the YAML 1.2 core schema (the `yaml` package's `int`,
/// `intOct`, `intHex`, `float`, `floatExp` and `floatNaN`).
fn yaml_number(value: &str) -> bool {
    let digits = |text: &str| !text.is_empty() && text.bytes().all(|b| b.is_ascii_digit());
    if [".nan", ".NaN", ".NAN"].contains(&value) {
        return true;
    }
    if let Some(hex) = value.strip_prefix("0x") {
        return !hex.is_empty() && hex.bytes().all(|b| b.is_ascii_hexdigit());
    }
    if let Some(octal) = value.strip_prefix("0o") {
        return !octal.is_empty() && octal.bytes().all(|b| (b'0'..=b'7').contains(&b));
    }
    let unsigned = value.strip_prefix(['-', '+']).unwrap_or(value);
    if [".inf", ".Inf", ".INF"].contains(&unsigned) {
        return true;
    }
    let (mantissa, exponent) = match unsigned.find(['e', 'E']) {
        Some(at) => (&unsigned[..at], Some(&unsigned[at + 1..])),
        None => (unsigned, None),
    };
    let mantissa = match mantissa.split_once('.') {
        Some(("", fraction)) => digits(fraction),
        Some((whole, fraction)) => digits(whole) && (fraction.is_empty() || digits(fraction)),
        None => digits(mantissa),
    };
    let exponent = exponent.is_none_or(|e| digits(e.strip_prefix(['-', '+']).unwrap_or(e)));
    mantissa && exponent
}

/// `value` without the quotes that wholly enclose it.
fn unquoted(value: &str) -> &str {
    for quote in ['"', '\''] {
        if value.len() >= 2 && value.starts_with(quote) && value.ends_with(quote) {
            return &value[1..value.len() - 1];
        }
    }
    value
}

/// `# Rules`, then each rule as `## NAME` over its instructions, joined by blank lines (the
/// rules' piece of the system prompt, trimmed as `resolveRuleContent` trims it); nothing
/// without a rule.
pub(super) fn render(files: &[File]) -> Vec<u8> {
    if files.is_empty() {
        return Vec::new();
    }
    let rules: Vec<&[u8]> = files.iter().map(|file| file.content.as_slice()).collect();
    [&b"# Rules\n"[..], &rules.join(&b"\n\n"[..])].concat()
}

/// `text` less the white space JavaScript's `trim` removes: Rust's `trim` less U+0085, plus
/// U+FEFF.
pub(super) fn js_trim(text: &str) -> &str {
    text.trim_matches(|c: char| (c.is_whitespace() && c != '\u{85}') || c == '\u{FEFF}')
}

/// `a.localeCompare(b)` as Node (with ICU) orders ASCII text: the root collation's primary
/// order (white space, then punctuation and symbols in their own order, digits, letters with
/// case aside; other control characters ignored), then lower case before upper case, then
/// code points. Other characters come after letters, by code point.
pub(super) fn locale_compare(a: &str, b: &str) -> Ordering {
    const PUNCTUATION: &str = "_-,;:!?.'\"()[]{}@*/\\&#%`^+<=>|~$";
    let primary = |text: &str| -> Vec<(u8, u32)> {
        text.chars()
            .filter_map(|c| match c {
                '\t' | '\n' | '\u{B}' | '\u{C}' | '\r' | ' ' => Some((1, c as u32)),
                '0'..='9' => Some((3, c as u32)),
                'a'..='z' | 'A'..='Z' => Some((4, c.to_ascii_lowercase() as u32)),
                c if c.is_ascii_control() => None,
                c if c.is_ascii() => PUNCTUATION.find(c).map(|at| (2, at as u32)),
                c => Some((5, c as u32)),
            })
            .collect()
    };
    let tertiary = |text: &str| -> Vec<bool> {
        text.chars()
            .filter(char::is_ascii_alphabetic)
            .map(|c| c.is_ascii_uppercase())
            .collect()
    };
    primary(a)
        .cmp(&primary(b))
        .then_with(|| tertiary(a).cmp(&tertiary(b)))
        .then_with(|| a.cmp(b))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn locale_compare_orders_as_icu_root() {
        let mut names = vec!["b", "B", "a_b", "ab", "A", "10", "2", "-x", "_x", "a"];
        names.sort_by(|a, b| locale_compare(a, b));
        assert_eq!(
            names,
            ["_x", "-x", "10", "2", "a", "A", "a_b", "ab", "b", "B"]
        );
    }

    #[test]
    fn front_matter_as_the_expression_splits_it() {
        assert_eq!(
            front_matter("---\nname: x\n---\nbody"),
            Some(("name: x", "body"))
        );
        assert_eq!(front_matter("---\r\na\r\n---\r\nbody"), Some(("a", "body")));
        assert_eq!(front_matter("---\n---\nbody"), None);
        assert_eq!(front_matter("---\n\n---body"), Some(("", "body")));
        assert_eq!(front_matter("x\n---\n"), None);
    }

    #[test]
    fn yaml_numbers_of_the_core_schema() {
        for number in [
            "1", "-2", "+3", "1.", ".5", "1e3", "1.5E-2", "0x1F", "0o17", ".inf", "-.Inf", ".NaN",
        ] {
            assert!(yaml_number(number), "{number}");
        }
        for text in ["inf", "nan", "1e", ".", "0x", "1.2.3", "e3", "x1", "0o8"] {
            assert!(!yaml_number(text), "{text}");
        }
    }

    #[test]
    fn extname_as_node_gives_it() {
        assert_eq!(extname(".clinerules"), None);
        assert_eq!(extname("a.MD"), Some(".MD"));
        assert_eq!(extname(".md"), None);
        assert_eq!(extname("a.b.txt"), Some(".txt"));
    }
}
