//! The globs of rule files (SPEC §11 "Globs", §11.1 "Globs"), with each dialect's quirks in one
//! place ([`Pattern::new`]): `**/` put before a pattern that does not begin with `/` or `**/`
//! for the VS Code dialects, a leading `/` anchoring, Copilot folding ASCII case.
//!
//! Matched here rather than by `globset`: the SPEC's `?` and classes are one character (or one
//! byte that is not UTF-8) and ranges go by code point, where `globset` matches bytes, and its
//! braces do not nest.

use super::Dialect;

/// One pattern of a rule's front matter, ready to match the paths of one holder directory.
pub(crate) struct Pattern {
    /// The pattern with its braces expanded: each a list of elements.
    alternatives: Vec<Vec<Element>>,
    fold_case: bool,
}

/// Why a pattern matches nothing: an unclosed `[`, or a brace left unbalanced.
#[derive(Debug, PartialEq, Eq)]
pub(crate) struct Invalid(pub(crate) String);

/// One `/`-separated element of a pattern.
enum Element {
    /// `**`: any number of elements, none included.
    Any,
    /// A name's pattern.
    Name(Vec<Token>),
}

enum Token {
    /// A character, or a byte that is not UTF-8 ([`units`]).
    Unit(u32),
    /// `*`: any run of characters.
    Star,
    /// `?`: one character.
    One,
    /// `[…]`: one character of the ranges, or with `negated` of none of them.
    Class {
        negated: bool,
        ranges: Vec<(u32, u32)>,
    },
}

impl Pattern {
    /// The pattern `text` as `dialect` reads it.
    pub(crate) fn new(dialect: Dialect, text: &str) -> Result<Self, Invalid> {
        let fold_case = dialect == Dialect::Copilot;
        let text = match fold_case {
            true => text.to_ascii_lowercase(),
            false => text.to_string(),
        };
        let (anchored, text) = match text.strip_prefix('/') {
            Some(rest) => (true, rest.to_string()),
            None => (false, text),
        };
        let anywhere = !anchored && !text.starts_with("**/") && dialect.matches_at_any_depth();
        let text = if anywhere { format!("**/{text}") } else { text };
        let alternatives = expand_braces(&text)?
            .iter()
            .map(|alternative| alternative.split('/').map(element).collect())
            .collect::<Result<_, _>>()?;
        Ok(Self {
            alternatives,
            fold_case,
        })
    }

    /// Whether the path `relative` to the holder directory (`/`-separated, empty for the holder
    /// itself, which has no element) matches.
    pub(crate) fn matches(&self, relative: &[u8]) -> bool {
        let relative = match self.fold_case {
            true => relative.to_ascii_lowercase(),
            false => relative.to_vec(),
        };
        let names: Vec<Vec<u32>> = match relative.is_empty() {
            true => Vec::new(),
            false => relative.split(|&b| b == b'/').map(units).collect(),
        };
        self.alternatives
            .iter()
            .any(|elements| path_matches(elements, &names))
    }
}

/// The element `text` of a pattern: `**`, or a name's pattern, where `**` is `*`.
fn element(text: &str) -> Result<Element, Invalid> {
    if text == "**" {
        return Ok(Element::Any);
    }
    let chars: Vec<char> = text.chars().collect();
    let mut tokens = Vec::new();
    let mut at = 0;
    while at < chars.len() {
        let token = match chars[at] {
            '*' if matches!(tokens.last(), Some(Token::Star)) => {
                at += 1;
                continue;
            }
            '*' => Token::Star,
            '?' => Token::One,
            '[' => {
                let end = class_end(&chars, at)
                    .ok_or_else(|| Invalid("a `[` without its `]`".to_string()))?;
                let token = class(&chars[at + 1..end]);
                at = end + 1;
                tokens.push(token);
                continue;
            }
            c => Token::Unit(u32::from(c)),
        };
        tokens.push(token);
        at += 1;
    }
    Ok(Element::Name(tokens))
}

/// The class whose characters between `[` and `]` are `inside`.
fn class(inside: &[char]) -> Token {
    let negated = matches!(inside.first(), Some('!' | '^'));
    let inside = &inside[usize::from(negated)..];
    let mut ranges = Vec::new();
    let mut at = 0;
    while at < inside.len() {
        let low = u32::from(inside[at]);
        match (inside.get(at + 1), inside.get(at + 2)) {
            (Some('-'), Some(&high)) => {
                ranges.push((low, u32::from(high)));
                at += 3;
            }
            _ => {
                ranges.push((low, low));
                at += 1;
            }
        }
    }
    Token::Class { negated, ranges }
}

/// A name as the units a pattern matches: its characters, each byte that is not UTF-8 a unit
/// of its own that no character equals.
fn units(name: &[u8]) -> Vec<u32> {
    let mut units = Vec::with_capacity(name.len());
    for chunk in name.utf8_chunks() {
        units.extend(chunk.valid().chars().map(u32::from));
        units.extend(chunk.invalid().iter().map(|&b| 0x11_0000 + u32::from(b)));
    }
    units
}

/// Whether the elements of a pattern match the path's `names`, `**` any number of them.
fn path_matches(elements: &[Element], names: &[Vec<u32>]) -> bool {
    let any = |element: &Element| matches!(element, Element::Any);
    wildcard(elements, names, any, |element, name| match element {
        Element::Name(tokens) => name_matches(tokens, name),
        Element::Any => unreachable!("a run, matched by `wildcard`"),
    })
}

/// Whether a name's pattern `tokens` matches all of `name`.
fn name_matches(tokens: &[Token], name: &[u32]) -> bool {
    let star = |token: &Token| matches!(token, Token::Star);
    wildcard(tokens, name, star, |token, &unit| match token {
        Token::Unit(want) => unit == *want,
        Token::One => true,
        Token::Class { negated, ranges } => {
            ranges
                .iter()
                .any(|&(low, high)| (low..=high).contains(&unit))
                != *negated
        }
        Token::Star => unreachable!("a run, matched by `wildcard`"),
    })
}

/// Whether `pattern` matches all of `text`, where an item that `is_run` matches any run of
/// items and every other matches one as `one` says: the greedy match that goes back only to the
/// last run, in time linear in the product of the lengths whatever the pattern (a hostile one
/// such as `*a*a*a*a*b` included).
fn wildcard<P, T>(
    pattern: &[P],
    text: &[T],
    is_run: impl Fn(&P) -> bool,
    one: impl Fn(&P, &T) -> bool,
) -> bool {
    let (mut p, mut t) = (0, 0);
    // The last run met, and where in `text` it is tried to end next.
    let mut run: Option<(usize, usize)> = None;
    while t < text.len() {
        match pattern.get(p) {
            Some(item) if is_run(item) => {
                run = Some((p, t));
                p += 1;
            }
            Some(item) if one(item, &text[t]) => {
                p += 1;
                t += 1;
            }
            _ => match &mut run {
                Some((at, end)) => {
                    *end += 1;
                    p = *at + 1;
                    t = *end;
                }
                None => return false,
            },
        }
    }
    pattern[p..].iter().all(is_run)
}

/// Every pattern `text` stands for, its `{a,b}` alternatives expanded, nested ones included;
/// a brace inside a `[…]` class is a character of the class.
fn expand_braces(text: &str) -> Result<Vec<String>, Invalid> {
    let chars: Vec<char> = text.chars().collect();
    let (alternatives, end) = expand(&chars, 0, 0)?;
    debug_assert_eq!(end, chars.len());
    Ok(alternatives)
}

/// The most patterns braces may expand to, and the deepest they may nest: a hostile pattern
/// (`{a,b}` thirty times over, a million `{`) is refused rather than held or recursed into.
const MOST_ALTERNATIVES: usize = 1 << 12;
const DEEPEST: usize = 32;

/// The alternatives of `chars` from `at` to the end, or inside `depth` braces to the `}` or `,`
/// that ends the alternative of the innermost (not consumed), and where that is.
fn expand(chars: &[char], mut at: usize, depth: usize) -> Result<(Vec<String>, usize), Invalid> {
    let inner = depth > 0;
    let mut results = vec![String::new()];
    while at < chars.len() {
        match chars[at] {
            '}' | ',' if inner => return Ok((results, at)),
            '}' => return Err(Invalid("a `}` without its `{`".to_string())),
            '[' => {
                let end = class_end(chars, at)
                    .ok_or_else(|| Invalid("a `[` without its `]`".to_string()))?;
                let class: String = chars[at..=end].iter().collect();
                results
                    .iter_mut()
                    .for_each(|result| result.push_str(&class));
                at = end + 1;
            }
            '{' if depth == DEEPEST => {
                return Err(Invalid(format!("braces nested more than {DEEPEST} deep")));
            }
            '{' => {
                let mut options = Vec::new();
                at += 1;
                loop {
                    let (alternatives, end) = expand(chars, at, depth + 1)?;
                    options.extend(alternatives);
                    match chars.get(end) {
                        Some(',') => at = end + 1,
                        Some('}') => {
                            at = end + 1;
                            break;
                        }
                        _ => return Err(Invalid("a `{` without its `}`".to_string())),
                    }
                }
                let count = results.len().saturating_mul(options.len());
                if count > MOST_ALTERNATIVES {
                    let why = format!("braces expand to more than {MOST_ALTERNATIVES} patterns");
                    return Err(Invalid(why));
                }
                let mut combined = Vec::with_capacity(count);
                for result in &results {
                    for option in &options {
                        combined.push(format!("{result}{option}"));
                    }
                }
                results = combined;
            }
            c => {
                results.iter_mut().for_each(|result| result.push(c));
                at += 1;
            }
        }
    }
    match inner {
        true => Err(Invalid("a `{` without its `}`".to_string())),
        false => Ok((results, at)),
    }
}

/// Where the class opened by the `[` at `at` closes: a `]` right after the `[` (or its `!`/`^`)
/// is a character of the class.
fn class_end(chars: &[char], at: usize) -> Option<usize> {
    let mut i = at + 1;
    if matches!(chars.get(i), Some('!' | '^')) {
        i += 1;
    }
    if chars.get(i) == Some(&']') {
        i += 1;
    }
    (i..chars.len()).find(|&j| chars[j] == ']')
}

#[cfg(test)]
#[path = "../../tests/unit/rules_glob.rs"]
mod tests;
