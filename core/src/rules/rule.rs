//! One rule file as its dialect reads it (SPEC §11 "Front matter", §11.1 "Front matter keys",
//! "Rule content and bounds"): when it applies, its description, where its content starts,
//! and what it could not read.

use super::{Dialect, Pattern};
use crate::code_regions::BOM;
use crate::structure::front_matter::{self, Found, Problem, Value};

/// When a rule applies.
pub(crate) enum Applies {
    Always,
    /// When the touched path matches one of the patterns (none: never).
    Globs(Vec<Pattern>),
    /// Only when asked for: it is listed as available.
    OnRequest,
}

/// A rule file, read.
pub(crate) struct Rule {
    pub(crate) applies: Applies,
    /// The front matter's `description`, empty when none.
    pub(crate) description: String,
    /// Where its content starts: after the front matter.
    pub(crate) body: usize,
    /// Whether a front matter opens and never closes: the whole text is the rule.
    pub(crate) unclosed: bool,
    /// What could not be read, each a message that names no path.
    pub(crate) warnings: Vec<String>,
}

/// A key's value in a front matter.
#[derive(Clone)]
enum Given {
    /// A scalar: its text, `None` for null.
    Scalar(Option<String>),
    /// A list: its scalars, nulls dropped.
    List(Vec<String>),
}

impl Rule {
    /// The rule file `text` as `dialect` reads it. Never fails: what cannot be read is a
    /// warning, and a rule whose front matter cannot be read applies always (it is never
    /// dropped in silence).
    pub(crate) fn read(dialect: Dialect, text: &[u8]) -> Self {
        let bom = if text.starts_with(BOM) { BOM.len() } else { 0 };
        let mut warnings = Vec::new();
        let keys = keys(dialect);
        let found = front_matter::find(&text[bom..]);
        let unclosed = matches!(found, Found::Unclosed);
        let (values, body) = match found {
            Found::Absent => (Some(vec![None; keys.len()]), 0),
            Found::Unclosed => {
                warnings.push(format!(
                    "{}: the whole file is the rule",
                    front_matter::UNCLOSED
                ));
                (Some(vec![None; keys.len()]), 0)
            }
            Found::Closed { yaml, body, .. } => {
                let yaml = &text[bom..][yaml];
                let values = match values_of(yaml, keys) {
                    Ok(values) => Some(values),
                    // Cursor writes `globs: **/*.go`, which YAML reads as an alias.
                    Err(Problem::Malformed(_) | Problem::RepeatedKey(_))
                        if dialect.in_each_directory() =>
                    {
                        Some(line_by_line(yaml, keys))
                    }
                    Err(problem) => {
                        warnings.push(unreadable(&problem.to_string()));
                        None
                    }
                };
                (values, bom + body)
            }
        };
        let mut rule = Rule {
            applies: Applies::Always,
            description: String::new(),
            body,
            unclosed,
            warnings,
        };
        if let Some(values) = values {
            match applies(dialect, &values) {
                Ok((applies, patterns)) => {
                    rule.applies = applies;
                    let description = keys.iter().position(|&key| key == "description");
                    if let Some(Some(Given::Scalar(Some(text)))) = description.map(|at| &values[at])
                    {
                        rule.description = text.clone();
                    }
                    if let Applies::Globs(globs) = &mut rule.applies {
                        for pattern in patterns {
                            match Pattern::new(dialect, &pattern) {
                                Ok(glob) => globs.push(glob),
                                Err(invalid) => rule.warnings.push(format!(
                                    "invalid glob `{pattern}` ({}): it matches nothing",
                                    invalid.0
                                )),
                            }
                        }
                    }
                }
                Err(why) => rule.warnings.push(unreadable(&why)),
            }
        }
        rule
    }
}

fn unreadable(why: &str) -> String {
    format!("front matter unreadable ({why}): the rule applies always")
}

/// The keys `dialect` reads, `description` last where it has one.
fn keys(dialect: Dialect) -> &'static [&'static str] {
    match dialect {
        Dialect::Claude | Dialect::Cline => &["paths"],
        Dialect::Cursor => &["alwaysApply", "globs", "description"],
        Dialect::Copilot => &["applyTo", "description"],
        Dialect::Windsurf => &["trigger", "globs", "description"],
        Dialect::Kiro => &["inclusion", "fileMatchPattern", "description"],
    }
}

/// The values of `keys` in the YAML `yaml`, by index; `None` for a key it does not have.
fn values_of(yaml: &[u8], keys: &[&str]) -> Result<Vec<Option<Given>>, Problem> {
    let mut values = vec![None; keys.len()];
    front_matter::read(yaml, keys, |index, value| match value {
        Value::Scalar(text) => values[index] = Some(Given::Scalar(text.map(str::to_owned))),
        Value::List => values[index] = Some(Given::List(Vec::new())),
        Value::Item(text) => {
            if let (Some(Given::List(items)), Some(text)) = (&mut values[index], text) {
                items.push(text.to_owned());
            }
        }
    })?;
    Ok(values)
}

/// The values of `keys` in a front matter read line by line (SPEC §11 "Front matter"): `KEY:
/// VALUE`, KEY the text before the first `:` and VALUE the rest, both trimmed, VALUE unquoted
/// when wholly quoted; the last of a repeated key stands.
fn line_by_line(yaml: &[u8], keys: &[&str]) -> Vec<Option<Given>> {
    let mut values = vec![None; keys.len()];
    for line in String::from_utf8_lossy(yaml).lines() {
        let Some((key, value)) = line.split_once(':') else {
            continue;
        };
        let Some(index) = keys.iter().position(|&wanted| wanted == key.trim()) else {
            continue;
        };
        let value = value.trim();
        let quoted = value.len() >= 2
            && (value.starts_with('"') && value.ends_with('"')
                || value.starts_with('\'') && value.ends_with('\''));
        let value = if quoted {
            &value[1..value.len() - 1]
        } else {
            value
        };
        values[index] = Some(Given::Scalar(Some(value.to_string())));
    }
    values
}

/// When a rule of `dialect` whose front matter has `values` (by [`keys`]) applies, and the
/// patterns of a glob rule; why the front matter is unreadable otherwise.
fn applies(dialect: Dialect, values: &[Option<Given>]) -> Result<(Applies, Vec<String>), String> {
    let globs = |patterns: Vec<String>| Ok((Applies::Globs(Vec::new()), patterns));
    let always = Ok((Applies::Always, Vec::new()));
    let on_request = Ok((Applies::OnRequest, Vec::new()));
    let scalar = |index: usize| match &values[index] {
        None | Some(Given::Scalar(None)) => Ok(None),
        Some(Given::Scalar(Some(text))) => Ok(Some(text.as_str())),
        Some(Given::List(_)) => Err(format!("`{}` is a list", keys(dialect)[index])),
    };
    match dialect {
        Dialect::Claude | Dialect::Cline => match &values[0] {
            None => always,
            Some(paths) => globs(patterns(paths, false)),
        },
        Dialect::Cursor => {
            if matches!(scalar(0)?, Some("true" | "True" | "TRUE")) {
                return always;
            }
            match values[1].as_ref().map(|globs| patterns(globs, true)) {
                Some(patterns) if !patterns.is_empty() => globs(patterns),
                _ => on_request,
            }
        }
        Dialect::Copilot => {
            let whole = values[0].as_ref().and_then(|given| match given {
                Given::Scalar(Some(text)) => Some(text.trim()),
                _ => None,
            });
            if matches!(whole, Some("**" | "**/*" | "*")) {
                return always;
            }
            match values[0].as_ref().map(|apply_to| patterns(apply_to, true)) {
                Some(patterns) if !patterns.is_empty() => globs(patterns),
                _ => on_request,
            }
        }
        Dialect::Windsurf => match scalar(0)? {
            None | Some("model_decision" | "manual") => on_request,
            Some("always_on") => always,
            Some("glob") => globs(
                values[1]
                    .as_ref()
                    .map_or_else(Vec::new, |g| patterns(g, true)),
            ),
            Some(other) => Err(format!("unknown trigger `{other}`")),
        },
        Dialect::Kiro => match scalar(0)? {
            None | Some("always") => always,
            Some("manual" | "auto") => on_request,
            Some("fileMatch") => globs(
                values[1]
                    .as_ref()
                    .map_or_else(Vec::new, |g| patterns(g, false)),
            ),
            Some(other) => Err(format!("unknown inclusion `{other}`")),
        },
    }
}

/// The patterns of a glob key's value: a list's items, or a scalar, split at commas outside
/// `{}` and `[]` where `split`; each trimmed, empty ones dropped.
fn patterns(given: &Given, split: bool) -> Vec<String> {
    let pieces: Vec<&str> = match given {
        Given::Scalar(None) => Vec::new(),
        Given::Scalar(Some(text)) if split => split_at_commas(text),
        Given::Scalar(Some(text)) => vec![text.as_str()],
        Given::List(items) => items.iter().map(String::as_str).collect(),
    };
    let pieces = pieces.into_iter().map(str::trim).filter(|p| !p.is_empty());
    pieces.map(str::to_owned).collect()
}

/// `text` split at each comma outside `{}` and `[]`; a `]` right after a class's `[` (or its
/// `!` or `^`) is in the class (SPEC §11.1 "Globs").
fn split_at_commas(text: &str) -> Vec<&str> {
    let (mut braces, mut class_from, mut start) = (0usize, None, 0);
    let mut pieces = Vec::new();
    for (at, c) in text.char_indices() {
        match (c, class_from) {
            ('[', None) => class_from = Some(at + 1),
            ('!' | '^', Some(from)) if at == from => class_from = Some(at + 1),
            (']', Some(from)) if at != from => class_from = None,
            (_, Some(_)) => {}
            ('{', None) => braces += 1,
            ('}', None) => braces = braces.saturating_sub(1),
            (',', None) if braces == 0 => {
                pieces.push(&text[start..at]);
                start = at + 1;
            }
            _ => {}
        }
    }
    pieces.push(&text[start..]);
    pieces
}
