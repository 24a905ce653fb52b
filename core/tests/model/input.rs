//! Fuzzer bytes as test inputs. The reader never fails: past the end it reads zeros, so every
//! byte string decodes to some input, and a shorter string to a simpler one, which is what lets
//! a fuzzer (and its minimizer) work well. To keep it so, a zero byte always decodes to the
//! plainest choice: the first arm of every `match` below is the common case.

use super::memory::{Fault, Faults, MemoryFs, Node};
use super::spec::Config;

/// A cursor over fuzzer bytes; a copy reads the same bytes again.
#[derive(Clone)]
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
    NOT_UTF8,
];

/// Bytes that are not UTF-8, as a name may hold them: any on Unix; on Windows, where a name is
/// UTF-16, unpaired surrogates (WTF-8, SPEC.md §8.2), high ones only, so that no two pieces
/// joined make a pair.
#[cfg(unix)]
const NOT_UTF8: &[u8] = b"\xff\xfe";
#[cfg(windows)]
const NOT_UTF8: &[u8] = b"\xed\xa0\x80\xed\xaf\xbf";
#[cfg(unix)]
const NOT_UTF8_PIECE: &[u8] = b"\xff";
#[cfg(windows)]
const NOT_UTF8_PIECE: &[u8] = b"\xed\xa0\x80";

/// What a name made of anything is made of, invalid pieces included.
pub const PIECES: &[&[u8]] = &[
    b"a",
    b"AGENTS.md",
    b"/",
    b".",
    b"..",
    b"",
    b"\0",
    NOT_UTF8_PIECE,
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
pub const DIRS: &[&[u8]] = &[b"a", b"a", b"b", b"&<>\"", NOT_UTF8];

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

/// A file about to be created, a name looked for or a directory, below 0 to 3 directories of
/// the tree within `root`.
fn below_root(input: &mut Input, root: &[u8]) -> Vec<u8> {
    let leaf = match input.below(3) {
        0 => b"new.txt".as_slice(),
        1 => input.pick(ELEMENTS),
        _ => input.pick(DIRS),
    };
    let below = below_dirs(input, 3, leaf);
    match root {
        b"" | b"." => below,
        root => [root, b"/", &below].concat(),
    }
}

/// A path a session touches (SPEC.md §10) with `config`'s root: mostly one within the root, now
/// and then the root itself, a name of the tree that may be outside the root, or anything.
pub fn touch_path(input: &mut Input, config: &Config) -> Vec<u8> {
    match input.below(16) {
        0..=11 => below_root(input, &config.root),
        12 => match config.root.as_slice() {
            b"" => b".".to_vec(),
            root => root.to_vec(),
        },
        13 | 14 => {
            let leaf = input.pick(&[b"new.txt".as_slice(), b"AGENTS.md", b"b"]);
            below_dirs(input, 2, leaf)
        }
        _ => piece_name(input),
    }
}

/// Options for a chain over a custom file system: mostly a path within the root, sometimes
/// anything at all.
pub fn config(input: &mut Input) -> Config {
    let mut names = Vec::new();
    for _ in 0..input.below(4) {
        names.push(match input.below(32) {
            0 => piece_name(input),
            // A name of several elements (SPEC.md §9), `a/AGENTS.md`.
            1..=4 => element_name(input, 2),
            _ => input.pick(&ELEMENTS[..3]).to_vec(),
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
        _ => below_root(input, &root),
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
        all_names: input.chance(64),
    }
}

/// The files an import case is made of: top-level names, and targets in and below them.
pub const IMPORT_FILES: &[&[u8]] = &[
    b"AGENTS.md",
    b"a.md",
    b"d/b.md",
    b"d/AGENTS.md",
    b"d/e/c.md",
    b"x",
];

/// Lines of text, some of which only look like directives.
const IMPORT_TEXT: &[&[u8]] = &[
    b"text\n",
    b"x",
    b"\n",
    b"\r\n",
    b"see @a.md\n",
    b"@alice\n",
    b"    @a.md\n",
];

/// Lines that open or close a code region, or are one.
const IMPORT_CODE: &[&[u8]] = &[
    b"```\n",
    b"~~~~\n",
    b"``` a`b\n",
    b"<!--\n",
    b"-->\n",
    b"<!-- @a.md -->\n",
];

/// Directives that fail wherever they are: invalid, missing, not a file, outside any scope.
const IMPORT_BAD: &[&[u8]] = &[
    b"@/a.md\n",
    b"@~/a.md\n",
    b"@a:b.md\n",
    b"@include a\\b.md\n",
    b"@missing.md\n",
    b"@../../../a.md\n",
    b"@./\n",
];

/// `to` as a `P` in a file of directory `dir`: down from `dir` when `to` is below it, else up
/// to the root and down again, sometimes through a needless `./`.
fn relative(input: &mut Input, dir: &[u8], to: &[u8]) -> Vec<u8> {
    let mut p = Vec::new();
    if input.chance(32) {
        p.extend_from_slice(b"./");
    }
    if dir == b"." {
        p.extend_from_slice(to);
        return p;
    }
    let below = to
        .strip_prefix(dir)
        .and_then(|rest| rest.strip_prefix(b"/"));
    match below {
        Some(rest) if !input.chance(64) => p.extend_from_slice(rest),
        _ => {
            for _ in 0..=dir.iter().filter(|&&b| b == b'/').count() {
                p.extend_from_slice(b"../");
            }
            p.extend_from_slice(to);
        }
    }
    p
}

/// A directive line importing `p`, in one of the forms of SPEC.md §5.4.
fn directive_line(input: &mut Input, p: &[u8]) -> Vec<u8> {
    let (before, after): (&[u8], &[u8]) = match input.below(8) {
        0..=2 => (b"@", b"\n"),
        3 => (b"@include ", b"\n"),
        4 => (b"   @", b" \t\n"),
        5 => (b"@", b"\r\n"),
        6 => (b"@include\t", b"  \r\n"),
        _ => (b"@", b""),
    };
    [before, p, after].concat()
}

/// A content of up to 7 lines for the file `name` (the `index`-th of [`IMPORT_FILES`]): mostly
/// text and imports of files later in the list (so that most chains end), now and then an
/// import of any file (a cycle, maybe), a code region's line or a directive that fails.
fn import_content(input: &mut Input, index: usize) -> Vec<u8> {
    let dir = super::memory::parent(IMPORT_FILES[index]);
    let mut content = Vec::new();
    for _ in 0..input.below(8) {
        match input.below(16) {
            0..=4 | 14 | 15 => content.extend_from_slice(input.pick(IMPORT_TEXT)),
            5..=11 => {
                let later = &IMPORT_FILES[index + 1..];
                let to = if later.is_empty() || input.below(7) == 0 {
                    input.pick(IMPORT_FILES)
                } else {
                    input.pick(later)
                };
                let p = relative(input, dir, to);
                content.extend_from_slice(&directive_line(input, &p));
            }
            12 => content.extend_from_slice(input.pick(IMPORT_CODE)),
            _ => content.extend_from_slice(input.pick(IMPORT_BAD)),
        }
    }
    content
}

/// The top-level files of an import case: the walk's own, one per directory.
pub const IMPORT_TOPS: &[&[u8]] = &[b"AGENTS.md", b"d/AGENTS.md"];

/// One chain's imports: a tree, the scope (the chain's root) and the limits. The top-level
/// files are the walk's: those of [`IMPORT_TOPS`] that are files within the scope.
pub struct ImportCase {
    pub fs: MemoryFs,
    pub scope: Vec<u8>,
    pub limits: super::imports::Limits,
}

pub fn import_case(input: &mut Input) -> ImportCase {
    let mut fs = MemoryFs::new();
    for (index, &name) in IMPORT_FILES.iter().enumerate() {
        let node = match input.below(16) {
            0..=12 => {
                let content = import_content(input, index);
                let size = content.len() as u64;
                Node::File { content, size }
            }
            13 => continue,
            14 => Node::Dir,
            _ => Node::Other,
        };
        fs.insert(name.to_vec(), node);
        // The faults of a top-level file are the walk's (SPEC.md §1), which the chain target
        // holds to its model; here they are the faults of import targets only.
        if !IMPORT_TOPS.contains(&name) && input.chance(16) {
            let faults = Faults {
                list: None,
                stat: fault(input),
                read: fault(input),
                expands: input.chance(64),
            };
            fs.set_faults(name.to_vec(), faults);
        }
    }
    let scope = match input.below(4) {
        0..=2 => b".".to_vec(),
        _ => b"d".to_vec(),
    };
    let limits = super::imports::Limits {
        import_depth: input.pick(&[0, 0, 1, 2, 3]),
        max_imports: input.pick(&[0, 0, 1, 2, 3, 5]),
        max_bytes: input.pick(&[1 << 20, 1 << 20, 8, 40]),
    };
    ImportCase { fs, scope, limits }
}

/// Skill names, as front matter and headings spell them below.
pub const SKILL_NAMES: &[&[u8]] = &[b"a", b"b", b"c", b"\"q\\"];

/// An instruction file made of the lines §6 gives meaning to — headings of both levels and
/// deeper, skill headings, fences, comments, front matter, blank lines — and of runs of text long
/// enough to overflow a cap; a zero byte ends it.
pub fn structured_text(input: &mut Input) -> Vec<u8> {
    const LINES: &[&[u8]] = &[
        b"\n",
        b"# A\n",
        b"## B \"q\\\" ##\n",
        b"## Skill: a\n",
        b"## Skill: b\n",
        b"## Skill: \"q\\\n",
        b"### c\n",
        b"```\n",
        b"~~~~\n",
        b"<!--\n",
        b"-->\n",
        b"---\n",
        b"...\r\n",
        b"skills: [a, b, c, '\"q\\']\n",
        b"skills: a\n",
        b" \t\r\n",
        b"text\r\n",
        b"\xef\xbb\xbf",
    ];
    let mut text = Vec::new();
    for _ in 0..512 {
        match input.below(LINES.len() + 3) {
            0 => break,
            1 => {
                let len = input.below(256) * 8;
                text.extend(std::iter::repeat_n(b'x', len));
                text.push(b'\n');
            }
            2 => text.push(input.byte()),
            n => text.extend_from_slice(LINES[n - 3]),
        }
    }
    text
}

/// Front matter of a Cursor rule (SPEC.md §11): on request (none, a description, unclosed),
/// always (`alwaysApply`, or unreadable), and globs that the touched paths match now and then
/// (`new.txt` is the leaf most touches have), one read line by line (not YAML), one invalid.
const CURSOR_FRONT: &[&[u8]] = &[
    b"",
    b"---\nalwaysApply: true\n---\n",
    b"---\nglobs: \"*.txt\"\n---\n",
    b"---\nglobs: **/AGENTS.md\n---\n",
    b"---\nglobs: b/*, /new.txt\n---\n",
    b"---\ndescription: d\n---\n",
    b"---\nglobs: {a: b}\n---\n",
    b"---\nglobs: \"[\"\n---\n",
    b"---\nunclosed\n",
];

/// Front matter of a Claude rule: always (none, unreadable, unclosed), paths that touched
/// paths match now and then, and paths that never match.
const CLAUDE_FRONT: &[&[u8]] = &[
    b"",
    b"---\npaths: \"**/*.txt\"\n---\n",
    b"---\npaths: [a/**, b]\n---\n",
    b"---\npaths: [\n---\n",
    b"---\npaths: []\n---\n",
    b"---\nunclosed\n",
];

/// Names below a rule directory: rule files of both dialects, one a level down, one that is
/// hidden, one of no dialect's suffix here.
const RULE_NAMES: &[&[u8]] = &[
    b"r.md",
    b"s.mdc",
    b"d/t.md",
    b".h.md",
    b"u.txt",
    b"AGENTS.md",
];

/// The option `rules` (SPEC.md §11): none (the plainest), Cursor's `.cursor/rules` in each
/// directory of the walk, Claude's `.claude/rules` at the root, or both.
pub fn rule_dirs(input: &mut Input) -> Vec<agentsmd_core::RuleDir> {
    use agentsmd_core::{Dialect, RuleDir};
    let cursor = || RuleDir::new(Dialect::Cursor, ".cursor/rules");
    let claude = || RuleDir::new(Dialect::Claude, ".claude/rules");
    match input.below(4) {
        0 => Vec::new(),
        1 => vec![cursor()],
        2 => vec![claude()],
        _ => vec![claude(), cursor()],
    }
}

/// Up to 6 rule files added to `fs`, each in a `.cursor/rules` of a directory the walk may
/// visit or in a `.claude/rules` of a root (`.` or `a`), with a front matter of its dialect and
/// content; now and then a FIFO or a directory under a rule file's name, or a rule directory
/// that is a regular file (an error where it is looked up).
pub fn rule_files(input: &mut Input, fs: &mut MemoryFs) {
    for _ in 0..input.below(7) {
        let (dir, fronts) = match input.below(2) {
            0 => (below_dirs(input, 2, b".cursor/rules"), CURSOR_FRONT),
            _ => {
                let root = input.pick(&[b"".as_slice(), b"a/"]);
                ([root, b".claude/rules"].concat(), CLAUDE_FRONT)
            }
        };
        let node = match input.below(32) {
            0..=28 => {
                let mut text = input.pick(fronts).to_vec();
                text.extend_from_slice(&content(input));
                let size = text.len() as u64;
                Node::File {
                    content: text,
                    size,
                }
            }
            29 => Node::Other,
            30 => Node::Dir,
            _ => {
                fs.insert(
                    dir,
                    Node::File {
                        content: b"not a directory\n".to_vec(),
                        size: 16,
                    },
                );
                continue;
            }
        };
        let name = [&dir[..], b"/", input.pick(RULE_NAMES)].concat();
        fs.insert(name, node);
    }
}
