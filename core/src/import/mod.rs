//! Imports (SPEC §5.4, §5.8): each directive line of a top-level file replaced by its target's
//! content, itself expanded. One [`State`] spans a chain, as duplicates and `max_imports` do;
//! nesting is an explicit stack, so no `import_depth` can overflow the thread's stack.

mod directive;

use std::collections::HashMap;
use std::path::PathBuf;

use crate::error::Error;
use crate::fs::{Files, Kind};
use crate::options::{DEFAULT_IMPORT_DEPTH, DEFAULT_MAX_IMPORTS};
use crate::path::{self, Syntax};
use directive::{directives, Directive};

/// One directive expanded into a file of the result, in the order met: an import before the
/// imports inside it ([`Chain::imports`](crate::Chain::imports), SPEC §5.4 "Provenance").
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub struct Import {
    /// The target: its cleaned OS path, or its name in the custom file system.
    pub path: PathBuf,
    /// The file holding the directive.
    pub by: PathBuf,
    /// The directive's line in `by`, 1-based.
    pub line: u64,
    /// The target's depth: 1 for a directive of a top-level file.
    pub depth: u32,
    /// The bytes read from the target; 0 for a duplicate, which is not read.
    pub size: u64,
    /// Whether the target was already in the result, so that the directive expanded to nothing.
    pub duplicate: bool,
}

/// The state of imports across one chain, or a session's touches (SPEC §10).
#[derive(Default)]
pub(crate) struct State {
    depth_limit: u32,
    max_imports: u32,
    /// Import reads so far, also those of files then left out.
    reads: u32,
    /// Every file of the result so far, with the file whose directive imported it (`None` for a
    /// top-level file): a target among them is a duplicate, or a cycle while being expanded.
    in_result: HashMap<Vec<u8>, Option<Vec<u8>>>,
    /// The paths of `in_result` in order, so that the imports of a file left out are taken back.
    added: Vec<Vec<u8>>,
}

impl State {
    /// The state of a chain with these limits; zero means the default for either.
    pub(crate) fn new(import_depth: u32, max_imports: u32) -> Self {
        let or_default = |value, default| if value == 0 { default } else { value };
        Self {
            depth_limit: or_default(import_depth, DEFAULT_IMPORT_DEPTH),
            max_imports: or_default(max_imports, DEFAULT_MAX_IMPORTS),
            ..Self::default()
        }
    }

    /// Starts a session's next touch: `max_imports` counts one touch's reads (SPEC §11.1).
    pub(crate) fn next_touch(&mut self) {
        self.reads = 0;
    }

    /// How deep imports may nest.
    pub(crate) fn depth_limit(&self) -> u32 {
        self.depth_limit
    }

    /// The most import reads of the chain.
    pub(crate) fn max_imports(&self) -> u32 {
        self.max_imports
    }

    /// Enters `path` as a file of the result, imported by `by`, unless it is one already.
    fn insert(&mut self, path: &[u8], by: Option<&[u8]>) {
        if !self.in_result.contains_key(path) {
            self.in_result.insert(path.to_vec(), by.map(<[u8]>::to_vec));
            self.added.push(path.to_vec());
        }
    }

    /// The files of the result as they are, for [`State::leave_out`].
    pub(crate) fn mark(&self) -> usize {
        self.added.len()
    }

    /// Expands the top-level file `top`, adding each import met to `met`; every target must
    /// stay within `scope`. The walk then calls [`State::keep`] or [`State::leave_out`].
    pub(crate) fn expand(
        &mut self,
        top: &[u8],
        content: Vec<u8>,
        scope: &[u8],
        files: &Files,
        max_bytes: u64,
        met: &mut Vec<Import>,
    ) -> Result<Vec<u8>, Error> {
        let found = directives(&content).map_err(|_| no_memory(top))?;
        if found.is_empty() {
            return Ok(content);
        }
        self.insert(top, None);
        let mut expander = Expander {
            imports: self,
            files,
            scope,
            top,
            max_bytes,
            out: Vec::new(),
            met,
            stack: Vec::new(),
        };
        expander.open(top.to_vec(), content, found, 0, false);
        expander.run()?;
        Ok(expander.out)
    }

    /// Records that the walk keeps `top` and so every file imported into it.
    pub(crate) fn keep(&mut self, top: &[u8]) {
        self.insert(top, None);
    }

    /// Records that the walk left out the file expanded since `mark` (its reads still count).
    pub(crate) fn leave_out(&mut self, mark: usize) {
        for path in self.added.drain(mark..) {
            self.in_result.remove(&path);
        }
    }

    /// The file whose directive imported `top` into an earlier kept file, if any.
    pub(crate) fn imported_by(&self, top: &[u8]) -> Option<&[u8]> {
        self.in_result.get(top)?.as_deref()
    }
}

/// One file being expanded.
struct Frame {
    path: Vec<u8>,
    content: Vec<u8>,
    /// The directives not yet expanded.
    directives: std::vec::IntoIter<Directive>,
    /// How much of `content` is in the output or replaced.
    copied: usize,
    depth: u32,
    /// The output's length when this file's content began.
    start: usize,
    /// Whether the directive that imported this file ends in `\n`.
    newline: bool,
}

/// One top-level file's expansion (SPEC §5.4 "Bounds").
struct Expander<'a> {
    imports: &'a mut State,
    files: &'a Files<'a>,
    scope: &'a [u8],
    /// The top-level file, which the bounds name.
    top: &'a [u8],
    max_bytes: u64,
    out: Vec<u8>,
    /// The imports met, in pre-order.
    met: &'a mut Vec<Import>,
    /// The top-level file, then each file being imported into the one before it.
    stack: Vec<Frame>,
}

impl Expander<'_> {
    /// Starts expanding the file `path`, imported at `depth`.
    fn open(
        &mut self,
        path: Vec<u8>,
        content: Vec<u8>,
        directives: Vec<Directive>,
        depth: u32,
        newline: bool,
    ) {
        self.stack.push(Frame {
            path,
            content,
            directives: directives.into_iter(),
            copied: 0,
            depth,
            start: self.out.len(),
            newline,
        });
    }

    fn run(&mut self) -> Result<(), Error> {
        while let Some(frame) = self.stack.last_mut() {
            let directive = frame.directives.next();
            let end = directive
                .as_ref()
                .map_or(frame.content.len(), |d| d.line.start);
            let text = &frame.content[frame.copied..end];
            write(&mut self.out, text, self.max_bytes, self.top)?;
            let Some(directive) = directive else {
                let done = self.stack.pop().expect("the file just expanded");
                // SPEC §5.4 "Expansion": a `\n` after content that lacks one.
                if done.newline && self.out.len() > done.start && !self.out.ends_with(b"\n") {
                    write(&mut self.out, b"\n", self.max_bytes, self.top)?;
                }
                continue;
            };
            frame.copied = directive.line.end;
            let (by, depth) = (frame.path.clone(), frame.depth + 1);
            let p = frame.content[directive.target].to_vec();
            let (target, content) = self.resolve(&by, directive.number, &p, depth)?;
            self.met.push(Import {
                path: path::into_path_buf(target.clone()),
                by: path::into_path_buf(by.clone()),
                line: directive.number as u64,
                depth,
                size: content.as_ref().map_or(0, |content| content.len() as u64),
                duplicate: content.is_none(),
            });
            if let Some(content) = content {
                self.imports.insert(&target, Some(&by));
                let found = directives(&content).map_err(|_| no_memory(self.top))?;
                self.open(target, content, found, depth, directive.newline);
            }
        }
        Ok(())
    }

    /// The checks of SPEC §5.8 in order, then the read, for `P` (`p`) at `line` of `by`: the
    /// target, and its content, or `None` for a duplicate, which is not read.
    fn resolve(
        &mut self,
        by: &[u8],
        line: usize,
        p: &[u8],
        depth: u32,
    ) -> Result<(Vec<u8>, Option<Vec<u8>>), Error> {
        let fail = |target: &[u8], why: &[u8]| Error::import(by, line, target, why);
        let target = target_of(by, p, self.scope, self.files.syntax())
            .map_err(|(target, why)| fail(&target, &why))?;
        let depth_limit = self.imports.depth_limit;
        if depth > depth_limit {
            let why = format!("deeper than the import depth of {depth_limit}");
            return Err(fail(&target, why.as_bytes()));
        }
        if self.imports.in_result.contains_key(&target) {
            let Some(at) = self.stack.iter().position(|f| f.path == target) else {
                return Ok((target, None));
            };
            let mut cycle: Vec<&[u8]> = self.stack[at..].iter().map(|f| &f.path[..]).collect();
            cycle.push(&target);
            let why = [&b"an import cycle: "[..], &cycle.join(&b" -> "[..])].concat();
            return Err(fail(&target, &why));
        }
        let name = self.files.name_of(&target);
        let in_import = |e: Error| e.in_import(by, line, &target);
        let size = match self.files.find_target(&name).map_err(in_import)? {
            Some(Kind::File { size }) => size,
            None => return Err(fail(&target, b"not found")),
            Some(Kind::Escapes) => return Err(fail(&target, b"a symbolic link leads out of root")),
            Some(_) => return Err(fail(&target, b"not a regular file")),
        };
        let max_imports = self.imports.max_imports;
        if self.imports.reads >= max_imports {
            let why = format!("more than {max_imports} imports in one chain (max_imports)");
            return Err(fail(&target, why.as_bytes()));
        }
        self.imports.reads += 1;
        let content = self
            .files
            .read(&name, size, self.max_bytes)
            .map_err(in_import)?;
        let content = content.ok_or_else(|| fail(&target, b"not found"))?;
        Ok((target, Some(content)))
    }
}

/// The target of `p`, a directive's `P` in the file `by`, when it is valid and within `scope`
/// (SPEC §5.4 "Paths", §8.2); else what the error names (`P`, or the target outside) and why.
fn target_of(
    by: &[u8],
    p: &[u8],
    scope: &[u8],
    syntax: Syntax,
) -> Result<Vec<u8>, (Vec<u8>, Vec<u8>)> {
    let opens_as_named = || {
        p.split(|&b| b == b'/')
            .filter(|element| !matches!(*element, b"" | b"." | b".."))
            .all(|element| Syntax::Windows.is_element(element))
    };
    if p.starts_with(b"/")
        || p.starts_with(b"~")
        || p.iter().any(|&b| matches!(b, b'\\' | b':' | 0))
        || (syntax == Syntax::Windows && !opens_as_named())
    {
        let windows = match syntax {
            Syntax::Unix => "",
            Syntax::Windows => ", each element a name Windows opens as named",
        };
        let why =
            format!("invalid path (it must be relative, without '~', '\\', ':' or NUL{windows})");
        return Err((p.to_vec(), why.into_bytes()));
    }
    // `P` itself where it leads above a custom file system's root, where there is no name.
    let outside = |target| (target, [&b"outside the import scope "[..], scope].concat());
    let dir = path::parent(syntax, by).unwrap_or(scope);
    let target = path::clean(syntax, dir, p).ok_or_else(|| outside(p.to_vec()))?;
    match path::is_within(syntax, &target, scope) {
        true => Ok(target),
        false => Err(outside(target)),
    }
}

/// One target of a directive, for reading it ahead, and where the directive is.
pub(crate) struct Met {
    pub(crate) target: Vec<u8>,
    pub(crate) by: Vec<u8>,
    pub(crate) line: usize,
}

/// The valid targets within `scope` of the directives of `content`, the file `by`, in order.
pub(crate) fn targets(by: &[u8], content: &[u8], scope: &[u8], syntax: Syntax) -> Vec<Met> {
    let found = directives(content).unwrap_or_default();
    let met = |directive: &Directive| {
        let target = target_of(by, &content[directive.target.clone()], scope, syntax).ok()?;
        Some(Met {
            target,
            by: by.to_vec(),
            line: directive.number,
        })
    };
    found.iter().filter_map(met).collect()
}

/// Appends `bytes` to `out`, the expansion of `top`: memory that cannot be had is an error, not
/// an abort; an output past `max_bytes` is `top`'s `TooLarge` (SPEC §5.4 "Bounds").
fn write(out: &mut Vec<u8>, bytes: &[u8], max_bytes: u64, top: &[u8]) -> Result<(), Error> {
    out.try_reserve(bytes.len()).map_err(|_| no_memory(top))?;
    out.extend_from_slice(bytes);
    match out.len() as u64 > max_bytes {
        true => Err(Error::too_large(top, max_bytes)),
        false => Ok(()),
    }
}

/// The error of memory the expansion of the top-level file `top` cannot get (SPEC §4).
fn no_memory(top: &[u8]) -> Error {
    Error::io("expand", top, crate::error::out_of_memory())
}
