//! The package's types that no export's own conversion spells: the options, the custom file
//! system and the words of a result. napi-rs writes them into index.d.ts, the package's
//! published types, from these items and their doc comments, beside the exports' (chain.rs,
//! structure.rs, …). The option structs are declarations only (neither direction of napi's
//! conversion is derived): options.rs and input.rs read the options themselves, field by
//! field, so that a getter or a Proxy that throws is an error of the call's and no option is
//! read twice. Where a field's type is a TypeScript one, `ts_type` spells it and the Rust type
//! only says whether it is optional. What TypeScript alone can say (the error class, a union
//! of object shapes, `ParseOptions` extending `Options`) is in index.header.d.ts, which heads
//! the generated file.

use napi_derive::napi;

/// The options of `chain` (SPEC.md §1, §5, §9, §11 and §12). Every field is optional, and
/// `undefined`, `null`, `0`, `''` and `[]` are each the field's default, as in every other
/// binding.
#[napi(object, object_from_js = false, object_to_js = false)]
#[allow(dead_code)] // A declaration only: never built (above).
pub struct Options {
    /// File names looked for in each directory, in order of preference; a name may be several
    /// `/`-separated elements (`.claude/CLAUDE.md`, §9). Default `['AGENTS.md']`.
    #[napi(ts_type = "ReadonlyArray<string>")]
    pub names: Option<()>,
    /// The directory the walk stops after: an OS path, or a name in `fs`. Default: the file
    /// system's root (`/`, or `.` with `fs`).
    #[napi(ts_type = "string")]
    pub root: Option<()>,
    /// OS paths included before the chain, in order; missing ones are skipped.
    #[napi(ts_type = "ReadonlyArray<string>")]
    pub extra: Option<()>,
    /// The most one file may read; more is a `TooLarge` error. Default 1 MiB.
    #[napi(js_name = "maxBytes", ts_type = "number")]
    pub max_bytes: Option<()>,
    /// Total bytes of the files returned; the first file over it, and every later one, are omitted `over_budget`. Default: none.
    #[napi(ts_type = "number")]
    pub budget: Option<()>,
    /// Total bytes of `render`'s output, spent as `budget` is. Default: none.
    #[napi(js_name = "renderedBudget", ts_type = "number")]
    pub rendered_budget: Option<()>,
    /// Open nothing outside `root` (OS only): a symbolic link leading out is omitted as
    /// `escapes`. A root of `/` is an `InvalidArgument` error.
    #[napi(ts_type = "boolean")]
    pub confine: Option<()>,
    /// A custom file system (SPEC.md §3); `path` and `root` are then names in it.
    #[napi(ts_type = "FileSystem")]
    pub fs: Option<()>,
    /// Fragment directories relative to each directory of the walk, e.g. `.agents/AGENTS.d` (§5.2).
    #[napi(ts_type = "ReadonlyArray<string>")]
    pub fragments: Option<()>,
    /// OS directories looked up after the walk, each as one more directory (§5.3); see `overlayDir`.
    #[napi(ts_type = "ReadonlyArray<string>")]
    pub overlays: Option<()>,
    /// Expand `@include P` and `@P` directives (§5.4), listed in `Result.imports`.
    #[napi(ts_type = "boolean")]
    pub imports: Option<()>,
    /// How deep imports may nest. Default 5.
    #[napi(js_name = "importDepth", ts_type = "number")]
    pub import_depth: Option<()>,
    /// The most import reads of one chain. Default 64.
    #[napi(js_name = "maxImports", ts_type = "number")]
    pub max_imports: Option<()>,
    /// The interpolator (§5.5): each `${env:NAME}` whose NAME is a key is replaced by its value.
    /// It never reads the process environment. A transform of its own: not with `transform`.
    #[napi(ts_type = "Readonly<Record<string, string>>")]
    pub env: Option<()>,
    /// Given each file of the result that is read, with its path and its content after imports
    /// are expanded, returns the content to use (§5.5); the bounds count what it returns. A throw
    /// is the chain's `Fs` error. With `chain`, it may return a Promise.
    #[napi(
        ts_type = "(path: string, content: Buffer) => Buffer | string | Promise<Buffer | string>"
    )]
    pub transform: Option<()>,
    /// Of the directories' files, only the nearest is included; the others are omitted `superseded` (§5.6).
    #[napi(ts_type = "boolean")]
    pub nearest: Option<()>,
    /// Every name of `names` a directory has is included, in `names` order, none shadowing
    /// another (§9).
    #[napi(js_name = "allNames", ts_type = "boolean")]
    pub all_names: Option<()>,
    /// Rule directories (§11), e.g. `{ dialect: 'cursor', dir: '.cursor/rules' }`: rule files
    /// that apply always, when the path matches their globs (source `rule`, after each
    /// directory's file and fragments), or on request (listed in `Result.available`). An unknown
    /// dialect or an invalid `dir` is an `InvalidArgument` error.
    #[napi(ts_type = "ReadonlyArray<RuleDir>")]
    pub rules: Option<()>,
    /// The product whose loading the chain reproduces (SPEC.md §12), at its pinned version: the
    /// files it loads, in its order and with its text, every file it drops, cuts or leaves
    /// unread in `omitted` (`empty`, `truncated`, …), and in `Result.rendered` the piece of what
    /// it sends its model that holds them. The product finds its own root; `root`, when given,
    /// is that root. An unknown name is an `InvalidArgument` error.
    #[napi(ts_type = "Preset")]
    pub preset: Option<()>,
    /// The home directory a preset reads the product's global files in (`~/.codex/AGENTS.md`,
    /// …); with it, no environment variable (`HOME`, `CODEX_HOME`, …) is read. Default: the
    /// caller's home and the product's environment variables.
    #[napi(ts_type = "string")]
    pub home: Option<()>,
    /// List every place looked at in `Result.probes` (§5.7).
    #[napi(ts_type = "boolean")]
    pub report: Option<()>,
    /// Aborts `chain`, `parse` or `parseNearest` (Node's convention): the call rejects with an
    /// `AgentsmdError` of kind `Aborted`. The synchronous calls do not read it: nothing can abort
    /// them while they hold the thread.
    #[napi(ts_type = "AbortSignal")]
    pub signal: Option<()>,
}

/// A rule directory of `Options.rules` (SPEC.md §11).
#[napi(object, object_from_js = false, object_to_js = false)]
#[allow(dead_code)] // A declaration only, as `Options`.
pub struct RuleDir {
    /// How its files read, and where it is looked up: below the root (`claude`, `copilot`,
    /// `kiro`, `cline`) or below each directory of the walk (`cursor`, `windsurf`).
    #[napi(ts_type = "Dialect")]
    pub dialect: (),
    /// One or more `/`-separated path elements, e.g. `.cursor/rules`.
    #[napi(ts_type = "string")]
    pub dir: (),
}

/// The product whose rule files a rule directory holds (SPEC.md §11's table).
#[napi(string_enum)]
pub enum Dialect {
    #[napi(value = "claude")]
    Claude,
    #[napi(value = "cursor")]
    Cursor,
    #[napi(value = "copilot")]
    Copilot,
    #[napi(value = "windsurf")]
    Windsurf,
    #[napi(value = "kiro")]
    Kiro,
    #[napi(value = "cline")]
    Cline,
}

/// A product a preset reproduces (SPEC.md §12), as `agentsmd --as list` names it.
#[napi(string_enum)]
pub enum Preset {
    #[napi(value = "codex")]
    Codex,
    #[napi(value = "opencode")]
    Opencode,
    #[napi(value = "pi")]
    Pi,
    #[napi(value = "goose")]
    Goose,
    #[napi(value = "zed")]
    Zed,
    #[napi(value = "gemini")]
    Gemini,
    #[napi(value = "claude")]
    Claude,
    #[napi(value = "cline")]
    Cline,
    #[napi(value = "roo")]
    Roo,
    #[napi(value = "cursor")]
    Cursor,
    #[napi(value = "copilot")]
    Copilot,
    #[napi(value = "windsurf")]
    Windsurf,
    #[napi(value = "amp")]
    Amp,
}

/// The options of a session's `touch`.
#[napi(object, object_from_js = false, object_to_js = false)]
#[allow(dead_code)] // A declaration only, as `Options`.
pub struct TouchOptions {
    /// Aborts the touch (Node's convention): it rejects with an `AgentsmdError` of kind
    /// `Aborted`, and the session is as it was before it.
    #[napi(ts_type = "AbortSignal")]
    pub signal: Option<()>,
}

/// A custom file system (SPEC.md §3). Names are `/`-separated and relative, `.` for the root,
/// as Go's `fs.ValidPath` has them. Each method answers `null` for "not found", which alone
/// means "no file", and throws for any other failure: the chain's `Fs` error, with the thrown
/// message (and its `code`, e.g. `'EACCES'`, as the error's `errno`). Methods are called with
/// the object as `this`. With `chain` each may return a Promise; with `chainSync` none may.
///
/// **Batches.** A file system where one call costs about as much as many questions — one across
/// a network, where each call is a round trip — also has `readDirs` and `readFiles`, and a chain
/// then asks in batches: one `readDirs` for every directory it lists (each directory of the walk
/// and each fragment directory), one `readFiles` for the files it reads (under a budget, a new
/// one wherever the files read so far decide whether the next fits), and one more `readFiles`
/// per level of imports. A listing names everything in its directory: a name it does not list
/// is not there (but for an import's target, which is asked of `stat`). The result is the one the
/// single questions give. Either may be left out: its questions are then asked one name at a
/// time (`list`, `read`). A batch answers one element per name asked, in order; a throw fails
/// the whole batch, and the chain.
#[napi(object, object_from_js = false, object_to_js = false)]
#[allow(dead_code)] // A declaration only: never built (above).
pub struct FileSystem {
    /// The names `dir` lists, in any order.
    #[napi(ts_type = "(dir: string) => Answer<ReadonlyArray<string> | null>")]
    pub list: (),
    /// What `name` is, following links: a regular file with its size, a directory, or anything else.
    #[napi(
        ts_type = "(name: string) => Answer<{ kind: 'file' | 'dir' | 'other'; size: number } | null>"
    )]
    pub stat: (),
    /// The bytes of the file `name`: the library uses at most `limit` of them (`maxBytes + 1`).
    #[napi(ts_type = "(name: string, limit: number) => Answer<Buffer | null>")]
    pub read: (),
    /// Lists each of `names`, as `list` does but saying what each entry is: per name, its entries,
    /// or `null` where there is no such directory (nothing, or no directory, has that name). The
    /// library may ask a name that is a file. An entry's `kind` is what `stat` would answer,
    /// `'file'` with its `size`; `'link'` (a symbolic link) or no `kind` means the listing does
    /// not say, and the library asks `stat` of that name when it needs to know.
    #[napi(
        js_name = "readDirs",
        ts_type = "(names: string[]) => Answer<ReadonlyArray<ReadonlyArray<ListedEntry> | null>>"
    )]
    pub read_dirs: Option<()>,
    /// Reads each of `names`, as `read` does: per name, its bytes (the library uses at most
    /// `limit` of them, `maxBytes + 1`), or `null` where it is not found or is no regular file.
    #[napi(
        js_name = "readFiles",
        ts_type = "(names: string[], limit: number) => Answer<ReadonlyArray<Uint8Array | null>>"
    )]
    pub read_files: Option<()>,
}

/// The options of `block` (SPEC.md §6.3).
#[napi(object, object_from_js = false, object_to_js = false)]
#[allow(dead_code)] // A declaration only: never built (above).
pub struct BlockOptions {
    /// The most bytes of the block, its warning line aside. Default 8192; under 2048 is raised to 2048.
    #[napi(ts_type = "number")]
    pub cap: Option<()>,
    /// The first line. Default `# Repository Agent Instructions (AGENTS.md)`; `''` is kept as given.
    #[napi(ts_type = "string")]
    pub heading: Option<()>,
    /// A paragraph after the heading. Default none.
    #[napi(ts_type = "string")]
    pub preamble: Option<()>,
    /// The file's name in the warning. Default: the base name of the parsed file, else `AGENTS.md`.
    #[napi(ts_type = "string")]
    pub name: Option<()>,
    /// Where the full file is, in the warning. Default: the parsed file's path, else `name`.
    #[napi(js_name = "where", ts_type = "string")]
    pub location: Option<()>,
}

/// Where a file of the result comes from (§5.1).
#[napi(string_enum)]
pub enum Source {
    #[napi(value = "extra")]
    Extra,
    #[napi(value = "chain")]
    Chain,
    #[napi(value = "fragment")]
    Fragment,
    #[napi(value = "overlay")]
    Overlay,
    #[napi(value = "rule")]
    Rule,
}

/// Why a file found was left out: the words of the command line's `--json` (§7).
#[napi(string_enum)]
pub enum Reason {
    #[napi(value = "over_budget")]
    OverBudget,
    #[napi(value = "shadowed")]
    Shadowed,
    #[napi(value = "escapes")]
    Escapes,
    #[napi(value = "duplicate")]
    Duplicate,
    #[napi(value = "superseded")]
    Superseded,
    #[napi(value = "empty")]
    Empty,
    #[napi(value = "truncated")]
    Truncated,
}

/// What a probe found (§5.7).
#[napi(string_enum)]
pub enum Outcome {
    #[napi(value = "included")]
    Included,
    #[napi(value = "shadowed")]
    Shadowed,
    #[napi(value = "over_budget")]
    OverBudget,
    #[napi(value = "superseded")]
    Superseded,
    #[napi(value = "duplicate")]
    Duplicate,
    #[napi(value = "escapes")]
    Escapes,
    #[napi(value = "not_found")]
    NotFound,
    #[napi(value = "not_a_file")]
    NotAFile,
    #[napi(value = "listed")]
    Listed,
    #[napi(value = "imported")]
    Imported,
    #[napi(value = "not_matched")]
    NotMatched,
    #[napi(value = "available")]
    Available,
    #[napi(value = "empty")]
    Empty,
    #[napi(value = "truncated")]
    Truncated,
}

/// Where a resolved skill was found (§6.2): its inline `## Skill: NAME` section, or `skills/NAME.md`.
#[napi(string_enum)]
pub enum SkillSource {
    #[napi(value = "inline")]
    Inline,
    #[napi(value = "file")]
    File,
}

/// What failed: the kinds of SPEC.md §4 (error.rs names them), see `AgentsmdError`.
#[napi(string_enum)]
pub enum ErrorKind {
    InvalidArgument,
    TooLarge,
    Io,
    Fs,
    Import,
    Panic,
    Aborted,
}
