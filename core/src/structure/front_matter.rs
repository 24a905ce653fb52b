//! Front matter (SPEC §6.1, §6.4), of which only `skills` is read.
//!
//! The YAML is read through `saphyr-parser`'s events rather than a loaded value: an event
//! carries a plain scalar's text as written, which is what a name is (`[1, yes]` asks for `1`
//! and `yes`, not a number and a boolean).

use std::collections::{HashMap, HashSet};
use std::rc::Rc;

use saphyr_parser::{Event, Parser, ScalarStyle, StrInput, Tag};

use super::{text, Document, Warning};

/// Reads the front matter of `text` (its BOM removed, its every line ending in `\n`) into
/// `document`'s requested names and warnings. Answers where the body starts and how many lines
/// come before it: `(0, 0)` when there is no front matter.
pub(super) fn split(text: &[u8], document: &mut Document) -> (usize, usize) {
    // A search for `\n`, not a test of every byte: the front matter's one line may be long.
    let mut start = 0;
    let mut lines = memchr::memchr_iter(b'\n', text).map(|end| {
        let line = &text[start..=end];
        start = end + 1;
        line
    });
    let Some(first) = lines.next().filter(|first| is_marker(first, b"---")) else {
        return (0, 0);
    };
    let mut offset = first.len();
    for (index, line) in lines.enumerate() {
        if is_marker(line, b"---") || is_marker(line, b"...") {
            match read_skills(&text[first.len()..offset]) {
                Ok(requested) => document.requested = requested,
                Err(problem) => document.warnings.push(Warning {
                    line: 1,
                    message: format!("front matter ignored: {problem}"),
                }),
            }
            return (offset + line.len(), index + 2);
        }
        offset += line.len();
    }
    document.warnings.push(Warning {
        line: 1,
        message: "front matter has no closing `---` or `...` line: the whole file is body"
            .to_string(),
    });
    (0, 0)
}

/// Whether `line` is `marker` followed only by spaces, tabs, `\r` and its `\n`.
fn is_marker(line: &[u8], marker: &[u8]) -> bool {
    line.strip_prefix(marker).is_some_and(text::is_blank)
}

/// The names the YAML document's `skills` requests, or why none can be read.
fn read_skills(yaml: &[u8]) -> Result<Vec<Vec<u8>>, String> {
    let yaml = std::str::from_utf8(yaml).map_err(|_| "it is not UTF-8".to_string())?;
    let mut events = Events {
        parser: Parser::new(StrInput::new(yaml)),
        anchored: HashMap::new(),
        open: Vec::new(),
        collections: Vec::new(),
    };
    // The parser's grammar: `StreamStart` first, and `DocumentEnd` after a document's node.
    events.next()?;
    match events.next()?.0 {
        Event::StreamEnd => return Ok(Vec::new()),
        Event::DocumentStart(_) => {}
        other => return Err(format!("unexpected YAML {other:?}")),
    }
    let names = match events.next()? {
        (Event::MappingStart(..), _) => mapping_skills(&mut events)?,
        (Event::Scalar(..), Some(Item { text: None, .. })) => Vec::new(),
        _ => return Err("the document is not a mapping".to_string()),
    };
    events.next()?;
    match events.next()?.0 {
        Event::StreamEnd => Ok(names),
        _ => Err("it holds more than one YAML document".to_string()),
    }
}

/// The pairs of a mapping whose `MappingStart` was read, up to its `MappingEnd`: the names of
/// its `skills` key (an alias of the scalar `skills` is that key). Any other key's value is
/// skipped whole.
fn mapping_skills(events: &mut Events<'_>) -> Result<Vec<Vec<u8>>, String> {
    let mut names = Vec::new();
    loop {
        let (key, item) = events.next()?;
        let is_skills = match &key {
            Event::MappingEnd => return Ok(names),
            Event::Scalar(text, ..) => text == "skills",
            _ => item.is_some_and(|alias| alias.text.as_deref() == Some("skills")),
        };
        if is_skills {
            // A second `skills` is no second answer: [`Events::next`] refuses a repeated key.
            names = skills_value(events)?;
        } else {
            events.skip_node(key)?;
            let (value, _) = events.next()?;
            events.skip_node(value)?;
        }
    }
}

/// The names `skills`' value gives: a sequence of scalars, one scalar, or null; an alias reads
/// as what it names. Each is trimmed of spaces and tabs; null and empty ones are dropped.
fn skills_value(events: &mut Events<'_>) -> Result<Vec<Vec<u8>>, String> {
    let items = match events.next()? {
        (Event::SequenceStart(..), _) => {
            let mut items = Vec::new();
            loop {
                match events.next()? {
                    (Event::SequenceEnd, _) => break items,
                    (event, item) => items.push(events.name(event, item)?),
                }
            }
        }
        // `skills` is read once: its sequence is not needed again.
        (Event::Alias(anchor), None) => match events.anchored.remove(&anchor) {
            Some(Node::Names(items)) => items,
            _ => return Err(SHAPE.to_string()),
        },
        (event, item) => vec![events.name(event, item)?],
    };
    // An alias gives its scalar's name the first time only, so that 100,000 aliases of one long
    // scalar copy it once, not 100,000 times.
    let mut given = HashSet::new();
    Ok(items
        .into_iter()
        .filter(|item| item.alias == 0 || given.insert(item.alias))
        .filter_map(|item| item.text)
        .map(|name| text::trim(name.as_bytes()).to_vec())
        .filter(|name| !name.is_empty())
        .collect())
}

const SHAPE: &str = "`skills` is neither a list of names, a name nor null";

/// A scalar, or an alias of one, as a key or a name: memory stays linear in the text however
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
    fn check(&mut self, item: Option<&Item>) -> Result<(), String> {
        self.after_key = !self.after_key;
        let Some(key) = item.filter(|_| self.after_key).map(|item| &item.text) else {
            return Ok(());
        };
        if self.met.insert(key.clone()) {
            return Ok(());
        }
        Err(match key.as_ref().filter(|key| key.len() <= 64) {
            Some(key) => format!("a mapping repeats a key: `{key}`"),
            None => "a mapping repeats a key".to_string(),
        })
    }
}

/// The parser's events, errors as messages, with the anchored nodes remembered so that an alias
/// reads as its node.
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
    fn next(&mut self) -> Result<(Event<'a>, Option<Item>), String> {
        let event = match self.parser.next() {
            Some(Ok((event, _))) => event,
            Some(Err(error)) => return Err(format!("malformed YAML: {error}")),
            None => return Err("the YAML stream ends early".to_string()),
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

    /// The item of `skills` that `event` begins, `item` as [`Events::next`] read it: a scalar or
    /// an alias of one. Any other node is no name, a mapping once it is skipped.
    fn name(&mut self, event: Event<'a>, item: Option<Item>) -> Result<Item, String> {
        if let Some(item) = item {
            return Ok(item);
        }
        if matches!(event, Event::MappingStart(..)) {
            self.skip_node(event)?;
        }
        Err(SHAPE.to_string())
    }

    /// Skips the rest of the node `first` begins: nothing more for a scalar or an alias, up to
    /// its end for a collection.
    fn skip_node(&mut self, first: Event<'a>) -> Result<(), String> {
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
