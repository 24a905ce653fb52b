//! The command line: what `agentsmd --help` documents, parsed from `OsString`s so that paths
//! that are not UTF-8 pass through untouched.

use std::collections::HashMap;
use std::ffi::OsString;
use std::os::unix::ffi::OsStringExt;
use std::path::PathBuf;
use std::str::FromStr;

use agentsmd_core::{check_fragment, check_name, Error, Options, Transform};

pub const HELP: &str = "\
agentsmd: print the AGENTS.md instructions that apply at a path, as a model's prompt gets them

usage: agentsmd [PATH] [--root DIR] [--name NAME]... [--extra FILE]...
                [--max-bytes N] [--budget N] [--rendered-budget N] [--confine]
                [--fragments DIR]... [--overlay DIR]... [--imports] [--import-depth N]
                [--max-imports N] [--env NAME[=VALUE]]... [--nearest] [--explain] [--json]
       agentsmd structure FILE [--cap N] [--skill NAME]... [--no-skills] [--heading TEXT]
                [--preamble TEXT] [--where TEXT] [--max-bytes N] [--json]

Finds the instruction files that apply at PATH: one per directory, from the root down to
PATH's directory (PATH itself if it is a directory, else its parent), farthest first and
nearest last, so the nearest file is the last text the model reads and wins. Names match
byte for byte. Nothing is cut short: a file over --max-bytes is an error, and the first file
over a budget ends the chain without error.

arguments:
  PATH                  where instructions are wanted: a directory, a file, or a file about
                        to be created (default: .)

options:
  --root DIR            the directory the walk stops after; one that does not exist is an
                        error (default: the nearest ancestor of PATH holding .git, a
                        directory or a file, else /; see the default root, below)
  --name NAME           a file name to look for, in order of preference; repeat it, e.g.
                        --name AGENTS.override.md --name AGENTS.md (default: AGENTS.md)
  --extra FILE          a file included before the chain, such as ~/.codex/AGENTS.md; repeat
                        it to add more, in order; a missing one is skipped, and said on
                        stderr: agentsmd: skipped FILE: not found
  --max-bytes N         the most bytes one file may read; more is an error (default, or 0:
                        1048576)
  --budget N            total bytes of the files included (default, or 0: no budget)
  --rendered-budget N   total bytes of the rendering, wrapper and paths included (default, or
                        0: no budget)
  --confine             open nothing outside the root, for repositories you did not write: a
                        symbolic link below the root that leads out of it (a file's or a
                        directory's) is not followed and is reported as omitted; relative
                        links that stay inside are followed, absolute ones refused. --extra
                        files are read as given. With the root / it is a usage error:
                        confined to /, nothing leads out, so pass --root

composition (each off unless asked for):
  --fragments DIR       a fragment directory, relative to each directory of the walk (and of
                        each overlay), e.g. .agents/AGENTS.d: its regular files named *.md (not
                        .*) follow the directory's own file, in byte order of name; repeat it
                        for more. Each element must be valid as a --name is
  --overlay DIR         a directory looked up after the whole walk, as one more directory: its
                        file (the first of the names) and its fragments come last and win; a
                        missing one is skipped; repeat it for more, in order. Confined by
                        --confine only when inside the root
  --imports             expand whole-line directives, \"@include PATH\" and \"@PATH\" (a PATH
                        holding a . or a /), outside code blocks and HTML comments, by the
                        file they name, relative to the file holding them and within its
                        scope (the root; an --extra's or an overlay's own directory); a
                        missing, invalid or cyclic import is an error
  --import-depth N      how deep imports may nest (default, or 0: 5); needs --imports
  --max-imports N       the most import reads of one run (default, or 0: 64); needs --imports
  --env NAME=VALUE      replace each ${env:NAME} in the files with VALUE; --env NAME takes the
                        value of NAME from the environment (sets nothing when it is unset).
                        Nothing else is read from the environment; NAME matches
                        [A-Za-z_][A-Za-z0-9_]*. Repeat it for more names
  --nearest             of the directories' files, include only the nearest; the others are
                        omitted as superseded, unread
  --explain             report every place looked at, with what was found there: a line on
                        stderr each, or \"probes\" with --json

output options:
  --json                print one JSON object instead of the rendering (see json, below)
  -h, --help            print this help
  -V, --version         print the version

the default root:
  The deepest directory on the way to PATH (made absolute and clean) that holds .git. The
  search goes down from / one name at a time without following a name: a symbolic link met
  before any .git (a linked home directory) is followed to where it leads; one met below a
  .git is the repository's own and ends the search, so a link inside a repository never
  chooses the root, and with --confine nothing behind it is looked at.

json:
  {\"part_id\":\"agentsmd\",
   \"files\":[{\"path\":P,\"content\":C,\"source\":S}],
   \"omitted\":[{\"path\":P,\"size\":N,\"reason\":R,\"by\":P}],
   \"imports\":[{\"path\":P,\"by\":P,\"line\":N,\"depth\":N,\"size\":N,\"duplicate\":B}],
   \"probes\":[{\"path\":P,\"source\":S,\"outcome\":O}]}
  on one line, ending in a newline; \"imports\" only with --imports, \"probes\" only with
  --explain. S is \"extra\", \"chain\", \"fragment\" or \"overlay\"; R is \"over_budget\",
  \"shadowed\", \"escapes\" (--confine), \"duplicate\" (--imports) or \"superseded\"
  (--nearest), and \"by\" is \"\" when no file took the place; O is \"included\",
  \"shadowed\", \"over_budget\", \"superseded\", \"duplicate\", \"escapes\", \"not_found\",
  \"not_a_file\", \"listed\" (a fragment directory) or \"imported\". A path or content that is
  valid UTF-8 is a JSON string; one that is not is {\"bytes\":\"BASE64\"} (standard base64,
  padded), so nothing is lost.

output:
  Without --json, stdout is exactly the rendering, <project_context>...</project_context>,
  with no newline added (empty when no file applies), and each file found and left out is a
  line on stderr:
    agentsmd: omitted PATH (N bytes): over budget
    agentsmd: omitted PATH (N bytes): shadowed by PATH
    agentsmd: omitted PATH (0 bytes): escapes root       (with --confine)
    agentsmd: omitted PATH (N bytes): duplicate, imported by PATH   (with --imports)
    agentsmd: omitted PATH (N bytes): superseded by PATH            (with --nearest)
  and with --explain, after them, each place looked at:
    agentsmd: probe PATH (SOURCE): OUTCOME
  When no file is found at all, stdout stays empty and stderr says so (whether or not it is
  a terminal; with --json the empty \"files\" says it):
    agentsmd: no instruction file applies: looked for NAMES from ROOT down to PATH
  Every stderr line is one line: in the paths (and messages) it holds, a newline, carriage
  return and tab are written \\n, \\r and \\t, other control bytes and bytes that are not
  UTF-8 \\xHH, C1 control characters \\u{HHHH}, and a backslash \\\\. stdout is never
  escaped.

structure (only as the first argument):
  agentsmd structure FILE prints the bounded block of one instruction file, exactly those
  bytes (empty when it has no section and no skill resolves): the heading, the preamble, the
  file's sections in order and its requested skills, each whole, as long as they fit the cap;
  a section that does not fit is dropped whole, and one warning line names what was dropped
  and where to read it. The skills are the front matter's (skills: [a, b]) unless given; each
  is its \"## Skill: NAME\" section, else the file skills/NAME.md beside FILE; one that neither
  defines is unknown, said on stderr, not an error. FILE must be a regular file. An empty
  --where is none: the default stands.
  --cap N               the most bytes of the block, its warning line aside (default, or 0:
                        8192; less than 2048 is raised to 2048)
  --skill NAME          a skill to add, instead of the front matter's; repeat it, in order
  --no-skills           add no skill (a usage error with --skill)
  --heading TEXT        the first line (default: # Repository Agent Instructions (AGENTS.md))
  --preamble TEXT       a paragraph after the heading (default: none)
  --where TEXT          where the warning says the full file is (default: FILE, absolute and
                        clean)
  --max-bytes N         the most bytes FILE, and each skill file, may hold; more is an error
                        (default, or 0: 1048576)
  --root DIR            as for the chain (default: the nearest ancestor of FILE holding
                        .git, else /); FILE outside it is an error
  --confine             as for the chain: FILE and each skills/NAME.md are opened beneath the
                        root; a skill file outside it, or whose link leads out, is not read
                        (its name is unknown, with a warning); --confine with the root / is a
                        usage error
  --json                print one object instead, on one line, ending in a newline:
                        {\"block\":B,\"requested\":[N],\"skills\":[{\"name\":N,\"source\":S}],
                         \"unknown\":[N],\"dropped\":[{\"title\":T,\"bytes\":N}],
                         \"warnings\":[W]}
                        S is \"inline\" or \"file\"; W is \"line N: MESSAGE\"; bytes that are
                        not UTF-8 are {\"bytes\":\"BASE64\"}, as above
  Without --json, each front matter or section warning and each unknown skill is a line on
  stderr:
    agentsmd: warning: line N: MESSAGE
    agentsmd: unknown skill \"NAME\" (no section or skills/NAME.md defines it)

exit status:
  0  success (running out of budget is success)
  1  an error, one line on stderr naming the path: agentsmd: error: ...  (an import error
     starts with the including file and line: agentsmd: error: PATH:LINE: ...); or stdout
     closed by its reader (agentsmd | head), which ends the run with no message
  2  a usage error: an unknown option, a bad value, an empty --root, an invalid --name or
     --fragments, an empty --overlay, an --env NAME that is not a name, --confine with the
     root /; for structure, no FILE or more than one, --skill with --no-skills, an empty
     --root, --confine with the root /
";

/// What the command line asks for: the chain's options as the core takes them (`--root` as
/// given, to be checked or discovered), and what only the command line has.
#[derive(Debug, Default)]
pub struct Args {
    pub path: Option<PathBuf>,
    pub options: Options,
    pub json: bool,
}

/// What to do instead of a chain.
pub enum Exit {
    Help,
    Version,
    Usage(String),
}

/// Parses the arguments after the program name.
pub fn parse(args: impl IntoIterator<Item = OsString>) -> Result<Args, Exit> {
    let mut parsed = Args::default();
    let options = &mut parsed.options;
    // The interpolator's values, `Some` as soon as one `--env` is given.
    let mut env = None;
    let mut args = args.into_iter().map(OsString::into_vec);
    let mut only_paths = false;
    while let Some(arg) = args.next() {
        let (flag, inline) = match classify(arg, only_paths) {
            Arg::Operand(operand) => {
                if parsed.path.replace(path(operand)).is_some() {
                    return Err(Exit::Usage("more than one PATH given".into()));
                }
                continue;
            }
            Arg::Flag(flag, inline) => (flag, inline),
        };
        let mut value = || value(&flag, inline.clone(), &mut args);
        match flag.as_str() {
            "-h" | "--help" => return Err(Exit::Help),
            "-V" | "--version" => return Err(Exit::Version),
            "--" | "--json" | "--confine" | "--imports" | "--nearest" | "--explain"
                if inline.is_some() =>
            {
                return Err(Exit::Usage(format!("{flag} takes no value")))
            }
            "--" => only_paths = true,
            "--json" => parsed.json = true,
            "--confine" => options.confine = true,
            "--imports" => options.imports = true,
            "--nearest" => options.nearest = true,
            "--explain" => options.report = true,
            "--root" => options.root = Some(directory(&flag, value()?)?),
            "--name" => options.names.push(checked(value()?, check_name)?),
            "--extra" => options.extra.push(path(value()?)),
            "--fragments" => options.fragments.push(checked(value()?, check_fragment)?),
            "--overlay" => options.overlays.push(directory(&flag, value()?)?),
            "--env" => set_env(env.get_or_insert_with(HashMap::new), value()?)?,
            "--max-bytes" => options.max_bytes = bytes(&flag, &value()?)?,
            "--budget" => options.budget = bytes(&flag, &value()?)?,
            "--rendered-budget" => options.rendered_budget = bytes(&flag, &value()?)?,
            "--import-depth" => options.import_depth = count(&flag, &value()?)?,
            "--max-imports" => options.max_imports = count(&flag, &value()?)?,
            _ => return Err(Exit::Usage(format!("unknown option {flag}"))),
        }
    }
    options.transform = env.map(Transform::interpolator);
    Ok(parsed)
}

/// An argument as both command lines (the chain's and `structure`'s) read it.
pub enum Arg {
    /// A PATH or FILE: what does not start with `-`, `-` itself, and everything after `--`.
    Operand(Vec<u8>),
    /// A flag, and the value written after its `=` (`--cap=4096`), if any.
    Flag(String, Option<Vec<u8>>),
}

/// What `arg` is; `operands_only` once `--` was read.
pub fn classify(arg: Vec<u8>, operands_only: bool) -> Arg {
    if operands_only || !arg.starts_with(b"-") || arg == b"-" {
        return Arg::Operand(arg);
    }
    let (flag, inline) = match arg.iter().position(|&b| b == b'=') {
        Some(eq) if arg.starts_with(b"--") => (arg[..eq].to_vec(), Some(arg[eq + 1..].to_vec())),
        _ => (arg, None),
    };
    Arg::Flag(String::from_utf8_lossy(&flag).into_owned(), inline)
}

/// The value of `flag`: the one written after its `=` (`inline`), else the next argument.
pub fn value(
    flag: &str,
    inline: Option<Vec<u8>>,
    rest: &mut impl Iterator<Item = Vec<u8>>,
) -> Result<Vec<u8>, Exit> {
    inline
        .or_else(|| rest.next())
        .ok_or_else(|| Exit::Usage(format!("{flag} needs a value")))
}

pub fn path(value: Vec<u8>) -> PathBuf {
    PathBuf::from(OsString::from_vec(value))
}

/// A `--root` or `--overlay` value: an empty one would mean `/` (a root) or the current
/// directory (an overlay) to the core, which is never what a user typing `--root ""` (an unset
/// variable, say) meant.
pub fn directory(flag: &str, value: Vec<u8>) -> Result<PathBuf, Exit> {
    if value.is_empty() {
        return Err(Exit::Usage(format!(
            "{flag} needs a directory, not an empty value"
        )));
    }
    Ok(path(value))
}

/// A `--name` or `--fragments` value, refused here if `check`, the library's own, refuses it: it
/// is a bad value, a usage error, not a failure of the walk.
fn checked(value: Vec<u8>, check: fn(&[u8]) -> Result<(), Error>) -> Result<Vec<u8>, Exit> {
    check(&value).map_err(|e| Exit::Usage(e.to_string()))?;
    Ok(value)
}

/// An `--env NAME=VALUE` or `--env NAME` value. `--env NAME` takes NAME's value from the
/// process environment, that one name only, and sets nothing when the environment lacks it:
/// the interpolator never reads the environment itself (SPEC.md §5.5). A later value of a
/// NAME replaces an earlier one.
fn set_env(values: &mut HashMap<String, Vec<u8>>, value: Vec<u8>) -> Result<(), Exit> {
    let (name, value) = match value.iter().position(|&b| b == b'=') {
        Some(eq) => (&value[..eq], Some(value[eq + 1..].to_vec())),
        None => (&value[..], None),
    };
    if !agentsmd_core::is_env_name(name) {
        return Err(Exit::Usage(format!(
            "--env needs NAME=VALUE or NAME, NAME matching [A-Za-z_][A-Za-z0-9_]*, not {:?}",
            String::from_utf8_lossy(name)
        )));
    }
    // Checked ASCII just now.
    let name = String::from_utf8_lossy(name).into_owned();
    let value = value.or_else(|| std::env::var_os(&name).map(OsString::into_vec));
    if let Some(value) = value {
        values.insert(name, value);
    }
    Ok(())
}

/// A number of bytes; 0 is the default (the C API's and Go's zero value), as it always was here.
pub fn bytes(flag: &str, value: &[u8]) -> Result<Option<u64>, Exit> {
    number(flag, value, "a number of bytes").map(|n| (n != 0).then_some(n))
}

/// A count of `--import-depth` or `--max-imports`; 0 is the default (SPEC.md §5.4).
fn count(flag: &str, value: &[u8]) -> Result<u32, Exit> {
    number(flag, value, "a count")
}

fn number<T: FromStr>(flag: &str, value: &[u8], what: &str) -> Result<T, Exit> {
    std::str::from_utf8(value)
        .ok()
        .filter(|text| text.bytes().all(|b| b.is_ascii_digit()))
        .and_then(|text| text.parse().ok())
        .ok_or_else(|| {
            Exit::Usage(format!(
                "{flag} needs {what}, not {:?}",
                String::from_utf8_lossy(value)
            ))
        })
}
