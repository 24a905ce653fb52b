//! Imports (SPEC.md §5.4, §5.8): the expansion of a top-level file's `@include P` and `@P`
//! directives, each line replaced by its target's content, itself expanded.
//!
//! The walk owns one [`State`] per chain, because duplicates and `max_imports` are counted
//! across the whole chain. For each top-level file it reads, it calls [`State::expand`], which
//! adds the imports met to the chain's [`Imports`]; for each one it keeps, [`State::keep`], and
//! for each one it leaves out after the expansion, [`State::leave_out`]; before reading one,
//! [`State::imported_by`] says whether an earlier kept file already imported it. Nothing here
//! knows the file system: the walk answers through [`ImportTargets`], which is where the OS,
//! confinement and a custom file system differ.
//!
//! The expansion is one pass per file: each file's directives are found in one scan, and the
//! text between them is copied once into one output buffer. Nesting is an explicit stack, not
//! recursion, so no `import_depth` can overflow the thread's stack.

mod directive;
mod path_map;

use std::collections::TryReserveError;
use std::ops::Range;
use std::path::Path;

use crate::error::Error;
use crate::fs::Appended;
use crate::options::{DEFAULT_IMPORT_DEPTH, DEFAULT_MAX_IMPORTS};
use crate::path;
use crate::path_list::{path_at, path_list, Mark};
use directive::{directives, Directive};
use path_map::PathMap;

/// One directive expanded into a file of the result, in the order met: an import before the
/// imports inside it. Borrowed from the [`Imports`] of its chain.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub struct Import<'a> {
    /// The target: its cleaned OS path, or its name in the custom file system.
    pub path: &'a Path,
    /// The file holding the directive.
    pub by: &'a Path,
    /// The directive's line in `by`, 1-based.
    pub line: u64,
    /// The target's depth: 1 for a directive of a top-level file.
    pub depth: u32,
    /// The bytes read from the target; 0 for a duplicate, which is not read.
    pub size: u64,
    /// Whether the target was already in the result, so that the directive expanded to nothing.
    pub duplicate: bool,
}

path_list! {
    /// With [`Options::imports`](crate::Options::imports): each directive expanded into a kept
    /// file, in the order met, as [`Chain::imports`](crate::Chain) lists them.
    ///
    /// ```
    /// let dir = tempfile::tempdir()?;
    /// std::fs::write(dir.path().join("AGENTS.md"), "@style.md\n")?;
    /// std::fs::write(dir.path().join("style.md"), "Use tabs.\n")?;
    /// let options = agentsmd_core::Options::new().root(dir.path()).imports(true);
    /// let chain = agentsmd_core::chain(dir.path().join("main.rs"), &options)?;
    /// let import = chain.imports.get(0).expect("one import");
    /// assert_eq!(import.path, dir.path().join("style.md"));
    /// assert_eq!((import.by, import.line), (&*dir.path().join("AGENTS.md"), 1));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    Imports of Record as Import;
    /// The iterator of [`Imports::iter`].
    ImportsIter
}

/// One import of [`Imports`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Record {
    path: Range<usize>,
    by: Range<usize>,
    line: u64,
    depth: u32,
    size: u64,
    duplicate: bool,
}

impl Record {
    fn view<'a>(&self, bytes: &'a [u8]) -> Import<'a> {
        Import {
            path: path_at(bytes, self.path.clone()),
            by: path_at(bytes, self.by.clone()),
            line: self.line,
            depth: self.depth,
            size: self.size,
            duplicate: self.duplicate,
        }
    }
}

impl Imports {
    /// What [`Imports::truncate`] takes the list back to.
    pub(crate) fn mark(&self) -> Mark {
        self.0.mark()
    }

    /// Takes back the imports of a file left out, those since `mark`.
    pub(crate) fn truncate(&mut self, mark: Mark) {
        self.0.truncate(mark);
    }

    /// The imports since `mark`.
    pub(crate) fn since(&self, mark: Mark) -> impl Iterator<Item = Import<'_>> {
        let bytes = self.0.bytes();
        self.0.records()[mark.records..]
            .iter()
            .map(move |record| record.view(bytes))
    }
}

/// What an import target is, as the walk's file system answers.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Target {
    /// A regular file (after following links) of the size its stat reports.
    File {
        size: u64,
    },
    /// Something else: a directory, a FIFO, a dangling link.
    NotAFile,
    NotFound,
    /// Under confinement: a link on the way leads out of root.
    Escapes,
}

/// The two questions an expansion asks of the file system. Paths are of the kind the scope is:
/// absolute OS paths, or names of the custom file system.
pub(crate) trait ImportTargets {
    fn stat(&self, path: &[u8]) -> Result<Target, Error>;

    /// Appends at most `limit` bytes of the file at `path` to `out`; `Ok(None)` when it is gone
    /// since the stat.
    fn read(&self, path: &[u8], size_hint: u64, limit: u64, out: &mut Vec<u8>) -> Appended;
}

/// A top-level file's content with its directives expanded.
pub(crate) struct Expansion {
    pub(crate) content: Vec<u8>,
    /// What to give [`State::leave_out`] if the file is not kept.
    pub(crate) before: Before,
}

/// The files of the result as they were before an expansion.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Before(usize);

/// The most room an expansion is given at first, unless its top-level file alone is longer.
const EXPANSION_ROOM: usize = 64 << 10;

/// The state of imports across one chain.
pub(crate) struct State {
    depth_limit: u32,
    max_imports: u32,
    /// Import reads so far, also those of files then left out.
    reads: u32,
    /// Every file of the result so far, each with the entry of the file whose directive
    /// imported it (`None` for a top-level file): a target among them is a duplicate. The file
    /// being expanded and its imports are in it too, until the walk keeps the file or leaves
    /// it out; an entry is added for a file once it is read, and a directive naming a file
    /// still being expanded is a cycle (checked first), so each one counts as in the result
    /// once it is done, as SPEC.md §5.4 has it.
    in_result: PathMap<Option<usize>>,
}

impl State {
    /// The state of a chain with these limits; zero means the default for either.
    pub(crate) fn new(import_depth: u32, max_imports: u32) -> Self {
        let or_default = |value, default| if value == 0 { default } else { value };
        Self {
            depth_limit: or_default(import_depth, DEFAULT_IMPORT_DEPTH),
            max_imports: or_default(max_imports, DEFAULT_MAX_IMPORTS),
            reads: 0,
            // A chain keeps a few files, each path of some tens of bytes: room for them at once.
            in_result: PathMap::with_capacity(16, 16 * 64),
        }
    }

    /// Expands the directives of the top-level file `top`, whose bytes read are `content`,
    /// adding each import met to `met`. Every target must stay within `scope` (an OS directory
    /// for an absolute `top`, else a custom file system's name, `.` for its root), and reads at
    /// most `max_bytes`. The bounds of the expanded content are the walk's, after its
    /// transform; then it calls [`State::keep`] or [`State::leave_out`].
    pub(crate) fn expand(
        &mut self,
        top: &[u8],
        content: Vec<u8>,
        scope: &[u8],
        targets: &dyn ImportTargets,
        max_bytes: u64,
        met: &mut Imports,
    ) -> Result<Expansion, Error> {
        let before = Before(self.in_result.len());
        let found = directives(&content).map_err(|_| no_memory(top))?;
        if found.is_empty() {
            return Ok(Expansion { content, before });
        }
        let file = self.in_result.insert(top, None);
        let path = met.0.write(|bytes| bytes.extend_from_slice(top));
        // Each target about as long as the file: room for the expansion at once rather than by
        // doubling, within 64 KiB.
        let room = content.len().saturating_mul(found.len() + 1);
        let room = room.min(EXPANSION_ROOM).max(content.len());
        let mut out = Vec::new();
        out.try_reserve_exact(room).map_err(|_| no_memory(top))?;
        let mut expander = Expander {
            imports: self,
            targets,
            scope,
            top,
            max_bytes,
            out,
            met,
            stack: Vec::new(),
        };
        // The stack holds at most the top-level file and one file per level of depth.
        let depth = expander.imports.depth_limit.min(8) as usize;
        expander.stack.reserve_exact(depth + 1);
        let top = Frame::new((file, path), content, found, 0, 0, false);
        expander.stack.push(top);
        expander.run()?;
        let mut content = expander.out;
        // The room guessed is not kept where the targets turned out much shorter: a result
        // holds no more than twice its bytes.
        if content.capacity() > 2 * content.len() {
            content.shrink_to_fit();
        }
        Ok(Expansion { content, before })
    }

    /// Records that the walk keeps `top`: it and every file imported into it are in the
    /// result, so a later directive naming one is a duplicate.
    pub(crate) fn keep(&mut self, top: &[u8]) {
        self.in_result.insert(top, None);
    }

    /// Records that the walk left out the file whose expansion gave `before`: the files
    /// imported into it are not in the result (their reads still count).
    pub(crate) fn leave_out(&mut self, before: Before) {
        self.in_result.truncate(before.0);
    }

    /// The file whose directive imported `top` into an earlier kept file: the walk then omits
    /// `top` as a duplicate, unread.
    pub(crate) fn imported_by(&self, top: &[u8]) -> Option<&[u8]> {
        let by = (*self.in_result.value(self.in_result.find(top)?))?;
        Some(self.in_result.path(by))
    }
}

/// One file being expanded.
struct Frame {
    /// Its entry in [`State::in_result`].
    file: usize,
    /// Its path in the chain's [`Imports`].
    path: Range<usize>,
    content: Vec<u8>,
    directives: Vec<Directive>,
    /// The next directive to expand.
    next: usize,
    /// How much of `content` is in the output or replaced.
    copied: usize,
    depth: u32,
    /// The output's length when this file's content began.
    start: usize,
    /// Whether the directive that imported this file ends in `\n`.
    newline: bool,
}

impl Frame {
    fn new(
        (file, path): (usize, Range<usize>),
        content: Vec<u8>,
        directives: Vec<Directive>,
        depth: u32,
        start: usize,
        newline: bool,
    ) -> Self {
        Self {
            file,
            path,
            content,
            directives,
            next: 0,
            copied: 0,
            depth,
            start,
            newline,
        }
    }
}

/// What a directive resolves to once every check has passed: either way with where the
/// target's path is written in the chain's [`Imports`].
enum Resolved {
    Duplicate(Range<usize>),
    /// The target's bytes, read onto the end of the output.
    Read {
        path: Range<usize>,
        size: usize,
        /// The path's hash in [`State::in_result`], where the file is then entered.
        hash: u64,
    },
}

/// One top-level file's expansion. It stops with the top-level file's `TooLarge` as soon as
/// its output passes `max_bytes` (SPEC.md §5.4), so that no expansion grows with its imports:
/// its output holds at most `max_bytes` and the target being read; and memory it cannot get is
/// an `Io` error (`ENOMEM`), not an abort.
struct Expander<'a> {
    imports: &'a mut State,
    targets: &'a dyn ImportTargets,
    scope: &'a [u8],
    /// The top-level file, which the bounds name.
    top: &'a [u8],
    max_bytes: u64,
    out: Vec<u8>,
    /// The imports met, in pre-order.
    met: &'a mut Imports,
    /// The chain of expansion: the top-level file, then each file being imported into the one
    /// before it.
    stack: Vec<Frame>,
}

impl Expander<'_> {
    fn run(&mut self) -> Result<(), Error> {
        while let Some(frame) = self.stack.last_mut() {
            let directive = frame.directives.get(frame.next).cloned();
            let end = directive
                .as_ref()
                .map_or(frame.content.len(), |d| d.line.start);
            let text = &frame.content[frame.copied..end];
            append(&mut self.out, text).map_err(|_| no_memory(self.top))?;
            check(&self.out, self.max_bytes, self.top)?;
            let Some(directive) = directive else {
                self.finish()?;
                continue;
            };
            frame.copied = directive.line.end;
            frame.next += 1;
            let (by, by_path, depth) = (frame.file, frame.path.clone(), frame.depth + 1);
            let line = directive.number;
            let resolved = self.resolve(by, line, directive.target, depth)?;
            let (path, size, duplicate) = match resolved {
                Resolved::Duplicate(path) => (path, 0, true),
                Resolved::Read { path, size, hash } => {
                    // The target's text is in the output already: only one that holds
                    // directives is taken back out, to be expanded as a file of its own.
                    let start = self.out.len() - size;
                    let found = directives(&self.out[start..]).map_err(|_| no_memory(self.top))?;
                    let target = &self.met.0.bytes()[path.clone()];
                    let file = self.imports.in_result.insert_hashed(target, hash, Some(by));
                    let newline = directive.newline;
                    if found.is_empty() {
                        end_file(&mut self.out, start, newline).map_err(|_| no_memory(self.top))?;
                    } else {
                        let content =
                            take(&mut self.out, start).map_err(|_| no_memory(self.top))?;
                        let frame = (file, path.clone());
                        let frame = Frame::new(frame, content, found, depth, start, newline);
                        self.stack.push(frame);
                    }
                    check(&self.out, self.max_bytes, self.top)?;
                    (path, size as u64, false)
                }
            };
            self.met.0.push(Record {
                path,
                by: by_path,
                line: line as u64,
                depth,
                size,
                duplicate,
            });
        }
        Ok(())
    }

    /// Ends the innermost file.
    fn finish(&mut self) -> Result<(), Error> {
        if let Some(done) = self.stack.pop() {
            end_file(&mut self.out, done.start, done.newline).map_err(|_| no_memory(self.top))?;
        }
        check(&self.out, self.max_bytes, self.top)
    }

    /// The checks of SPEC.md §5.8, in its order, then the read onto the output, for the
    /// directive of line `line` of the file `by` (its entry), whose `P` is `p` in the
    /// innermost file's content.
    fn resolve(
        &mut self,
        by: usize,
        line: usize,
        p: Range<usize>,
        depth: u32,
    ) -> Result<Resolved, Error> {
        let in_result = &self.imports.in_result;
        let by_path = in_result.path(by);
        let fail = |target: &[u8], why: &[u8]| Error::import(by_path, line, target, why);
        let p = match self.stack.last() {
            Some(frame) => &frame.content[p],
            None => &[][..],
        };
        if is_invalid(p) {
            return Err(fail(
                p,
                b"invalid path (it must be relative, without '~', '\\', ':' or NUL)",
            ));
        }
        let outside = |target: &[u8]| {
            fail(
                target,
                &[&b"outside the import scope "[..], self.scope].concat(),
            )
        };
        let dir = path::parent(by_path).unwrap_or(self.scope);
        // The target's path is written where the import's record keeps it; a failed check ends
        // the chain, record and all.
        let kept = if self.scope.starts_with(b"/") {
            self.met.0.write(|bytes| path::os_clean_onto(p, dir, bytes))
        } else {
            // Above a custom file system's root there is no name to give: `P` stands for it.
            let clean = path::fs_clean(p, dir).ok_or_else(|| outside(p))?;
            self.met.0.write(|bytes| bytes.extend_from_slice(&clean))
        };
        let target = &self.met.0.bytes()[kept.clone()];
        if !path::is_within(target, self.scope) {
            return Err(outside(target));
        }
        let depth_limit = self.imports.depth_limit;
        if depth > depth_limit {
            let why = format!("deeper than the import depth of {depth_limit}");
            return Err(fail(target, why.as_bytes()));
        }
        let hash = in_result.hash(target);
        if let Some(found) = in_result.find_hashed(target, hash) {
            let Some(at) = self.stack.iter().position(|f| f.file == found) else {
                return Ok(Resolved::Duplicate(kept));
            };
            let mut cycle: Vec<&[u8]> = self.stack[at..]
                .iter()
                .map(|f| in_result.path(f.file))
                .collect();
            cycle.push(target);
            let why = [&b"an import cycle: "[..], &cycle.join(&b" -> "[..])].concat();
            return Err(fail(target, &why));
        }
        let size = match self
            .targets
            .stat(target)
            .map_err(|e| e.in_import(by_path, line, target))?
        {
            Target::File { size } => size,
            Target::NotFound => return Err(fail(target, b"not found")),
            Target::NotAFile => return Err(fail(target, b"not a regular file")),
            Target::Escapes => {
                return Err(fail(target, b"a symbolic link leads out of root"));
            }
        };
        let max_imports = self.imports.max_imports;
        if self.imports.reads >= max_imports {
            let why = format!("more than {max_imports} imports in one chain (max_imports)");
            return Err(fail(target, why.as_bytes()));
        }
        self.imports.reads += 1;
        let size = self
            .targets
            .read(
                target,
                size,
                self.max_bytes.saturating_add(1),
                &mut self.out,
            )
            .map_err(|e| e.in_import(by_path, line, target))?
            .ok_or_else(|| fail(target, b"not found"))?;
        if size as u64 > self.max_bytes {
            return Err(Error::too_large(target, self.max_bytes).at_line(by_path, line));
        }
        Ok(Resolved::Read {
            path: kept,
            size,
            hash,
        })
    }
}

/// Ends a file whose content began at `start` of `out`: the `\n` rule of SPEC.md §5.4
/// "Expansion", for a directive that ended in `\n` (`newline`).
fn end_file(out: &mut Vec<u8>, start: usize, newline: bool) -> Result<(), TryReserveError> {
    if newline && out.len() > start && !out.ends_with(b"\n") {
        append(out, b"\n")?;
    }
    Ok(())
}

/// The `TooLarge` of the top-level file `top` once its expansion's output `out` passes
/// `max_bytes` (SPEC.md §5.4): checked at each piece of output, so that it stops there.
fn check(out: &[u8], max_bytes: u64, top: &[u8]) -> Result<(), Error> {
    match out.len() as u64 > max_bytes {
        true => Err(Error::too_large(top, max_bytes)),
        false => Ok(()),
    }
}

/// The error of memory the expansion of the top-level file `top` cannot get (SPEC.md §4).
fn no_memory(top: &[u8]) -> Error {
    Error::io("expand", top, crate::fs::out_of_memory())
}

/// Appends `bytes` to `out`, or says that the memory for them cannot be had.
fn append(out: &mut Vec<u8>, bytes: &[u8]) -> Result<(), TryReserveError> {
    out.try_reserve(bytes.len())?;
    out.extend_from_slice(bytes);
    Ok(())
}

/// The bytes of `out` from `start` on, taken out of it: a target read onto the output that holds
/// directives, to be expanded as a file of its own.
fn take(out: &mut Vec<u8>, start: usize) -> Result<Vec<u8>, TryReserveError> {
    let mut taken = Vec::new();
    taken.try_reserve_exact(out.len() - start)?;
    taken.extend_from_slice(&out[start..]);
    out.truncate(start);
    Ok(taken)
}

/// SPEC.md §5.4 "Paths": rooted, home-relative, Windows-like and NUL-holding paths are refused
/// rather than guessed at.
fn is_invalid(p: &[u8]) -> bool {
    p.starts_with(b"/") || p.starts_with(b"~") || p.iter().any(|&b| matches!(b, b'\\' | b':' | 0))
}
