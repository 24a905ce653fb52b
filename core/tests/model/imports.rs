//! The model of imports: SPEC.md §5.4 and §5.8 over a custom file system, written from the
//! spec's text as plainly as it reads — recursion, whole strings, no care for speed — and
//! sharing nothing with the library's expansion.
//!
//! A chain is modelled as the walk sees it: a list of top-level files (name, bytes read), all
//! kept, expanded in order within one scope.

use agentsmd_core::ErrorKind;

use super::memory::{parent, MemoryFs, Stat};

/// The limits of one chain's imports, as the caller gives them (zero means the default).
#[derive(Clone, Copy, Debug)]
pub struct Limits {
    pub import_depth: u32,
    pub max_imports: u32,
    pub max_bytes: u64,
}

/// One import: (path, by, line, depth, size, duplicate).
pub type Provenance = (Vec<u8>, Vec<u8>, u64, u32, u64, bool);

/// One top-level file as the spec treats it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Top {
    /// Already imported into an earlier kept file, by `by`.
    Duplicate { by: Vec<u8> },
    Expanded {
        content: Vec<u8>,
        /// In the order met.
        imports: Vec<Provenance>,
    },
}

/// Why an import fails, in the spec's words.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Why {
    Invalid,
    OutsideScope,
    Depth,
    /// The files of the cycle, in order, the target again at the end.
    Cycle(Vec<Vec<u8>>),
    NotFound,
    NotAFile,
    Count,
    TooLarge,
    /// The file system's own failure (an injected fault): kind `Import` too (SPEC.md §5.4,
    /// decided).
    Failed,
    /// The expansion of the top-level file `by` passed `max_bytes` before the directive that
    /// would fail next: the expansion stops there, with a `TooLarge` naming `by` (SPEC.md §5.4,
    /// decided).
    ExpandedTooLarge,
}

/// The failure a chain ends with: where the directive is, and what it names.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Failure {
    pub by: Vec<u8>,
    pub line: u64,
    /// The cleaned target, or `P` when there is none (an invalid `P`, or one above `.`).
    pub target: Vec<u8>,
    pub why: Why,
}

impl Failure {
    pub fn kind(&self) -> ErrorKind {
        match self.why {
            Why::TooLarge | Why::ExpandedTooLarge => ErrorKind::TooLarge,
            _ => ErrorKind::Import,
        }
    }
}

/// Whether a line (less its `\n` and one final `\r`) outside code is a directive, and its `P`.
fn directive(line: &[u8]) -> Option<Vec<u8>> {
    let mut i = 0;
    while i < line.len() && line[i] == b' ' {
        i += 1;
    }
    if i > 3 || line.get(i) != Some(&b'@') {
        return None;
    }
    let rest = &line[i + 1..];
    let trim = |s: &[u8]| -> Vec<u8> {
        let mut s = s.to_vec();
        while matches!(s.last(), Some(b' ' | b'\t')) {
            s.pop();
        }
        s
    };
    if rest.starts_with(b"include") {
        let after = &rest[7..];
        if matches!(after.first(), Some(b' ' | b'\t')) {
            let p = trim(after);
            let p: Vec<u8> = p
                .iter()
                .skip_while(|b| **b == b' ' || **b == b'\t')
                .copied()
                .collect();
            if !p.is_empty() {
                return Some(p);
            }
        }
    }
    let p = trim(rest);
    let ok = !p.is_empty()
        && !p.contains(&b' ')
        && !p.contains(&b'\t')
        && (p.contains(&b'.') || p.contains(&b'/'));
    ok.then_some(p)
}

/// The lines of `text`: (line without `\n` and one final `\r`, whether it had `\n`), and for
/// each whether it is in a code region, by the spec's two rules.
fn lines(text: &[u8]) -> Vec<(Vec<u8>, bool, bool)> {
    let mut raw: Vec<&[u8]> = text.split(|&b| b == b'\n').collect();
    let had_newline_at_end = text.ends_with(b"\n");
    if had_newline_at_end || text.is_empty() {
        raw.pop();
    }
    let count = raw.len();
    let mut out = Vec::new();
    // None: text; Some((byte, n)): in a fence; comment tracked apart.
    let mut fence: Option<(u8, usize)> = None;
    let mut comment = false;
    for (n, r) in raw.into_iter().enumerate() {
        let newline = n + 1 < count || had_newline_at_end;
        let line = r.strip_suffix(b"\r").unwrap_or(r).to_vec();
        let spaces = line.iter().take_while(|&&b| b == b' ').count();
        let body = if spaces <= 3 {
            &line[spaces..]
        } else {
            &[][..]
        };
        let indented_ok = spaces <= 3;
        let in_code;
        if let Some((byte, len)) = fence {
            in_code = true;
            let run = body.iter().take_while(|&&b| b == byte).count();
            if indented_ok && run >= len && body[run..].iter().all(|&b| b == b' ' || b == b'\t') {
                fence = None;
            }
        } else if comment {
            in_code = true;
            if contains(&line, b"-->") {
                comment = false;
            }
        } else if indented_ok && body.starts_with(b"<!--") {
            in_code = true;
            comment = !contains(&body[4..], b"-->");
        } else if indented_ok && (body.starts_with(b"```") || body.starts_with(b"~~~")) {
            let byte = body[0];
            let run = body.iter().take_while(|&&b| b == byte).count();
            if byte == b'`' && body[run..].contains(&b'`') {
                in_code = false;
            } else {
                in_code = true;
                fence = Some((byte, run));
            }
        } else {
            in_code = false;
        }
        out.push((line, newline, in_code));
    }
    out
}

fn contains(haystack: &[u8], needle: &[u8]) -> bool {
    haystack.windows(needle.len()).any(|w| w == needle)
}

/// `dir` joined with `p` and cleaned; `None` above `.`.
fn clean(dir: &[u8], p: &[u8]) -> Option<Vec<u8>> {
    let mut parts: Vec<Vec<u8>> = Vec::new();
    let joined = if dir == b"." {
        p.to_vec()
    } else {
        [dir, b"/", p].concat()
    };
    for part in joined.split(|&b| b == b'/') {
        if part.is_empty() || part == b"." {
            continue;
        }
        if part == b".." {
            parts.pop()?;
        } else {
            parts.push(part.to_vec());
        }
    }
    if parts.is_empty() {
        return Some(b".".to_vec());
    }
    Some(parts.join(&b'/'))
}

fn within(path: &[u8], scope: &[u8]) -> bool {
    scope == b"."
        || path == scope
        || (path.starts_with(scope) && path.get(scope.len()) == Some(&b'/'))
}

/// The state of one chain.
struct Chain<'a> {
    fs: &'a MemoryFs,
    scope: &'a [u8],
    depth: u32,
    max_imports: u32,
    max_bytes: u64,
    reads: u32,
    /// Files in the result: (path, the file that imported it, or None for a kept top-level one).
    result: Vec<(Vec<u8>, Option<Vec<u8>>)>,
}

/// One top-level file's expansion.
struct One {
    /// The top-level file.
    top: Vec<u8>,
    imports: Vec<Provenance>,
    /// Imported into this top-level file so far.
    seen: Vec<Vec<u8>>,
    /// The bytes of its output so far, in order.
    emitted: u64,
}

impl Chain<'_> {
    /// `content` of `file` (at `depth`, reached through `path_so_far`) expanded.
    fn expand(
        &mut self,
        one: &mut One,
        file: &[u8],
        content: &[u8],
        depth: u32,
        path_so_far: &[Vec<u8>],
    ) -> Result<Vec<u8>, Failure> {
        let mut out = Vec::new();
        for (number, (line, newline, in_code)) in lines(content).into_iter().enumerate() {
            let p = if in_code { None } else { directive(&line) };
            let Some(p) = p else {
                let text = reconstruct(content, number);
                self.emit(one, text.len())?;
                out.extend_from_slice(&text);
                continue;
            };
            let fail = |target: &[u8], why| Failure {
                by: file.to_vec(),
                line: number as u64 + 1,
                target: target.to_vec(),
                why,
            };
            if p.starts_with(b"/")
                || p.starts_with(b"~")
                || p.iter().any(|b| [b'\\', b':', 0].contains(b))
            {
                return Err(fail(&p, Why::Invalid));
            }
            let Some(target) = clean(parent(file), &p) else {
                return Err(fail(&p, Why::OutsideScope));
            };
            if !within(&target, self.scope) {
                return Err(fail(&target, Why::OutsideScope));
            }
            if depth + 1 > self.depth {
                return Err(fail(&target, Why::Depth));
            }
            if let Some(at) = path_so_far.iter().position(|f| *f == target) {
                let mut cycle = path_so_far[at..].to_vec();
                cycle.push(target.clone());
                return Err(fail(&target, Why::Cycle(cycle)));
            }
            let record = |size, duplicate| {
                (
                    target.clone(),
                    file.to_vec(),
                    number as u64 + 1,
                    depth + 1,
                    size,
                    duplicate,
                )
            };
            if one.seen.contains(&target) || self.result.iter().any(|(f, _)| *f == target) {
                one.imports.push(record(0, true));
                continue;
            }
            match self.fs.stat_of(&target) {
                Err(()) => return Err(fail(&target, Why::Failed)),
                Ok(None) => return Err(fail(&target, Why::NotFound)),
                Ok(Some(Stat::Dir | Stat::Other)) => return Err(fail(&target, Why::NotAFile)),
                Ok(Some(_)) => {}
            }
            if self.reads == self.max_imports {
                return Err(fail(&target, Why::Count));
            }
            self.reads += 1;
            let read = match self.fs.read_of(&target, self.max_bytes.saturating_add(1)) {
                Err(()) => return Err(fail(&target, Why::Failed)),
                Ok(None) => return Err(fail(&target, Why::NotFound)),
                Ok(Some(read)) => read,
            };
            if read.len() as u64 > self.max_bytes {
                return Err(fail(&target, Why::TooLarge));
            }
            one.seen.push(target.clone());
            one.imports.push(record(read.len() as u64, false));
            let mut chain = path_so_far.to_vec();
            chain.push(target.clone());
            let inner = self.expand(one, &target, &read, depth + 1, &chain)?;
            let adds_newline = !inner.is_empty() && !inner.ends_with(b"\n") && newline;
            out.extend_from_slice(&inner);
            if adds_newline {
                self.emit(one, 1)?;
                out.push(b'\n');
            }
        }
        Ok(out)
    }

    /// Counts `len` more bytes of `one`'s output: once past `max_bytes`, its expansion stops.
    fn emit(&self, one: &mut One, len: usize) -> Result<(), Failure> {
        one.emitted += len as u64;
        if one.emitted <= self.max_bytes {
            return Ok(());
        }
        Err(Failure {
            by: one.top.clone(),
            line: 0,
            target: one.top.clone(),
            why: Why::ExpandedTooLarge,
        })
    }
}

/// Line `number` (0-based) of `content` as it stands there, its ending included.
fn reconstruct(content: &[u8], number: usize) -> Vec<u8> {
    content
        .split_inclusive(|&b| b == b'\n')
        .nth(number)
        .unwrap_or_default()
        .to_vec()
}

/// The spec's answer for `tops` expanded in order within `scope`.
pub fn expand(
    fs: &MemoryFs,
    tops: &[(Vec<u8>, Vec<u8>)],
    scope: &[u8],
    limits: Limits,
) -> Result<Vec<Top>, Failure> {
    let mut chain = Chain {
        fs,
        scope,
        depth: if limits.import_depth == 0 {
            5
        } else {
            limits.import_depth
        },
        max_imports: if limits.max_imports == 0 {
            64
        } else {
            limits.max_imports
        },
        max_bytes: limits.max_bytes,
        reads: 0,
        result: Vec::new(),
    };
    let mut out = Vec::new();
    for (name, content) in tops {
        let by = chain
            .result
            .iter()
            .find(|(f, _)| f == name)
            .and_then(|(_, by)| by.clone());
        if let Some(by) = by {
            out.push(Top::Duplicate { by });
            continue;
        }
        let mut one = One {
            top: name.clone(),
            imports: Vec::new(),
            seen: Vec::new(),
            emitted: 0,
        };
        let content = chain.expand(&mut one, name, content, 0, std::slice::from_ref(name))?;
        chain.result.push((name.clone(), None));
        for (path, by, _, _, _, duplicate) in &one.imports {
            if !duplicate && !chain.result.iter().any(|(f, _)| f == path) {
                chain.result.push((path.clone(), Some(by.clone())));
            }
        }
        out.push(Top::Expanded {
            content,
            imports: one.imports,
        });
    }
    Ok(out)
}
