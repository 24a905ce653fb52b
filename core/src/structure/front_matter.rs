//! Front matter (SPEC §6.1, §6.4): where it is, and the values of the keys a reader asks for —
//! `skills` for structure, a dialect's keys for rules (§11).
//!
//! The YAML is read through `saphyr-parser`'s events rather than a loaded value: an event
//! carries a plain scalar's text as written, which is what a name or a glob is (`[1, yes]` asks
//! for `1` and `yes`, not a number and a boolean).

use std::collections::{HashMap, HashSet};
use std::fmt;
use std::ops::Range;
use std::rc::Rc;

use saphyr_parser::{Event, Parser, ScalarStyle, StrInput, Tag};

use super::{text, Document, Warning};
use crate::code_regions::BOM;

/// Where the front matter of a text is (SPEC §6.1).
pub(crate) enum Found {
    /// Line 1 does not open one.
    Absent,
    /// Line 1 opens one and no line closes it: there is none, and the whole text is body.
    Unclosed,
    Closed {
        /// The YAML between the two marker lines.
        yaml: Range<usize>,
        /// Where the body starts, and how many lines come before it.
        body: usize,
        lines: usize,
    },
}

/// Where the front matter of `text` (no BOM) is.
pub(crate) fn find(text: &[u8]) -> Found {
    // A search for `\n`, not a test of every byte: the front matter's one line may be long.
    let mut rest = text;
    let mut lines = std::iter::from_fn(|| {
        let end = memchr::memchr(b'\n', rest).map_or(rest.len(), |at| at + 1);
        let (line, after) = rest.split_at(end);
        rest = after;
        (!line.is_empty()).then_some(line)
    });
    let Some(first) = lines.next().filter(|first| is_marker(first, b"---")) else {
        return Found::Absent;
    };
    let mut offset = first.len();
    for (index, line) in lines.enumerate() {
        if is_marker(line, b"---") || is_marker(line, b"...") {
            return Found::Closed {
                yaml: first.len()..offset,
                body: offset + line.len(),
                lines: index + 2,
            };
        }
        offset += line.len();
    }
    Found::Unclosed
}

/// Whether the start `text` of a text tells where its front matter is: its first line is
/// whole and opens none, or a later whole line closes it.
pub(crate) fn is_known(text: &[u8]) -> bool {
    let text = text.strip_prefix(BOM).unwrap_or(text);
    // A last line not yet whole may be the start of another.
    let whole = memchr::memrchr(b'\n', text).map_or(&b""[..], |end| &text[..=end]);
    !whole.is_empty() && !matches!(find(whole), Found::Unclosed)
}

/// Reads the front matter of `text` (no BOM, every line ending in `\n`) into `document`'s
/// requested names and warnings. Answers where the body starts and how many lines come before
/// it: `(0, 0)` when there is no front matter.
pub(super) fn split(text: &[u8], document: &mut Document) -> (usize, usize) {
    let (yaml, body, lines) = match find(text) {
        Found::Absent => return (0, 0),
        Found::Unclosed => {
            document.warnings.push(Warning {
                line: 1,
                message: format!("{UNCLOSED}: the whole file is body"),
            });
            return (0, 0);
        }
        Found::Closed { yaml, body, lines } => (yaml, body, lines),
    };
    // Each name is added as it is read: a list of them all first would hold the names twice.
    let mut names = Vec::new();
    let read = read(&text[yaml], &["skills"], |_, value| {
        let (Value::Scalar(Some(name)) | Value::Item(Some(name))) = value else {
            return;
        };
        let name = text::trim(name.as_bytes());
        if !name.is_empty() {
            names.push(name.to_vec());
        }
    });
    match read {
        Ok(()) => document.requested = names,
        Err(problem) => document.warnings.push(Warning {
            line: 1,
            message: format!("front matter ignored: {problem}"),
        }),
    }
    (body, lines)
}

/// The warning of a front matter that opens and never closes, before what that makes of it.
pub(crate) const UNCLOSED: &str = "front matter has no closing `---` or `...` line";

/// Whether `line` is `marker` followed only by spaces, tabs, `\r` and its `\n`.
fn is_marker(line: &[u8], marker: &[u8]) -> bool {
    line.strip_prefix(marker).is_some_and(text::is_blank)
}

/// A value of a key asked for, as [`read`] hands it over piece by piece.
pub(crate) enum Value<'a> {
    /// The value is a scalar (or an alias of one): its text as written, `None` for null.
    Scalar(Option<&'a str>),
    /// The value is a sequence: its items follow.
    List,
    /// An item of the sequence, a scalar: its text, `None` for null.
    Item(Option<&'a str>),
}

/// Why a front matter's keys cannot be read.
#[derive(Debug)]
pub(crate) enum Problem {
    /// It is not one YAML document that is a mapping (or null).
    Malformed(String),
    /// A mapping repeats a key (SPEC §6.4), at any depth.
    RepeatedKey(String),
    /// A key asked for has a value that is neither a scalar nor a sequence of scalars.
    Shape(String),
}

impl fmt::Display for Problem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Problem::Malformed(problem) | Problem::RepeatedKey(problem) => f.write_str(problem),
            Problem::Shape(key) => write!(f, "`{key}` is neither a list, a scalar nor null"),
        }
    }
}

/// Reads the YAML document `yaml`, handing `each` the value of every key of `keys` that its
/// mapping has, by the key's index; any other key's value is skipped whole. A null document
/// has no keys.
pub(crate) fn read(
    yaml: &[u8],
    keys: &[&str],
    mut each: impl FnMut(usize, Value<'_>),
) -> Result<(), Problem> {
    let malformed = |message: &str| Problem::Malformed(message.to_string());
    let yaml = std::str::from_utf8(yaml).map_err(|_| malformed("it is not UTF-8"))?;
    let mut events = Events {
        parser: Parser::new(StrInput::new(yaml)),
        anchored: HashMap::new(),
        open: Vec::new(),
        collections: Vec::new(),
    };
    // The parser's grammar: `StreamStart` first, and `DocumentEnd` after a document's node.
    events.next()?;
    match events.next()?.0 {
        Event::StreamEnd => return Ok(()),
        Event::DocumentStart(_) => {}
        other => return Err(Problem::Malformed(format!("unexpected YAML {other:?}"))),
    }
    match events.next()? {
        (Event::MappingStart(..), _) => mapping(&mut events, keys, &mut each)?,
        (Event::Scalar(..), Some(Item { text: None, .. })) => {}
        _ => return Err(malformed("the document is not a mapping")),
    }
    events.next()?;
    match events.next()?.0 {
        Event::StreamEnd => Ok(()),
        _ => Err(malformed("it holds more than one YAML document")),
    }
}

/// The pairs of a mapping whose `MappingStart` was read, up to its `MappingEnd`: the values of
/// the keys of `keys` (an alias of a scalar is that scalar's key) go to `each`.
fn mapping(
    events: &mut Events<'_>,
    keys: &[&str],
    each: &mut impl FnMut(usize, Value<'_>),
) -> Result<(), Problem> {
    loop {
        let (key, item) = events.next()?;
        if matches!(key, Event::MappingEnd) {
            return Ok(());
        }
        let text = item.as_ref().and_then(|item| item.text.as_deref());
        // A key met twice is no second answer: [`Events::next`] refuses a repeated key.
        match keys.iter().position(|&wanted| text == Some(wanted)) {
            Some(index) => value(events, keys[index], index, each)?,
            None => {
                events.skip_node(key)?;
                let (value, _) = events.next()?;
                events.skip_node(value)?;
            }
        }
    }
}

/// The value of the key `key` (at `index`): a sequence of scalars, a scalar, or an alias of
/// either. An alias gives its scalar's text the first time only, so that 100,000 aliases of one
/// long scalar hand it over once, not 100,000 times.
fn value(
    events: &mut Events<'_>,
    key: &str,
    index: usize,
    each: &mut impl FnMut(usize, Value<'_>),
) -> Result<(), Problem> {
    let shape = || Problem::Shape(key.to_string());
    let mut given = HashSet::new();
    let mut item = |each: &mut dyn FnMut(usize, Value<'_>), item: &Item| {
        if item.alias == 0 || given.insert(item.alias) {
            each(index, Value::Item(item.text.as_deref()));
        }
    };
    match events.next()? {
        (Event::SequenceStart(..), _) => {
            each(index, Value::List);
            loop {
                match events.next()? {
                    (Event::SequenceEnd, _) => return Ok(()),
                    (_, Some(scalar)) => item(each, &scalar),
                    (other, None) => {
                        // A collection is no item; a mapping is left behind whole first.
                        if matches!(other, Event::MappingStart(..)) {
                            events.skip_node(other)?;
                        }
                        return Err(shape());
                    }
                }
            }
        }
        (Event::Alias(anchor), None) => match events.anchored.get(&anchor) {
            Some(Node::Names(items)) => {
                each(index, Value::List);
                items.iter().for_each(|scalar| item(each, scalar));
                Ok(())
            }
            _ => Err(shape()),
        },
        (_, Some(scalar)) => {
            each(index, Value::Scalar(scalar.text.as_deref()));
            Ok(())
        }
        (other, None) => {
            events.skip_node(other)?;
            Err(shape())
        }
    }
}

/// A scalar, or an alias of one, as a key or a value: memory stays linear in the text however
/// aliases nest or repeat, as an alias shares its scalar's text.
#[derive(Clone)]
struct Item {
    /// The text as written; `None` for null.
    text: Option<Rc<str>>,
    /// The anchor of the scalar this is an alias of; 0 for a scalar written out.
    alias: usize,
}

/// What an anchored node reads as where an alias names it.
enum Node {
    /// A scalar: its text, `None` for null.
    Scalar(Option<Rc<str>>),
    /// A sequence whose items are all scalars or aliases of scalars.
    Names(Vec<Item>),
    /// A mapping, or a sequence that holds a collection.
    Other,
}

/// An anchored collection being read, and its items while it is a sequence of scalars.
struct Open {
    anchor: usize,
    depth: usize,
    items: Option<Vec<Item>>,
}

/// The keys of a mapping being read, compared by their text (`1` and `'1'` are one key, `~` and
/// `null` are `None`), so that a repeat is found (SPEC §6.4).
#[derive(Default)]
struct Keys {
    met: HashSet<Option<Rc<str>>>,
    /// Whether the mapping's last node was a key, so that the next is its value.
    after_key: bool,
}

impl Keys {
    /// Refuses the node `item` when it is a key met already; a collection, or an alias of one
    /// (`None`), is compared with no other.
    fn check(&mut self, item: Option<&Item>) -> Result<(), Problem> {
        self.after_key = !self.after_key;
        let Some(key) = item.filter(|_| self.after_key).map(|item| &item.text) else {
            return Ok(());
        };
        if self.met.insert(key.clone()) {
            return Ok(());
        }
        Err(Problem::RepeatedKey(
            match key.as_ref().filter(|key| key.len() <= 64) {
                Some(key) => format!("a mapping repeats a key: `{key}`"),
                None => "a mapping repeats a key".to_string(),
            },
        ))
    }
}

/// The parser's events, errors as [`Problem`]s, with the anchored nodes remembered so that an
/// alias reads as its node.
struct Events<'a> {
    parser: Parser<'a, StrInput<'a>>,
    /// The anchored nodes met, by anchor (the parser numbers each definition anew, so a name
    /// defined again names its latest node).
    anchored: HashMap<usize, Node>,
    /// The anchored collections being read, innermost last.
    open: Vec<Open>,
    /// The collections the current event is inside, innermost last: a mapping's keys, `None`
    /// for a sequence.
    collections: Vec<Option<Keys>>,
}

impl<'a> Events<'a> {
    /// The next event, and the scalar it is or is an alias of. A key met already in its
    /// mapping, at any depth, is refused (SPEC §6.4); an anchored node is kept for its aliases.
    fn next(&mut self) -> Result<(Event<'a>, Option<Item>), Problem> {
        let event = match self.parser.next() {
            Some(Ok((event, _))) => event,
            Some(Err(error)) => return Err(Problem::Malformed(format!("malformed YAML: {error}"))),
            None => return Err(Problem::Malformed("the YAML stream ends early".to_string())),
        };
        let depth = self.collections.len();
        let item = match &event {
            Event::Scalar(text, style, anchor, tag) => {
                let text = scalar(text, *style, tag.as_deref());
                if *anchor != 0 {
                    self.anchored.insert(*anchor, Node::Scalar(text.clone()));
                }
                Some(Item { text, alias: 0 })
            }
            Event::Alias(anchor) => match self.anchored.get(anchor) {
                Some(Node::Scalar(text)) => Some(Item {
                    text: text.clone(),
                    alias: *anchor,
                }),
                _ => None,
            },
            Event::SequenceStart(..) | Event::MappingStart(..) => None,
            Event::SequenceEnd | Event::MappingEnd => {
                if self.open.last().is_some_and(|open| open.depth == depth) {
                    let done = self.open.pop().expect("the collection that ends");
                    let node = done.items.map_or(Node::Other, Node::Names);
                    self.anchored.insert(done.anchor, node);
                }
                self.collections.pop();
                return Ok((event, None));
            }
            _ => return Ok((event, None)),
        };
        if let Some(Some(keys)) = self.collections.last_mut() {
            keys.check(item.as_ref())?;
        }
        // The innermost anchored collection keeps its items while they are scalars, not deeper.
        if let Some(open) = self.open.last_mut().filter(|open| open.depth == depth) {
            match (&mut open.items, &item) {
                (Some(items), Some(item)) => items.push(item.clone()),
                _ => open.items = None,
            }
        }
        if let Event::SequenceStart(anchor, _) | Event::MappingStart(anchor, _) = &event {
            let mapping = matches!(event, Event::MappingStart(..));
            self.collections.push(mapping.then(Keys::default));
            if *anchor != 0 {
                self.open.push(Open {
                    anchor: *anchor,
                    depth: depth + 1,
                    items: (!mapping).then(Vec::new),
                });
            }
        }
        Ok((event, item))
    }

    /// Skips the rest of the node `first` begins: nothing more for a scalar or an alias, up to
    /// its end for a collection.
    fn skip_node(&mut self, first: Event<'a>) -> Result<(), Problem> {
        if matches!(first, Event::SequenceStart(..) | Event::MappingStart(..)) {
            // [`Events::next`] entered it: the node ends when the parser leaves it.
            let depth = self.collections.len();
            while self.collections.len() >= depth {
                self.next()?;
            }
        }
        Ok(())
    }
}

/// A scalar's text as written, or `None` when YAML 1.2's core schema reads it as null: a plain
/// `~`, `null` (in three spellings) or nothing at all, or one tagged `!!null`.
fn scalar(text: &str, style: ScalarStyle, tag: Option<&Tag>) -> Option<Rc<str>> {
    let null = match tag {
        Some(tag) => tag.is_yaml_core_schema() && tag.suffix == "null",
        None => style == ScalarStyle::Plain && matches!(text, "" | "~" | "null" | "Null" | "NULL"),
    };
    (!null).then(|| Rc::from(text))
}
