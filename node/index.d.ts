/// <reference types="node" />

/**
 * agentsmd: the AGENTS.md convention for coding agents. `chain` finds the instruction files
 * that apply at a path — one per directory, from a root down to the path's directory, nearest
 * last so the nearest wins — bounds them, and reports every file it found and left out;
 * `render` turns them into the exact text a product puts in its model's prompt. The package is
 * a native addon on the Rust core; SPEC.md in the repository is the behaviour of record.
 *
 * **Paths are strings.** A path that is not UTF-8 (Unix paths are bytes) keeps its bytes: each
 * byte that is not part of a well-formed UTF-8 sequence is the lone surrogate U+DC00 + the byte
 * (U+DC80..U+DCFF, PEP 383's "surrogateescape"), and such a string given back names the same
 * bytes. Every byte string the package returns as a string follows this rule (paths, names,
 * messages, `render`'s output, a block), and so does every string it takes where bytes are
 * meant; any other lone surrogate in a string is an `InvalidArgument` error. `pathToBytes` and
 * `pathFromBytes` convert.
 *
 * **Errors.** Everything the package throws, or rejects a promise with, is an `AgentsmdError`.
 */

/** The identifier of the one instructions part `render` produces. */
export const PART_ID: 'agentsmd'

/**
 * The instruction files that apply at `path` (SPEC.md §1, §5), found off the main thread.
 * The promise rejects with an `AgentsmdError`. The callbacks of `options.fs` and
 * `options.transform` are called on the main thread, and may return a Promise; a call with
 * callbacks runs on one of at most `CALLBACK_THREADS` threads of the addon's, and waits for one
 * when all are taken (it never fails for lack of one). A callback's pending Promise never keeps
 * the process alive by itself, as a pending Promise does not. `options.signal` aborts the call:
 * the promise rejects with an `AgentsmdError` of kind `Aborted` (the signal's reason its
 * `cause`), and what the call held is released.
 */
export function chain(path: string, options?: Options): Promise<Result>

/**
 * How many threads of the addon's run the async calls that have callbacks, at most: more calls
 * wait for one of them. A callback that awaits another call with callbacks holds its thread
 * meanwhile, so that nesting as deep as `CALLBACK_THREADS` in every thread at once would wait
 * for ever.
 */
export const CALLBACK_THREADS: number

/**
 * `chain` on the calling thread. The callbacks of `options.fs` and `options.transform` must
 * answer a value: one that returns a Promise fails the call (an `AgentsmdError` of kind `Fs`),
 * as it could never settle while the call holds the thread.
 */
export function chainSync(path: string, options?: Options): Result

/**
 * The rendering (SPEC.md §2) of `files` — a `Result`'s, or a product's own with rewritten
 * paths — as a string: `<project_context>`, one `<project_instructions path="…">` element per
 * file, with only `&`, `<`, `>` and `"` of the path escaped. No files render as `''`. A content
 * that is not UTF-8 keeps its bytes as lone surrogates; `renderBytes` gives the bytes.
 */
export function render(files: ReadonlyArray<{ path: string; content: Buffer | string }>): string

/** The rendering of `files`, byte for byte what the command line prints. */
export function renderBytes(files: ReadonlyArray<{ path: string; content: Buffer | string }>): Buffer

/**
 * Seed 003's per-caller overlay directory, `USERS_DIR/IDENTITY/.agents` (SPEC.md §5.3), to
 * give in `overlays`; `null` when either argument is empty (no overlay, no error). An identity
 * that is `.` or holds `/`, `\`, a NUL or `..` is an `InvalidArgument` error whose message
 * contains `caller identity`.
 */
export function overlayDir(usersDir: string, identity: string): string | null

/**
 * The file at `path` parsed (SPEC.md §6.1) and its requested skills resolved (§6.2): each to
 * its inline `## Skill: NAME` section, else to `skills/NAME.md` beside it. Both are read
 * through the options' file system (`fs`, else the OS, beneath `root` when `confine` is on), at
 * most `maxBytes` each. `path` must be a regular file.
 */
export function parse(path: string, options?: ParseOptions): Promise<Document>

/**
 * `text` parsed (SPEC.md §6.1): text of no file, so only inline skills resolve. Malformed
 * front matter is a warning, never an error.
 */
export function parseText(text: Buffer | string, options?: ParseOptions): Document

/**
 * The document of the nearest file of the chain at `path` (SPEC.md §6.5): `chain` with
 * `nearest` on and `extra` ignored, then `parse` of its last file of source `chain`, its
 * skills resolved beside it. `null` when no directory of the walk has a file, or the nearest
 * one is over a budget.
 */
export function parseNearest(path: string, options?: ParseOptions): Promise<Document | null>

/**
 * The bounded rendering of `doc` (SPEC.md §6.3): its body's sections, then its skills, kept
 * whole while they fit `cap`, with one warning line saying what was dropped and where the full
 * file is. `doc` must come from `parse`, `parseText` or `parseNearest`. A heading and preamble
 * longer than the cap are an `InvalidArgument` error.
 */
export function block(doc: Document, options?: BlockOptions): Block

/** The bytes `path` names (the rule above): for `node:fs`, which takes a Buffer as a path. */
export function pathToBytes(path: string): Buffer

/** The string of the path whose bytes are `bytes` (the rule above). */
export function pathFromBytes(bytes: Uint8Array): string

/** What failed: the kinds of SPEC.md §4. */
export type ErrorKind = 'InvalidArgument' | 'TooLarge' | 'Io' | 'Fs' | 'Import' | 'Panic' | 'Aborted'

/**
 * Every failure of the package.
 *
 * - `InvalidArgument`: a bad argument or option (a name that is not one path element, a path
 *   outside `root`, an invalid name of a custom file system, a value of the wrong type).
 * - `TooLarge`: a file read more than `maxBytes`; `path` is the file.
 * - `Io`: the OS failed; `errno` is its name.
 * - `Fs`: a callback of `fs` or `transform` threw (the message holds what it threw), answered
 *   what it may not, or — with `chainSync` — answered a Promise.
 * - `Import`: an import directive could not be expanded (SPEC.md §5.4); the message starts
 *   `PATH:LINE: `.
 * - `Panic`: a bug in the addon, caught; Node carries on.
 * - `Aborted`: `options.signal` aborted the call; `cause` is the signal's reason.
 *
 * A throw while the options are read (a getter, a Proxy) is an `InvalidArgument` error whose
 * `cause` is what was thrown.
 */
export class AgentsmdError extends Error {
  constructor(
    message: string,
    fields: { kind: ErrorKind; path?: string | null; errno?: string | null; cause?: unknown },
  )
  name: 'AgentsmdError'
  /** What failed. */
  kind: ErrorKind
  /**
   * The path the failure concerns, when there is one; for a failure met expanding an import,
   * the file holding the directive.
   */
  path: string | null
  /**
   * The errno name of the OS error beneath the failure, as `node:fs` names `err.code`
   * (`'ENOENT'`, `'EACCES'`): a Unix error code named by Node's own table; on Windows, the
   * name of the kind of error its code maps to. For a callback's throw, the thrown `code` when
   * it is such a name. `null` otherwise.
   */
  errno: string | null
}

/**
 * The options of `chain` (SPEC.md §1 and §5). Every field is optional, and `undefined`, `null`,
 * `0`, `''` and `[]` are each the field's default, as in every other binding.
 */
export interface Options {
  /** File names looked for in each directory, in order of preference; each one path element. Default `['AGENTS.md']`. */
  names?: ReadonlyArray<string>
  /**
   * The directory the walk stops after: an OS path, or a name in `fs`. Default: the file
   * system's root (`/`, or `.` with `fs`).
   */
  root?: string
  /** OS paths included before the chain, in order; missing ones are skipped. */
  extra?: ReadonlyArray<string>
  /** The most one file may read; more is a `TooLarge` error. Default 1 MiB. */
  maxBytes?: number
  /** Total bytes of the files returned; the first file over it, and every later one, are omitted `over_budget`. Default: none. */
  budget?: number
  /** Total bytes of `render`'s output, spent as `budget` is. Default: none. */
  renderedBudget?: number
  /**
   * Open nothing outside `root` (OS only): a symbolic link leading out is omitted as
   * `escapes`. A root of `/` is an `InvalidArgument` error.
   */
  confine?: boolean
  /** A custom file system (SPEC.md §3); `path` and `root` are then names in it. */
  fs?: FileSystem
  /** Fragment directories relative to each directory of the walk, e.g. `.agents/AGENTS.d` (§5.2). */
  fragments?: ReadonlyArray<string>
  /** OS directories looked up after the walk, each as one more directory (§5.3); see `overlayDir`. */
  overlays?: ReadonlyArray<string>
  /** Expand `@include P` and `@P` directives (§5.4), listed in `Result.imports`. */
  imports?: boolean
  /** How deep imports may nest. Default 5. */
  importDepth?: number
  /** The most import reads of one chain. Default 64. */
  maxImports?: number
  /**
   * The interpolator (§5.5): each `${env:NAME}` whose NAME is a key is replaced by its value.
   * It never reads the process environment. A transform of its own: not with `transform`.
   */
  env?: Readonly<Record<string, string>>
  /**
   * Given each file of the result that is read, with its path and its content after imports
   * are expanded, returns the content to use (§5.5); the bounds count what it returns. A throw
   * is the chain's `Fs` error. With `chain`, it may return a Promise.
   */
  transform?: (path: string, content: Buffer) => Buffer | string | Promise<Buffer | string>
  /** Of the directories' files, only the nearest is included; the others are omitted `superseded` (§5.6). */
  nearest?: boolean
  /** List every place looked at in `Result.probes` (§5.7). */
  report?: boolean
  /**
   * Aborts `chain`, `parse` or `parseNearest` (Node's convention): the call rejects with an
   * `AgentsmdError` of kind `Aborted`. The synchronous calls do not read it: nothing can abort
   * them while they hold the thread.
   */
  signal?: AbortSignal
}

/**
 * The options of `parse`, `parseText` and `parseNearest`: a chain's, and the skills. `parse` and
 * `parseText` read the file and its skill files with `fs`, `root`, `confine` and `maxBytes`
 * alone; `parseNearest` finds the nearest file with a chain of every option.
 */
export interface ParseOptions extends Options {
  /** The skill names requested instead of the front matter's, in order; `[]` requests none. */
  skills?: ReadonlyArray<string>
}

/** A value, or (with `chain`) a Promise of it. */
export type Answer<T> = T | Promise<T>

/**
 * A custom file system (SPEC.md §3). Names are `/`-separated and relative, `.` for the root,
 * as Go's `fs.ValidPath` has them. Each method answers `null` for "not found", which alone
 * means "no file", and throws for any other failure: the chain's `Fs` error, with the thrown
 * message (and its `code`, e.g. `'EACCES'`, as the error's `errno`). Methods are called with
 * the object as `this`. With `chain` each may return a Promise; with `chainSync` none may.
 *
 * **Batches.** A file system where one call costs about as much as many questions — one across
 * a network, where each call is a round trip — also has `readDirs` and `readFiles`, and a chain
 * then asks in batches: one `readDirs` for every directory it lists (each directory of the walk
 * and each fragment directory), one `readFiles` for the files it reads (under a budget, a new
 * one wherever the files read so far decide whether the next fits), and one more `readFiles`
 * per level of imports. A listing names everything in its directory: a name it does not list
 * is not there (but for an import's target, which is asked of `stat`). The result is the one the
 * single questions give. Either may be left
 * out: its questions are then asked one name at a time (`list`, `read`). A batch answers one
 * element per name asked, in order; a throw fails the whole batch, and the chain.
 */
export interface FileSystem {
  /** The names `dir` lists, in any order. */
  list(dir: string): Answer<ReadonlyArray<string> | null>
  /** What `name` is, following links: a regular file with its size, a directory, or anything else. */
  stat(name: string): Answer<{ kind: 'file' | 'dir' | 'other'; size: number } | null>
  /** The bytes of the file `name`: the library uses at most `limit` of them (`maxBytes + 1`). */
  read(name: string, limit: number): Answer<Buffer | null>
  /**
   * Lists each of `names`, as `list` does but saying what each entry is: per name, its entries,
   * or `null` where there is no such directory (nothing, or no directory, has that name). The
   * library may ask a name that is a file. An entry's `kind` is what `stat` would answer,
   * `'file'` with its `size`; `'link'` (a symbolic link) or no `kind` means the listing does
   * not say, and the library asks `stat` of that name when it needs to know.
   */
  readDirs?(names: string[]): Answer<ReadonlyArray<ReadonlyArray<ListedEntry> | null>>
  /**
   * Reads each of `names`, as `read` does: per name, its bytes (the library uses at most
   * `limit` of them, `maxBytes + 1`), or `null` where it is not found or is no regular file.
   */
  readFiles?(names: string[], limit: number): Answer<ReadonlyArray<Uint8Array | null>>
}

/**
 * One entry of a directory that `FileSystem.readDirs` lists: its name (one path element) and
 * what it is, following links, as `stat` would answer — a regular file with its size in bytes (a
 * whole number), a directory, anything else — or `'link'` (a symbolic link), or no `kind`, where
 * the listing does not say.
 */
export type ListedEntry =
  | { name: string; kind: 'file'; size: number }
  | { name: string; kind?: 'dir' | 'other' | 'link'; size?: number }

/** Where a file of the result comes from (§5.1). */
export type Source = 'extra' | 'chain' | 'fragment' | 'overlay'

/** Why a file found was left out: the words of the command line's `--json` (§7). */
export type Reason = 'over_budget' | 'shadowed' | 'escapes' | 'duplicate' | 'superseded'

/** What a probe found (§5.7). */
export type Outcome =
  | 'included'
  | 'shadowed'
  | 'over_budget'
  | 'superseded'
  | 'duplicate'
  | 'escapes'
  | 'not_found'
  | 'not_a_file'
  | 'listed'
  | 'imported'

/** What `chain` found: the fields of the command line's `--json` (§7). */
export interface Result {
  /** The files that apply, in order: `extra`, then root to the path's directory (nearest last), then the overlays. */
  files: File[]
  /** Every file found and left out, in the order met. */
  omitted: Omitted[]
  /** With `imports`: each directive expanded into a file of the result, in the order met; else empty. */
  imports: Import[]
  /** With `report`: every place looked at, in order; else empty. */
  probes: Probe[]
}

/** One instruction file. */
export interface File {
  /** Its absolute OS path, or its name in `fs`. */
  path: string
  /** Its bytes, as read (imports expanded, transformed). */
  content: Buffer
  source: Source
}

/** A file found and left out. */
export interface Omitted {
  /** Its path, the stable key of the file. */
  path: string
  /** The bytes read, for a file read and then left over budget; 0 for `escapes`; else the size reported. */
  size: number
  reason: Reason
  /** The file that took its place (`shadowed`, `superseded`, `duplicate`); `null` otherwise. */
  by: string | null
}

/** One import directive expanded (§5.4). */
export interface Import {
  /** The target. */
  path: string
  /** The file holding the directive. */
  by: string
  /** The directive's line in `by`, 1-based. */
  line: number
  /** The target's depth: 1 for a directive of a file of the result. */
  depth: number
  /** The bytes read from the target; 0 for a duplicate. */
  size: number
  /** The target was already in the result, so the directive expanded to nothing. */
  duplicate: boolean
}

/** One place looked at (§5.7). */
export interface Probe {
  path: string
  source: Source
  outcome: Outcome
}

/**
 * One parsed instruction file (SPEC.md §6): the fields of `agentsmd structure --json`. It also
 * holds, out of sight, what `block` renders: only the Document these functions return renders.
 */
export interface Document {
  /** The skill names requested (the options' `skills`, else the front matter's), repeats removed. */
  requested: string[]
  /** The requested skills that resolved, in request order. */
  skills: Array<{ name: string; source: 'inline' | 'file' }>
  /** The requested names that nothing defines: reported, not an error. */
  unknown: string[]
  /** What was not what it looked like, said rather than failed on (`line N: …`). */
  warnings: string[]
}

/** The options of `block` (SPEC.md §6.3). */
export interface BlockOptions {
  /** The most bytes of the block, its warning line aside. Default 8192; under 2048 is raised to 2048. */
  cap?: number
  /** The first line. Default `# Repository Agent Instructions (AGENTS.md)`; `''` is kept as given. */
  heading?: string
  /** A paragraph after the heading. Default none. */
  preamble?: string
  /** The file's name in the warning. Default: the base name of the parsed file, else `AGENTS.md`. */
  name?: string
  /** Where the full file is, in the warning. Default: the parsed file's path, else `name`. */
  where?: string
}

/** A bounded rendering. */
export interface Block {
  /** The text to put in the prompt; `''` when the document has no section and resolved no skill. */
  block: string
  /** The units left out, in order: a section's title, `(preamble)` or `skill: NAME`, and its rendered length. */
  dropped: Array<{ title: string; bytes: number }>
}

