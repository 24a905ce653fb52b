// What the package's tests share: the package itself, temporary trees, the command line they
// compare it with (its stdout and its --json, decoded), and a guard against a call that hangs.

import assert from 'node:assert/strict'
import { spawnSync } from 'node:child_process'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { fileURLToPath } from 'node:url'

/** The package's directory, node/. */
export const PACKAGE = fileURLToPath(new URL('..', import.meta.url))

/** The repository, and its test data. */
export const REPO = path.resolve(PACKAGE, '..')
export const TESTDATA = path.join(REPO, 'testdata')

const loaded = await import(path.join(PACKAGE, 'index.js'))

/** The package as a program imports it: what index.js (CommonJS) exports. */
export const agentsmd = loaded.default ?? loaded

/**
 * The command line the package is compared with: $AGENTSMD_CLI, which tests/node.rs sets to the
 * binary its `cargo test` built, or this checkout's debug build.
 */
export const CLI = process.env.AGENTSMD_CLI || path.join(REPO, 'target', 'debug', 'agentsmd')

/**
 * Runs the command line with `args`, in `cwd`; stdout stays bytes. An argument holding a lone
 * surrogate names bytes that are not UTF-8 (`bytesOfText`), which no string argument of
 * child_process can pass: the shell's printf writes those bytes.
 */
export function cli(args, { cwd = REPO, env } = {}) {
  assert.ok(
    fs.existsSync(CLI),
    `no command line at ${CLI}: set AGENTSMD_CLI or run \`cargo build -p agentsmd-cli\``,
  )
  const options = { cwd, env: env ?? process.env, maxBuffer: 1 << 28 }
  const out = args.some((arg) => bytesOfText(arg).toString('utf8') !== arg)
    ? spawnSync('/bin/sh', ['-c', `exec ${[CLI, ...args].map(shellWord).join(' ')}`], options)
    : spawnSync(CLI, args, options)
  if (out.error) throw out.error
  return { status: out.status, stdout: out.stdout, stderr: out.stderr.toString('utf8') }
}

/** `arg` as one word of sh: its bytes, each written by printf in octal. */
function shellWord(arg) {
  const octal = [...bytesOfText(arg)].map((b) => `\\${b.toString(8).padStart(3, '0')}`).join('')
  return `"$(printf '${octal}')"`
}

/** Runs the command line with `args`, which must succeed; returns its stdout (bytes). */
export function cliOk(args, options) {
  const out = cli(args, options)
  assert.equal(out.status, 0, `agentsmd ${args.join(' ')} failed:\n${out.stderr}`)
  return out.stdout
}

/** The command line's --json object for `args` (which must succeed). */
export function cliJson(args, options) {
  return JSON.parse(cliOk([...args, '--json'], options).toString('utf8'))
}

/** The bytes of a lossless JSON string of §7: a string, or `{"bytes": BASE64}`. */
export function jsonBytes(value) {
  if (typeof value === 'string') return Buffer.from(value, 'utf8')
  assert.ok(value && typeof value.bytes === 'string', `not a lossless JSON string: ${value}`)
  return Buffer.from(value.bytes, 'base64')
}

/**
 * A path of the lossless JSON as the package gives it: a UTF-8 path is the same string; a path
 * that is not UTF-8 is `pathFromBytes` of its bytes (the package's documented form).
 */
export function jsonPath(value) {
  return typeof value === 'string' ? value : pathFromBytes(jsonBytes(value))
}

/**
 * The string the package gives for the bytes `bytes` (a path, a name, a message, a block), as
 * node/README.md documents it: UTF-8 decodes as UTF-8; each byte that is not part of a
 * well-formed UTF-8 sequence is the lone surrogate U+DC00 + the byte (PEP 383's
 * "surrogateescape"), so that the same string given back names the same bytes.
 */
export function pathFromBytes(bytes) {
  let out = ''
  let at = 0
  while (at < bytes.length) {
    const len = utf8Sequence(bytes, at)
    if (len === 0) {
      out += String.fromCharCode(0xdc00 + bytes[at])
      at += 1
    } else {
      out += bytes.subarray(at, at + len).toString('utf8')
      at += len
    }
  }
  return out
}

/** The bytes a string of the package names: the inverse of `pathFromBytes`. */
export function bytesOfText(text) {
  const parts = []
  let run = ''
  for (const c of text) {
    const unit = c.charCodeAt(0)
    if (c.length === 1 && unit >= 0xdc80 && unit <= 0xdcff) {
      parts.push(Buffer.from(run, 'utf8'), Buffer.from([unit - 0xdc00]))
      run = ''
    } else {
      run += c
    }
  }
  parts.push(Buffer.from(run, 'utf8'))
  return Buffer.concat(parts)
}

/** The length of the well-formed UTF-8 sequence at `at` in `bytes`, or 0 where there is none. */
function utf8Sequence(bytes, at) {
  const b = bytes[at]
  if (b < 0x80) return 1
  const [len, lo, hi] =
    b >= 0xc2 && b <= 0xdf ? [2, 0x80, 0xbf]
      : b === 0xe0 ? [3, 0xa0, 0xbf]
        : b === 0xed ? [3, 0x80, 0x9f]
          : b >= 0xe1 && b <= 0xef ? [3, 0x80, 0xbf]
            : b === 0xf0 ? [4, 0x90, 0xbf]
              : b >= 0xf1 && b <= 0xf3 ? [4, 0x80, 0xbf]
                : b === 0xf4 ? [4, 0x80, 0x8f]
                  : [0, 0, 0]
  if (len === 0 || at + len > bytes.length) return 0
  if (bytes[at + 1] < lo || bytes[at + 1] > hi) return 0
  for (let i = 2; i < len; i++) if (bytes[at + i] < 0x80 || bytes[at + i] > 0xbf) return 0
  return len
}

/**
 * The command line's arguments for `chain(path, options)`: every option of §1, §5, §9 and §11
 * as its flag. `root` is always given, since the command line's default root is the nearest `.git`.
 */
export function flags(file, options = {}) {
  assert.ok(options.root !== undefined, 'compared runs give the root')
  const args = [file, '--root', options.root]
  for (const name of options.names ?? []) args.push('--name', name)
  for (const extra of options.extra ?? []) args.push('--extra', extra)
  const numbers = {
    maxBytes: '--max-bytes',
    budget: '--budget',
    renderedBudget: '--rendered-budget',
    importDepth: '--import-depth',
    maxImports: '--max-imports',
  }
  for (const [key, flag] of Object.entries(numbers)) {
    if (options[key] !== undefined) args.push(flag, String(options[key]))
  }
  if (options.confine) args.push('--confine')
  for (const dir of options.fragments ?? []) args.push('--fragments', dir)
  for (const rule of options.rules ?? []) args.push('--rules', `${rule.dialect}:${rule.dir}`)
  for (const dir of options.overlays ?? []) args.push('--overlay', dir)
  if (options.imports) args.push('--imports')
  for (const [name, value] of Object.entries(options.env ?? {})) args.push('--env', `${name}=${value}`)
  if (options.nearest) args.push('--nearest')
  if (options.allNames) args.push('--all-names')
  if (options.report) args.push('--explain')
  return args
}

/**
 * A Result of the package as plain data, the same shape as `fromJson` gives: files with their
 * content as a Buffer, omitted, imports, probes, available and warnings.
 */
export function plain(result) {
  return {
    files: result.files.map(({ path, content, source }) => {
      assert.ok(Buffer.isBuffer(content), `the content of ${path} is a Buffer`)
      return { path, content: Buffer.from(content), source }
    }),
    omitted: result.omitted.map(({ path, size, reason, by }) => ({ path, size, reason, by })),
    imports: result.imports.map(({ path, by, line, depth, size, duplicate }) => ({
      path, by, line, depth, size, duplicate,
    })),
    probes: result.probes.map(({ path, source, outcome }) => ({ path, source, outcome })),
    available: result.available.map(({ path, name, description }) => ({ path, name, description })),
    warnings: [...result.warnings],
  }
}

/** The command line's --json object as the package's Result would hold it (see `plain`). */
export function fromJson(object) {
  return {
    files: object.files.map(({ path, content, source }) => ({
      path: jsonPath(path),
      content: jsonBytes(content),
      source,
    })),
    omitted: object.omitted.map(({ path, size, reason, by }) => ({
      path: jsonPath(path),
      size,
      reason,
      by: by === '' ? null : jsonPath(by),
    })),
    imports: (object.imports ?? []).map(({ path, by, line, depth, size, duplicate }) => ({
      path: jsonPath(path), by: jsonPath(by), line, depth, size, duplicate,
    })),
    probes: (object.probes ?? []).map(({ path, source, outcome }) => ({
      path: jsonPath(path), source, outcome,
    })),
    available: (object.available ?? []).map(({ path, name, description }) => ({
      path: jsonPath(path), name, description,
    })),
    warnings: object.warnings ?? [],
  }
}

/**
 * `chain` and `chainSync` at `file` with `options`, held to the command line on the same tree:
 * `renderBytes` of the files is its stdout, and the result is its --json (imports, probes,
 * available and warnings too: empty when their option is off). Returns the result.
 */
export async function sameAsCli(file, options) {
  const args = flags(file, options)
  const sync = agentsmd.chainSync(file, options)
  const async = await agentsmd.chain(file, options)
  assert.deepEqual(plain(async), plain(sync), 'chain and chainSync agree')
  const stdout = cliOk(args)
  const rendered = agentsmd.renderBytes(sync.files)
  assert.ok(Buffer.isBuffer(rendered), 'renderBytes gives a Buffer')
  assert.equal(rendered.toString('latin1'), stdout.toString('latin1'), 'renderBytes is the stdout')
  assert.deepEqual(plain(sync), fromJson(cliJson(args)), 'the result is the --json object')
  return sync
}

/** The CLI's error line for a run that fails (exit 1), without `agentsmd: error: `. */
export function cliError(args) {
  const out = cli(args)
  assert.equal(out.status, 1, `agentsmd ${args.join(' ')} exits 1:\n${out.stderr}`)
  assert.ok(out.stderr.startsWith('agentsmd: error: '), out.stderr)
  return out.stderr.slice('agentsmd: error: '.length).replace(/\n$/, '')
}

/**
 * A new temporary directory holding `files` (relative path → string or Buffer content; a
 * name ending in `/` is a directory), removed after the test `t`. Returns its real path.
 */
export function tempTree(t, files = {}) {
  const dir = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'agentsmd-node-')))
  t.after(() => fs.rmSync(dir, { recursive: true, force: true }))
  writeTree(dir, files)
  return dir
}

/** Writes `files` (see `tempTree`) below `dir`. */
export function writeTree(dir, files) {
  for (const [name, content] of Object.entries(files)) {
    const at = path.join(dir, name)
    if (name.endsWith('/')) {
      fs.mkdirSync(at, { recursive: true })
    } else {
      fs.mkdirSync(path.dirname(at), { recursive: true })
      fs.writeFileSync(at, content)
    }
  }
}

/**
 * `promise`, or a rejection naming `what` when it has not settled within `ms`: a call that
 * hangs fails its test instead of holding the run.
 */
export async function within(ms, what, promise) {
  let timer
  const timeout = new Promise((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what}: no answer within ${ms} ms`)), ms)
  })
  try {
    return await Promise.race([promise, timeout])
  } finally {
    clearTimeout(timer)
  }
}

/**
 * Runs `source`, an ES module importing the package as `agentsmd`, in a child Node process
 * that is killed after `ms`: for a call that could hang the thread or crash the process.
 * Returns what it printed and how it ended.
 */
export function inChild(source, ms = 20000) {
  const prelude =
    `const loaded = await import(${JSON.stringify(path.join(PACKAGE, 'index.js'))});\n` +
    `const agentsmd = loaded.default ?? loaded;\n`
  const out = spawnSync(process.execPath, ['--input-type=module', '-e', prelude + source], {
    cwd: PACKAGE,
    timeout: ms,
    encoding: 'utf8',
  })
  return { status: out.status, signal: out.signal, stdout: out.stdout, stderr: out.stderr }
}

/** Asserts that `fn` throws an AgentsmdError of `kind`, and returns it. */
export function throwsKind(fn, kind) {
  let caught
  assert.throws(fn, (err) => {
    caught = err
    return true
  })
  return checkKind(caught, kind)
}

/** Asserts that `promise` rejects with an AgentsmdError of `kind`, and returns it. */
export async function rejectsKind(promise, kind) {
  let caught
  await assert.rejects(promise, (err) => {
    caught = err
    return true
  })
  return checkKind(caught, kind)
}

function checkKind(err, kind) {
  assert.ok(
    err instanceof agentsmd.AgentsmdError,
    `an AgentsmdError, not ${err?.constructor?.name}: ${err?.stack ?? err}`,
  )
  assert.ok(err instanceof Error, 'an AgentsmdError is an Error')
  assert.equal(err.kind, kind, `kind of: ${err.message}`)
  assert.equal(typeof err.message, 'string')
  assert.ok(err.path === null || typeof err.path === 'string', `path is a string or null: ${err.path}`)
  assert.ok(err.errno === null || typeof err.errno === 'string', `errno is a string or null: ${err.errno}`)
  return err
}

/**
 * `value` as a callback answers it in `mode`: as it is ('sync'), or as a Promise settled on a
 * later turn of the event loop ('async').
 */
export function answerAs(mode, value) {
  return mode === 'async' ? new Promise((resolve) => setTimeout(() => resolve(value), 1)) : value
}

/**
 * A custom file system (§3) over `files` (FS name → string or Buffer; directories are implied),
 * answering as `mode` says: 'sync' returns values, 'async' returns Promises settled on a later
 * turn of the event loop. `calls` records each question asked, as `op name`.
 */
export function memoryFs(files, mode = 'sync') {
  const contents = new Map(Object.entries(files).map(([name, c]) => [name, Buffer.from(c)]))
  const dirs = new Set(['.'])
  for (const name of contents.keys()) {
    for (let dir = path.posix.dirname(name); dir !== '.'; dir = path.posix.dirname(dir)) dirs.add(dir)
  }
  const answer = (value) => answerAs(mode, value)
  const calls = []
  return {
    calls,
    list(dir) {
      calls.push(`list ${dir}`)
      if (!dirs.has(dir)) return answer(null)
      const prefix = dir === '.' ? '' : `${dir}/`
      const names = new Set()
      for (const name of [...contents.keys(), ...dirs]) {
        if (name !== '.' && name.startsWith(prefix) && name.length > prefix.length) {
          names.add(name.slice(prefix.length).split('/')[0])
        }
      }
      return answer([...names])
    },
    stat(name) {
      calls.push(`stat ${name}`)
      if (contents.has(name)) return answer({ kind: 'file', size: contents.get(name).length })
      return answer(dirs.has(name) ? { kind: 'dir', size: 0 } : null)
    },
    read(name, limit) {
      calls.push(`read ${name} ${limit}`)
      const content = contents.get(name)
      return answer(content === undefined ? null : Buffer.from(content.subarray(0, limit)))
    },
  }
}
