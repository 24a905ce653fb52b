/* The package's types: written by napi-rs (`napi build --dts index.d.ts`) from the addon's Rust
 * items and their doc comments (node/src), after this header, which holds what TypeScript
 * alone can say. Do not edit index.d.ts: edit node/src or node/index.header.d.ts. */
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

/**
 * Every failure of the package (index.js).
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
export declare class AgentsmdError extends Error {
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
 * One entry of a directory that `FileSystem.readDirs` lists: its name (one path element) and
 * what it is, following links, as `stat` would answer — a regular file with its size in bytes (a
 * whole number), a directory, anything else — or `'link'` (a symbolic link), or no `kind`, where
 * the listing does not say.
 */
export type ListedEntry =
  | { name: string; kind: 'file'; size: number }
  | { name: string; kind?: 'dir' | 'other' | 'link'; size?: number }

