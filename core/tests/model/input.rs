//! Fuzzer bytes as test inputs. The reader never fails: past the end it reads zeros, so every
//! byte string decodes to some input, and a shorter string to a simpler one, which is what lets
//! a fuzzer (and its minimizer) work well. To keep it so, a zero byte always decodes to the
//! plainest choice: the first arm of every `match` below is the common case.

use super::memory::{Fault, Faults, MemoryFs, Node};
use super::spec::Config;

/// A cursor over fuzzer bytes.
pub struct Input<'a> {
    data: &'a [u8],
}

impl<'a> Input<'a> {
    pub fn new(data: &'a [u8]) -> Self {
        Self { data }
    }

    /// The next byte, or 0 past the end.
    pub fn byte(&mut self) -> u8 {
        match self.data.split_first() {
            Some((&first, rest)) => {
                self.data = rest;
                first
            }
            None => 0,
        }
    }

    /// A number below `n` (at most 256).
    pub fn below(&mut self, n: usize) -> usize {
        debug_assert!(n > 0 && n <= 256);
        usize::from(self.byte()) % n
    }

    /// True with probability `in_256` / 256; false past the end.
    pub fn chance(&mut self, in_256: u8) -> bool {
        self.byte() > u8::MAX - in_256
    }

    /// One of `items`.
    pub fn pick<T: Copy>(&mut self, items: &[T]) -> T {
        items[self.below(items.len())]
    }

    /// Every byte left, and nothing after.
    pub fn rest(&mut self) -> &'a [u8] {
        std::mem::take(&mut self.data)
    }
}

/// Path elements that make the interesting cases likely: the names looked for, a case variant
/// of one, the characters the rendering escapes, and bytes that are not UTF-8.
pub const ELEMENTS: &[&[u8]] = &[
    b"AGENTS.md",
    b"CLAUDE.md",
    b"agents.md",
    b"a",
    b"b",
    b"c d",
    b"&<>\"",
    b"\xff\xfe",
];

/// What a name made of anything is made of, invalid pieces included.
pub const PIECES: &[&[u8]] = &[
    b"a",
    b"AGENTS.md",
    b"/",
    b".",
    b"..",
    b"",
    b"\0",
    b"\xff",
    b"b",
    b"//",
];

/// What file contents are made of: newlines (the rendering adds one only when missing), the
/// characters it escapes in paths but never in content, NUL, and a forged closing tag.
pub const CONTENT: &[&[u8]] = &[
    b"x",
    b"\n",
    b"rule\n",
    b"&",
    b"<",
    b"\"",
    b"\0",
    b"\xff",
    b"</project_instructions>\n",
];

/// Directory elements: few, so that the tree and the walk meet often.
pub const DIRS: &[&[u8]] = &[b"a", b"a", b"b", b"&<>\"", b"\xff\xfe"];

/// A name made of 1 to `most` elements of [`ELEMENTS`], joined with `/`.
pub fn element_name(input: &mut Input, most: usize) -> Vec<u8> {
    let count = 1 + input.below(most);
    let mut name = Vec::new();
    for i in 0..count {
        if i > 0 {
            name.push(b'/');
        }
        name.extend_from_slice(input.pick(ELEMENTS));
    }
    name
}

/// `base` below 0 to `most` elements of [`DIRS`]: a name in a directory the walk may visit.
fn below_dirs(input: &mut Input, most: usize, base: &[u8]) -> Vec<u8> {
    let mut name = Vec::new();
    for _ in 0..input.below(most + 1) {
        name.extend_from_slice(input.pick(DIRS));
        name.push(b'/');
    }
    name.extend_from_slice(base);
    name
}

/// A byte string of up to 5 [`PIECES`]: often no valid name at all.
pub fn piece_name(input: &mut Input) -> Vec<u8> {
    let mut name = Vec::new();
    for _ in 0..input.below(6) {
        name.extend_from_slice(input.pick(PIECES));
    }
    name
}

/// Content of up to 8 [`CONTENT`] pieces.
pub fn content(input: &mut Input) -> Vec<u8> {
    let mut content = Vec::new();
    for _ in 0..input.below(9) {
        content.extend_from_slice(input.pick(CONTENT));
    }
    content
}

/// A size a file system may report for `content`: mostly the truth, sometimes a lie.
fn reported_size(input: &mut Input, content: &[u8]) -> u64 {
    let len = content.len() as u64;
    match input.below(8) {
        0..=3 => len,
        4 => 0,
        5 => len + 1 + u64::from(input.byte() % 64),
        6 => len.saturating_sub(1),
        _ => u64::MAX,
    }
}

fn fault(input: &mut Input) -> Option<Fault> {
    match input.below(16) {
        0..=13 => None,
        14 => Some(Fault::NotFound),
        _ => Some(Fault::Fail),
    }
}

/// An in-memory tree of up to 12 nodes, mostly files under the names looked for in a few
/// directories, and now and then a fault on one of them.
pub fn tree(input: &mut Input) -> MemoryFs {
    let mut fs = MemoryFs::new();
    for _ in 0..1 + input.below(12) {
        // Mostly one of the names looked for: AGENTS.md (the default) most of all.
        let base = match input.below(8) {
            0..=3 => b"AGENTS.md".as_slice(),
            4 | 5 => input.pick(&ELEMENTS[1..3]),
            _ => input.pick(ELEMENTS),
        };
        let name = below_dirs(input, 2, base);
        let node = match input.below(8) {
            0..=5 => {
                let content = content(input);
                let size = reported_size(input, &content);
                Node::File { content, size }
            }
            6 => Node::Dir,
            _ => Node::Other,
        };
        fs.insert(name.clone(), node);
        if input.chance(48) {
            let faults = Faults {
                list: fault(input),
                stat: fault(input),
                read: fault(input),
                expands: input.chance(64),
            };
            // On the node, or on the directory holding it.
            let target = if input.chance(128) {
                super::memory::parent(&name).to_vec()
            } else {
                name
            };
            fs.set_faults(target, faults);
        }
    }
    fs
}

/// Options for a chain over a custom file system: mostly a path within the root, sometimes
/// anything at all.
pub fn config(input: &mut Input) -> Config {
    let mut names = Vec::new();
    for _ in 0..input.below(4) {
        names.push(if input.chance(8) {
            piece_name(input)
        } else {
            input.pick(&ELEMENTS[..3]).to_vec()
        });
    }
    let root = match input.below(16) {
        0..=5 => Vec::new(),
        6..=8 => b".".to_vec(),
        9..=12 => b"a".to_vec(),
        13 => below_dirs(input, 2, b"b"),
        _ => piece_name(input),
    };
    let path = match input.below(16) {
        13 => b".".to_vec(),
        14 => piece_name(input),
        15 => element_name(input, 4),
        _ => {
            let leaf = match input.below(3) {
                0 => b"new.txt".as_slice(),
                1 => input.pick(ELEMENTS),
                _ => input.pick(DIRS),
            };
            let below = below_dirs(input, 3, leaf);
            match root.as_slice() {
                b"" | b"." => below,
                root => [root, b"/", &below].concat(),
            }
        }
    };
    // None given, small (zero included: only empty files fit), or the largest.
    let max_bytes = match input.below(4) {
        0 | 1 => None,
        2 => Some(u64::from(input.byte() % 48)),
        _ => Some(u64::MAX),
    };
    let budget = match input.below(4) {
        0 | 1 => None,
        2 => Some(u64::from(input.byte())),
        _ => Some(u64::MAX),
    };
    let rendered_budget = match input.below(4) {
        0 | 1 => None,
        2 => Some(36 + u64::from(input.byte()) * 2),
        _ => Some(u64::from(input.byte())),
    };
    Config {
        names,
        root,
        path,
        max_bytes,
        budget,
        rendered_budget,
    }
}
