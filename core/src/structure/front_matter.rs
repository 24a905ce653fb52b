//! Front matter (SPEC.md §6.1): a YAML block between a `---` first line and the next `---` or
//! `...` line, of which only `skills` is read.
//!
//! The block is found by lines before anything else, so that a fence inside it hides nothing
//! after it. The YAML is read through `saphyr-parser`'s events rather than a loaded value: an
//! event carries a plain scalar's text as written, which is what a name is (`[1, yes]` asks
//! for `1` and `yes`, not a number and a boolean).

use std::borrow::Cow;
use std::ops::Range;

use saphyr_parser::input::SkipTabs;
use saphyr_parser::{Event, Input, Parser, ScalarStyle, StrInput, Tag};

use super::{push_name, text, Warning};

/// The text split at its front matter.
pub(super) struct Split {
    /// Where the text after the front matter starts: 0 when there is none.
    pub(super) body: usize,
    /// The number of lines before `body`, so that a warning can name a line of the file.
    pub(super) lines_before: usize,
    /// The names `skills` requests, back to back, and where each is, in order, trimmed, empty
    /// ones dropped.
    pub(super) names: Vec<u8>,
    pub(super) requested: Vec<Range<usize>>,
    pub(super) warnings: Vec<Warning>,
}

/// The names `skills` requests, back to back, and where each is.
#[derive(Default)]
struct Requested {
    names: Vec<u8>,
    at: Vec<Range<usize>>,
}

impl Requested {
    /// Adds `name` trimmed of spaces and tabs, unless it is null (`None`) or nothing is left.
    /// Copied into the one buffer, so that the parser's buffer of it is freed at once and
    /// reused for the next name.
    fn push(&mut self, name: Option<&str>) {
        let name = text::trim(name.unwrap_or_default().as_bytes());
        if !name.is_empty() {
            self.at.push(push_name(&mut self.names, name));
        }
    }
}

/// Splits `text` (its BOM already removed, its every line ending in `\n`) into front matter and
/// body.
pub(super) fn split(text: &[u8]) -> Split {
    // A search for `\n`, not a test of every byte: the front matter's one line may be long.
    let mut start = 0;
    let mut lines = memchr::memchr_iter(b'\n', text).map(|end| {
        let line = &text[start..=end];
        start = end + 1;
        line
    });
    let no_front_matter = |warnings| Split {
        body: 0,
        lines_before: 0,
        names: Vec::new(),
        requested: Vec::new(),
        warnings,
    };
    let Some(first) = lines.next().filter(|first| is_marker(first, b"---")) else {
        return no_front_matter(Vec::new());
    };
    let yaml_start = first.len();
    let mut offset = yaml_start;
    for (index, line) in lines.enumerate() {
        if is_marker(line, b"---") || is_marker(line, b"...") {
            let (requested, warnings) = match read_skills(&text[yaml_start..offset]) {
                Ok(requested) => (requested, Vec::new()),
                Err(problem) => (
                    Requested::default(),
                    vec![Warning {
                        line: 1,
                        message: format!("front matter ignored: {problem}"),
                    }],
                ),
            };
            return Split {
                body: offset + line.len(),
                lines_before: index + 2,
                names: requested.names,
                requested: requested.at,
                warnings,
            };
        }
        offset += line.len();
    }
    no_front_matter(vec![Warning {
        line: 1,
        message: "front matter has no closing `---` or `...` line: the whole file is body"
            .to_string(),
    }])
}

/// Whether `line` is `marker` followed only by spaces, tabs, `\r` and its `\n`.
fn is_marker(line: &[u8], marker: &[u8]) -> bool {
    line.strip_prefix(marker).is_some_and(|rest| {
        rest.iter()
            .all(|&b| matches!(b, b' ' | b'\t' | b'\r' | b'\n'))
    })
}

/// The names the YAML document's `skills` requests, or why none can be read.
fn read_skills(yaml: &[u8]) -> Result<Requested, String> {
    let yaml = std::str::from_utf8(yaml).map_err(|_| "it is not UTF-8".to_string())?;
    let mut events = Events::new(yaml);
    expect(&mut events, |e| matches!(e, Event::StreamStart))?;
    let mut names = Requested::default();
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

/// The pairs of a mapping whose `MappingStart` was read, up to its `MappingEnd`: the names of
/// its `skills` key. Any other key's value is skipped whole.
fn mapping_skills(events: &mut Events<'_>) -> Result<Requested, String> {
    let mut names = None;
    loop {
        let key = events.next()?;
        let is_skills = match &key {
            Event::MappingEnd => return Ok(names.unwrap_or_default()),
            Event::Scalar(text, ..) => text == "skills",
            _ => false,
        };
        if !is_skills {
            events.skip_node(key)?;
            let value = events.next()?;
            events.skip_node(value)?;
            continue;
        }
        if names.is_some() {
            return Err("the key `skills` appears twice".to_string());
        }
        names = Some(skills_value(events)?);
    }
}

/// The names `skills`' value gives: a sequence of scalars, one scalar, or null.
fn skills_value(events: &mut Events<'_>) -> Result<Requested, String> {
    let shape = || "`skills` is neither a list of names, a name nor null".to_string();
    let mut names = Requested::default();
    match events.value()? {
        Value::Scalar(name) => names.push(name.as_deref()),
        Value::SequenceStart => loop {
            match events.value()? {
                Value::Scalar(name) => names.push(name.as_deref()),
                Value::SequenceEnd => break,
                Value::SequenceStart | Value::Other => return Err(shape()),
            }
        },
        Value::SequenceEnd | Value::Other => return Err(shape()),
    }
    Ok(names)
}

/// A node as `skills` sees it.
enum Value {
    /// A scalar's text as written (a quoted one's value), `None` for null.
    Scalar(Option<String>),
    SequenceStart,
    SequenceEnd,
    /// A mapping or an alias of something that is no scalar.
    Other,
}

/// How many characters the scanner reads of a plain scalar between two look-aheads. It gives
/// each plain scalar a `String` of 32 bytes, pushes its first character, then reserves this many
/// more: `StrInput`'s 128 makes that a second allocation and a copy for every name (~440
/// instructions of a name's ~2,700), 31 fits the first one. The scanner takes any batch of 8 or
/// more (its own `BufferedInput` has 16), and `StrInput`'s look-ahead costs the same at any size,
/// as the whole text is there.
const LOOKAHEAD: usize = 31;

/// `StrInput` with a batch of [`LOOKAHEAD`] characters: everything else is `StrInput`'s own.
#[derive(Clone, Copy)]
struct Yaml<'a>(StrInput<'a>);

/// Methods of [`Input`] that [`Yaml`] hands to its `StrInput` as they are.
macro_rules! to_str_input {
    () => {};
    (fn $name:ident(&mut self $(, $arg:ident: $ty:ty)*) -> $ret:ty; $($rest:tt)*) => {
        #[inline(always)]
        fn $name(&mut self $(, $arg: $ty)*) -> $ret {
            self.0.$name($($arg),*)
        }
        to_str_input!($($rest)*);
    };
    (fn $name:ident(&self $(, $arg:ident: $ty:ty)*) -> $ret:ty; $($rest:tt)*) => {
        #[inline(always)]
        fn $name(&self $(, $arg: $ty)*) -> $ret {
            self.0.$name($($arg),*)
        }
        to_str_input!($($rest)*);
    };
}

impl Input for Yaml<'_> {
    #[inline]
    fn bufmaxlen(&self) -> usize {
        LOOKAHEAD
    }

    to_str_input! {
        fn lookahead(&mut self, count: usize) -> ();
        fn buflen(&self) -> usize;
        fn buf_is_empty(&self) -> bool;
        fn raw_read_ch(&mut self) -> char;
        fn raw_read_non_breakz_ch(&mut self) -> Option<char>;
        fn skip(&mut self) -> ();
        fn skip_n(&mut self, count: usize) -> ();
        fn peek(&self) -> char;
        fn peek_nth(&self, n: usize) -> char;
        fn peek_opt(&self) -> Option<char>;
        fn look_ch(&mut self) -> char;
        fn next_char_is(&self, c: char) -> bool;
        fn nth_char_is(&self, n: usize, c: char) -> bool;
        fn next_2_are(&self, c1: char, c2: char) -> bool;
        fn next_3_are(&self, c1: char, c2: char, c3: char) -> bool;
        fn next_is_document_indicator(&self) -> bool;
        fn next_is_document_start(&self) -> bool;
        fn next_is_document_end(&self) -> bool;
        fn skip_ws_to_eol(&mut self, tabs: SkipTabs) -> (usize, Result<SkipTabs, &'static str>);
        fn next_can_be_plain_scalar(&self, in_flow: bool) -> bool;
        fn next_is_blank_or_break(&self) -> bool;
        fn next_is_blank_or_breakz(&self) -> bool;
        fn next_is_blank(&self) -> bool;
        fn next_is_break(&self) -> bool;
        fn next_is_breakz(&self) -> bool;
        fn next_is_z(&self) -> bool;
        fn next_is_flow(&self) -> bool;
        fn next_is_digit(&self) -> bool;
        fn next_is_alpha(&self) -> bool;
        fn skip_while_non_breakz(&mut self) -> usize;
        fn skip_while_blank(&mut self) -> usize;
        fn fetch_while_is_alpha(&mut self, out: &mut String) -> usize;
        fn fetch_while_is_yaml_non_space(&mut self, out: &mut String) -> usize;
    }
}

/// The parser's events, each error turned into a message, with the scalars that carry an
/// anchor remembered so that an alias of one reads as it.
struct Events<'a> {
    parser: Parser<'a, Yaml<'a>>,
    /// Each anchored scalar's anchor and where its text is in `anchored_text` (`None` for
    /// null), in the order the parser numbers anchors, which is the order of the events: found
    /// by a binary search, and 10,000 anchors cost no allocation or hash each.
    anchored: Vec<(usize, Option<Range<usize>>)>,
    anchored_text: String,
}

impl<'a> Events<'a> {
    fn new(yaml: &'a str) -> Self {
        Self {
            parser: Parser::new(Yaml(StrInput::new(yaml))),
            anchored: Vec::new(),
            anchored_text: String::new(),
        }
    }

    fn next(&mut self) -> Result<Event<'a>, String> {
        match self.parser.next() {
            Some(Ok((event, _))) => {
                if let Event::Scalar(text, style, anchor, tag) = &event {
                    if *anchor != 0 {
                        let at = (!is_null(text, *style, tag.as_deref())).then(|| {
                            let start = self.anchored_text.len();
                            self.anchored_text.push_str(text);
                            start..self.anchored_text.len()
                        });
                        self.anchored.push((*anchor, at));
                    }
                }
                Ok(event)
            }
            Some(Err(error)) => Err(format!("malformed YAML: {error}")),
            None => Err("the YAML stream ends early".to_string()),
        }
    }

    /// The next node as a [`Value`]; a mapping is skipped whole.
    fn value(&mut self) -> Result<Value, String> {
        Ok(match self.next()? {
            Event::Scalar(text, style, _, tag) => {
                Value::Scalar(scalar(text, style, tag.as_deref()))
            }
            Event::Alias(anchor) => match self.anchored.binary_search_by_key(&anchor, |a| a.0) {
                Ok(found) => Value::Scalar(
                    self.anchored[found]
                        .1
                        .clone()
                        .map(|at| self.anchored_text[at].to_string()),
                ),
                Err(_) => Value::Other,
            },
            Event::SequenceStart(..) => Value::SequenceStart,
            Event::SequenceEnd => Value::SequenceEnd,
            other => {
                self.skip_node(other)?;
                Value::Other
            }
        })
    }

    /// Reads past the node that `first` starts: to its matching end for a collection.
    fn skip_node(&mut self, first: Event<'a>) -> Result<(), String> {
        let mut depth = usize::from(matches!(
            first,
            Event::SequenceStart(..) | Event::MappingStart(..)
        ));
        while depth > 0 {
            match self.next()? {
                Event::SequenceStart(..) | Event::MappingStart(..) => depth += 1,
                Event::SequenceEnd | Event::MappingEnd => depth -= 1,
                _ => {}
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

/// Whether a scalar is null in YAML 1.2's core schema: a plain `~`, `null` (in three spellings)
/// or nothing at all, or one tagged `!!null`.
fn is_null(text: &str, style: ScalarStyle, tag: Option<&Tag>) -> bool {
    if let Some(tag) = tag {
        return tag.is_yaml_core_schema() && tag.suffix == "null";
    }
    style == ScalarStyle::Plain && matches!(text, "" | "~" | "null" | "Null" | "NULL")
}
