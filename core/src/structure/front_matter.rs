//! Front matter (SPEC §6.1, §6.4), of which only `skills` is read, through `saphyr-parser`'s
//! events rather than a loaded value: an event carries a plain scalar's text as written, which
//! is what a name is (`[1, yes]` asks for `1` and `yes`, not a number and a boolean).

use std::borrow::Cow;
use std::collections::{HashMap, HashSet};
use std::rc::Rc;

use saphyr_parser::{Event, Parser, ScalarStyle, StrInput, Tag};

use super::{text, Document, Warning};

/// Reads the front matter of `text` (no BOM, every line ending in `\n`) into `document`: where
/// the body starts and how many lines come before it, `(0, 0)` when there is no front matter.
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
    let mut events = Events::new(yaml);
    expect(&mut events, |e| matches!(e, Event::StreamStart))?;
    let mut names = Vec::new();
    match events.next()? {
        Event::StreamEnd => return Ok(names),
        Event::DocumentStart(_) => {}
        other => return Err(format!("unexpected YAML {other:?}")),
    }
    match events.next()? {
        Event::MappingStart(..) => names = mapping_skills(&mut events)?,
        Event::Scalar(ref text, style, _, ref tag) if is_null(text, style, tag.as_deref()) => {}
        _ => return Err("the document is not a mapping".to_string()),
    }
    expect(&mut events, |e| matches!(e, Event::DocumentEnd))?;
    match events.next()? {
        Event::StreamEnd => Ok(names),
        _ => Err("it holds more than one YAML document".to_string()),
    }
}

/// The names of the `skills` key (or an alias of it) of a mapping whose `MappingStart` was
/// read, up to its `MappingEnd`; any other key's value is skipped whole.
fn mapping_skills(events: &mut Events<'_>) -> Result<Vec<Vec<u8>>, String> {
    let mut names = Vec::new();
    loop {
        let key = events.next()?;
        let is_skills = match &key {
            Event::MappingEnd => return Ok(names),
            Event::Scalar(text, ..) => text == "skills",
            Event::Alias(anchor) => events.scalar_of(*anchor) == Some("skills"),
            _ => false,
        };
        if !is_skills {
            events.skip_node(key)?;
            let value = events.next()?;
            events.skip_node(value)?;
            continue;
        }
        // A second `skills` is no second answer: [`Events::next`] refuses a repeated key.
        names = skills_value(events)?;
    }
}

/// The names `skills`' value gives: a sequence of scalars, one scalar, or null; an alias reads
/// as what it names. Each is trimmed of spaces and tabs; null and empty ones are dropped.
fn skills_value(events: &mut Events<'_>) -> Result<Vec<Vec<u8>>, String> {
    let shape = || "`skills` is neither a list of names, a name nor null".to_string();
    // Each name is added as it is read: a list of them all first would hold the names twice.
    let mut names = Vec::new();
    let mut add = |name: Option<&str>| {
        let name = text::trim(name.unwrap_or_default().as_bytes());
        if !name.is_empty() {
            names.push(name.to_vec());
        }
    };
    match events.value()? {
        Value::Scalar(name) => add(name.as_deref()),
        Value::Names(list) => list.iter().for_each(|name| add(name.as_deref())),
        Value::SequenceStart => loop {
            match events.value()? {
                Value::Scalar(name) => add(name.as_deref()),
                Value::SequenceEnd => break,
                Value::SequenceStart | Value::Names(_) | Value::Other => return Err(shape()),
            }
        },
        Value::SequenceEnd | Value::Other => return Err(shape()),
    }
    Ok(names)
}

/// A node as `skills` sees it.
enum Value {
    /// A scalar's text, or an alias of one; `None` for null.
    Scalar(Option<String>),
    SequenceStart,
    SequenceEnd,
    /// An alias of a sequence of scalars: their texts, `None` for null.
    Names(Vec<Option<String>>),
    /// A mapping (skipped whole), or an alias of anything but a scalar or a sequence of them.
    Other,
}

/// What an anchored node reads as where an alias names it.
enum Node {
    /// A scalar: its text, `None` for null; shared by each item and key that an alias of it is.
    Scalar(Option<Rc<str>>),
    /// A sequence whose items are all scalars or aliases of scalars.
    Names(Vec<Item>),
    /// A mapping, or a sequence that holds a collection.
    Other,
}

/// An item of a [`Node::Names`].
enum Item {
    /// A scalar's text, `None` for null.
    Scalar(Option<Rc<str>>),
    /// An alias of the scalar of this anchor.
    Alias(usize),
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
    /// Whether the mapping's next node is a key rather than a value.
    at_value: bool,
}

/// The parser's events, errors as messages, with the anchored nodes remembered so that an alias
/// reads as its node. A scalar's text is kept once, shared, and an alias as its anchor, so that
/// memory stays linear in the text however aliases nest or repeat.
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
    /// The anchors of the scalars an alias in `skills` already gave (see [`Events::given_once`]).
    given: HashSet<usize>,
}

impl<'a> Events<'a> {
    fn new(yaml: &'a str) -> Self {
        Self {
            parser: Parser::new(StrInput::new(yaml)),
            anchored: HashMap::new(),
            open: Vec::new(),
            collections: Vec::new(),
            given: HashSet::new(),
        }
    }

    fn next(&mut self) -> Result<Event<'a>, String> {
        let event = match self.parser.next() {
            Some(Ok((event, _))) => event,
            Some(Err(error)) => return Err(format!("malformed YAML: {error}")),
            None => return Err("the YAML stream ends early".to_string()),
        };
        self.check_key(&event)?;
        self.remember(&event);
        Ok(event)
    }

    /// Refuses a key that the mapping `event` is in has met already, at any depth (SPEC §6.4).
    fn check_key(&mut self, event: &Event<'a>) -> Result<(), String> {
        let Some(Some(keys)) = self.collections.last_mut() else {
            return Ok(());
        };
        let key = match event {
            Event::Scalar(text, style, _, tag) => {
                Some(scalar(text.clone(), *style, tag.as_deref()).map(Rc::from))
            }
            Event::Alias(anchor) => match self.anchored.get(anchor) {
                Some(Node::Scalar(text)) => Some(text.clone()),
                _ => None,
            },
            // A collection as a key is compared with no other.
            Event::SequenceStart(..) | Event::MappingStart(..) => None,
            _ => return Ok(()),
        };
        let is_key = !keys.at_value;
        keys.at_value = is_key;
        match key {
            Some(key) if is_key && !keys.met.insert(key.clone()) => {
                let shown = key.filter(|key| key.len() <= 64);
                Err(match shown {
                    Some(key) => format!("a mapping repeats a key: `{key}`"),
                    None => "a mapping repeats a key".to_string(),
                })
            }
            _ => Ok(()),
        }
    }

    /// Keeps what an alias of the node `event` begins, or is, will read as.
    fn remember(&mut self, event: &Event<'a>) {
        let depth = self.collections.len();
        // The innermost anchored collection, when the event is one of its items, not deeper.
        let open = self.open.last_mut().filter(|open| open.depth == depth);
        match event {
            Event::SequenceStart(anchor, _) | Event::MappingStart(anchor, _) => {
                if let Some(open) = open {
                    open.items = None;
                }
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
            Event::SequenceEnd | Event::MappingEnd => {
                if self.open.last().is_some_and(|open| open.depth == depth) {
                    let done = self.open.pop().expect("the collection that ends");
                    let node = done.items.map_or(Node::Other, Node::Names);
                    self.anchored.insert(done.anchor, node);
                }
                self.collections.pop();
            }
            Event::Scalar(text, style, anchor, tag) => {
                let items = open.and_then(|open| open.items.as_mut());
                if *anchor == 0 && items.is_none() {
                    return;
                }
                let text = scalar(text.clone(), *style, tag.as_deref()).map(Rc::from);
                if let Some(items) = items {
                    items.push(Item::Scalar(text.clone()));
                }
                if *anchor != 0 {
                    self.anchored.insert(*anchor, Node::Scalar(text));
                }
            }
            Event::Alias(anchor) => {
                if let Some(open) = open {
                    match self.anchored.get(anchor) {
                        Some(Node::Scalar(_)) => {
                            if let Some(items) = &mut open.items {
                                items.push(Item::Alias(*anchor));
                            }
                        }
                        _ => open.items = None,
                    }
                }
            }
            _ => {}
        }
    }

    /// The text of the anchored scalar `anchor`; `None` for null or for any other node.
    fn scalar_of(&self, anchor: usize) -> Option<&str> {
        match self.anchored.get(&anchor) {
            Some(Node::Scalar(Some(text))) => Some(text),
            _ => None,
        }
    }

    /// The name an alias of the scalar `anchor` gives, the first time it gives it. Copied only
    /// then: 100,000 aliases of one long scalar copy it once, not 100,000 times.
    fn given_once(&mut self, anchor: usize) -> Option<String> {
        if self.given.contains(&anchor) {
            return None;
        }
        let text = self.scalar_of(anchor)?.to_string();
        self.given.insert(anchor);
        Some(text)
    }

    /// The next node as a [`Value`]; a mapping is skipped whole.
    fn value(&mut self) -> Result<Value, String> {
        Ok(match self.next()? {
            Event::Scalar(text, style, _, tag) => {
                Value::Scalar(scalar(text, style, tag.as_deref()))
            }
            Event::Alias(anchor) => match self.anchored.remove(&anchor) {
                Some(Node::Scalar(text)) => {
                    self.anchored.insert(anchor, Node::Scalar(text));
                    Value::Scalar(self.given_once(anchor))
                }
                // `skills` is read once: its sequence is not needed again.
                Some(Node::Names(items)) => Value::Names(
                    items
                        .into_iter()
                        .map(|item| match item {
                            Item::Scalar(text) => text.as_deref().map(str::to_owned),
                            Item::Alias(anchor) => self.given_once(anchor),
                        })
                        .collect(),
                ),
                Some(Node::Other) | None => Value::Other,
            },
            Event::SequenceStart(..) => Value::SequenceStart,
            Event::SequenceEnd => Value::SequenceEnd,
            other => {
                self.skip_node(other)?;
                Value::Other
            }
        })
    }

    /// Skips the rest of the node `first` begins.
    fn skip_node(&mut self, first: Event<'a>) -> Result<(), String> {
        if matches!(first, Event::SequenceStart(..) | Event::MappingStart(..)) {
            // [`Events::remember`] entered it: the node ends when the parser leaves it.
            let depth = self.collections.len();
            while self.collections.len() >= depth {
                self.next()?;
            }
        }
        Ok(())
    }
}

fn expect(events: &mut Events<'_>, want: fn(&Event<'_>) -> bool) -> Result<(), String> {
    let event = events.next()?;
    if want(&event) {
        Ok(())
    } else {
        Err(format!("unexpected YAML {event:?}"))
    }
}

/// A scalar's name: its text as written, or `None` when YAML reads it as null.
fn scalar(text: Cow<'_, str>, style: ScalarStyle, tag: Option<&Tag>) -> Option<String> {
    (!is_null(&text, style, tag)).then(|| text.into_owned())
}

/// Whether a scalar is null in YAML 1.2's core schema.
fn is_null(text: &str, style: ScalarStyle, tag: Option<&Tag>) -> bool {
    if let Some(tag) = tag {
        return tag.is_yaml_core_schema() && tag.suffix == "null";
    }
    style == ScalarStyle::Plain && matches!(text, "" | "~" | "null" | "Null" | "NULL")
}
