// Every error kind of SPEC.md §4 reaches JavaScript as an AgentsmdError with its kind, path and
// errno, from chainSync and from chain alike, in the command line's words where it has them:
// InvalidArgument, TooLarge, Io, Fs, Import, and Panic (through the test build's __testPanic).

import assert from 'node:assert/strict'
import fs from 'node:fs'
import path from 'node:path'
import { test } from 'node:test'

import { agentsmd, cliError, flags, inChild, memoryFs, rejectsKind, tempTree, throwsKind } from './support.mjs'

/**
 * `chainSync` and `chain` at `file` with `options` both fail with an AgentsmdError of `kind`;
 * when `cli` is true, its message holds the command line's error line for the same run. Returns
 * the error.
 */
async function fails(file, options, kind, { cli = true } = {}) {
  const err = throwsKind(() => agentsmd.chainSync(file, options), kind)
  const rejected = await rejectsKind(agentsmd.chain(file, options), kind)
  assert.equal(rejected.message, err.message)
  assert.equal(rejected.path, err.path)
  assert.equal(rejected.errno, err.errno)
  if (cli) {
    const said = cliError(flags(file, options))
    assert.ok(err.message.includes(said), `${err.message}\ndoes not hold the command line's\n${said}`)
  }
  return err
}

test('AgentsmdError is an exported Error class', () => {
  assert.equal(typeof agentsmd.AgentsmdError, 'function')
  assert.ok(agentsmd.AgentsmdError.prototype instanceof Error)
})

test('InvalidArgument: a bad name, before any I/O', async () => {
  for (const name of ['a//b', '/a', 'a/', '', '.', '..', 'a\0b']) {
    const fs = memoryFs({ 'AGENTS.md': 'x' })
    const err = await fails('.', { fs, names: [name] }, 'InvalidArgument', { cli: false })
    assert.equal(err.errno, null)
    assert.deepEqual(fs.calls, [])
  }
})

test('InvalidArgument: a path outside root', async (t) => {
  const dir = tempTree(t, { 'a/': '' })
  const err = await fails(dir, { root: path.join(dir, 'a') }, 'InvalidArgument')
  assert.equal(err.errno, null)
})

test('InvalidArgument: a path longer than 4096 bytes', async (t) => {
  const dir = tempTree(t)
  await fails(path.join(dir, 'x'.repeat(4100)), { root: dir }, 'InvalidArgument')
})

test('InvalidArgument: confine with the root /', async () => {
  await fails('/tmp', { root: '/', confine: true }, 'InvalidArgument', { cli: false })
})

test('InvalidArgument: an extra file that is a directory, an overlay that is a file', async (t) => {
  const dir = tempTree(t, { 'AGENTS.md': 'root\n', 'file.md': 'x\n', 'sub/': '' })
  const extra = await fails(dir, { root: dir, extra: [path.join(dir, 'sub')] }, 'InvalidArgument')
  assert.ok(extra.message.includes(path.join(dir, 'sub')))
  await fails(dir, { root: dir, overlays: [path.join(dir, 'file.md')] }, 'InvalidArgument')
})

test('InvalidArgument: an invalid fragment directory', async (t) => {
  const dir = tempTree(t, { 'AGENTS.md': 'root\n' })
  for (const fragments of [['../up'], ['/abs'], ['a//b'], ['']]) {
    await fails(dir, { root: dir, fragments }, 'InvalidArgument', { cli: false })
  }
})

test('InvalidArgument: an argument of the wrong type, named, never a TypeError', () => {
  const calls = {
    'a path that is no string': () => agentsmd.chainSync(42),
    'no path': () => agentsmd.chainSync(),
    'options that are no object': () => agentsmd.chainSync('/tmp', 5),
    'names as a string': () => agentsmd.chainSync('/tmp', { root: '/tmp', names: 'AGENTS.md' }),
    'a negative maxBytes': () => agentsmd.chainSync('/tmp', { root: '/tmp', maxBytes: -1 }),
    'a fractional budget': () => agentsmd.chainSync('/tmp', { root: '/tmp', budget: 1.5 }),
    'a number as a string': () => agentsmd.chainSync('/tmp', { root: '/tmp', renderedBudget: '10' }),
    'an env value that is no string': () => agentsmd.chainSync('/tmp', { root: '/tmp', env: { A: 1 } }),
    'an env NAME that is no name': () => agentsmd.chainSync('/tmp', { root: '/tmp', env: { 'A-B': 'x' } }),
    'an fs without its callbacks': () => agentsmd.chainSync('.', { fs: {} }),
    'a transform that is no function': () => agentsmd.chainSync('/tmp', { root: '/tmp', transform: 1 }),
    'files that are no array': () => agentsmd.render('x'),
    'a path of a file that is no string': () => agentsmd.renderBytes([{ path: 1, content: 'x' }]),
    'content that is neither a Buffer nor a string': () => agentsmd.render([{ path: 'p', content: 1 }]),
    'a document parse did not return': () => agentsmd.block({ requested: [], skills: [], unknown: [], warnings: [] }),
    'a cap that is no number': () => agentsmd.block(agentsmd.parseText('# a\n'), { cap: '2048' }),
    'a users directory that is no string': () => agentsmd.overlayDir(1, 'ada'),
    'text that is neither a Buffer nor a string': () => agentsmd.parseText(1),
  }
  for (const [what, call] of Object.entries(calls)) {
    const err = throwsKind(call, 'InvalidArgument')
    assert.ok(err.message.length > 0, what)
  }
})

test('TooLarge names the file, with no errno', async (t) => {
  const dir = tempTree(t, { 'AGENTS.md': 'x'.repeat(100) })
  const err = await fails(path.join(dir, 'x'), { root: dir, maxBytes: 99 }, 'TooLarge')
  assert.equal(err.path, path.join(dir, 'AGENTS.md'))
  assert.equal(err.errno, null)
})

test('Io carries the OS error as errno and names the path', async (t) => {
  const dir = tempTree(t)
  const long = path.join(dir, 'x'.repeat(300), 'new.md')
  const err = await fails(long, { root: dir }, 'Io')
  assert.equal(err.errno, 'ENAMETOOLONG')
  assert.equal(err.path, long)
})

test('Io: a directory that cannot be listed (as an unprivileged user)', async (t) => {
  if (process.getuid?.() === 0) {
    t.skip('root lists every directory; this runs as an unprivileged user')
    return
  }
  const dir = tempTree(t, { 'locked/AGENTS.md': 'x\n' })
  fs.chmodSync(path.join(dir, 'locked'), 0o000)
  try {
    // The directory itself is the path: a path below it would fail its stat first.
    const err = await fails(path.join(dir, 'locked'), { root: dir }, 'Io')
    assert.equal(err.errno, 'EACCES')
    assert.equal(err.path, path.join(dir, 'locked'))
  } finally {
    // Before the tree is removed, which needs to list it.
    fs.chmodSync(path.join(dir, 'locked'), 0o755)
  }
})

test('Fs carries the callback\'s message and the FS name', async () => {
  const fs = {
    list: () => ['AGENTS.md'],
    stat: () => ({ kind: 'file', size: 3 }),
    read: () => {
      throw new Error('the remote workspace went away')
    },
  }
  const err = await fails('.', { fs }, 'Fs', { cli: false })
  assert.match(err.message, /the remote workspace went away/)
  assert.equal(err.path, 'AGENTS.md')
  assert.equal(err.errno, null)
})

test('Fs: what a callback throws, whatever it is, is the message; an errno code it carries is errno', async () => {
  const stat = () => ({ kind: 'dir', size: 0 })
  const denied = Object.assign(new Error('denied'), { code: 'EACCES' })
  for (const [thrown, message, errno] of [
    [denied, 'denied', 'EACCES'],
    [Object.assign(new Error('odd'), { code: 'not an errno' }), 'odd', null],
    ['a plain string', 'a plain string', null],
    [42, '42', null],
  ]) {
    const sync = { list: () => { throw thrown }, stat, read: () => null }
    const async = { list: () => Promise.reject(thrown), stat, read: () => null }
    for (const err of [
      throwsKind(() => agentsmd.chainSync('.', { fs: sync }), 'Fs'),
      await rejectsKind(agentsmd.chain('.', { fs: async }), 'Fs'),
    ]) {
      assert.ok(err.message.endsWith(`: ${message}`), err.message)
      assert.equal(err.errno, errno)
      assert.equal(err.path, '.')
    }
  }
})

test('Import names the including file and line: not found, a cycle, an OS error', async (t) => {
  const dir = tempTree(t, {
    'missing/AGENTS.md': 'a\n@gone.md\n',
    'cycle/AGENTS.md': 'a\n@b.md\n',
    'cycle/b.md': '@AGENTS.md\n',
    'long/AGENTS.md': `a\n\n@${'x'.repeat(300)}.md\n`,
    'out/AGENTS.md': '@../secret.md\n',
    'secret.md': 'secret\n',
  })
  const at = (sub) => ({ root: path.join(dir, sub), imports: true })
  const missing = await fails(path.join(dir, 'missing'), at('missing'), 'Import')
  assert.equal(missing.path, path.join(dir, 'missing', 'AGENTS.md'))
  assert.ok(missing.message.includes(`${path.join(dir, 'missing', 'AGENTS.md')}:2: `), missing.message)
  const cycle = await fails(path.join(dir, 'cycle'), at('cycle'), 'Import')
  assert.equal(cycle.path, path.join(dir, 'cycle', 'b.md'))
  const long = await fails(path.join(dir, 'long'), at('long'), 'Import')
  assert.equal(long.errno, 'ENAMETOOLONG')
  assert.ok(long.message.includes(`${path.join(dir, 'long', 'AGENTS.md')}:3: `), long.message)
  await fails(path.join(dir, 'out'), at('out'), 'Import')
})

test('an import over max-bytes keeps the kind TooLarge', async (t) => {
  const dir = tempTree(t, { 'AGENTS.md': '@big.md\n', 'big.md': 'x'.repeat(50) })
  await fails(dir, { root: dir, imports: true, maxBytes: 20 }, 'TooLarge')
})

test('structure errors are AgentsmdErrors too', async (t) => {
  const dir = tempTree(t, { 'AGENTS.md': '# A\n\ntext\n', 'sub/': '' })
  const doc = agentsmd.parseText('# A\n\ntext\n')
  // A heading and preamble longer than the cap: fixed does not fit (§6.3).
  throwsKind(() => agentsmd.block(doc, { cap: 2048, preamble: 'p'.repeat(3000) }), 'InvalidArgument')
  await rejectsKind(agentsmd.parse(path.join(dir, 'AGENTS.md'), { maxBytes: 4 }), 'TooLarge')
  // Confined, a file outside root is not read (§6.2).
  await rejectsKind(agentsmd.parse(path.join(dir, 'AGENTS.md'), { root: path.join(dir, 'sub'), confine: true }), 'InvalidArgument')
  await rejectsKind(agentsmd.parseNearest(dir, { root: dir, names: ['a//b'] }), 'InvalidArgument')
  // parse reads a regular file: a directory or a missing file is none.
  for (const file of [dir, path.join(dir, 'missing.md')]) {
    const err = await rejectsKind(agentsmd.parse(file), 'InvalidArgument')
    assert.ok(err.message.includes(file), err.message)
  }
})

test('Panic: a panic anywhere in the addon is an AgentsmdError, and Node lives on', (t) => {
  if (typeof agentsmd.__testPanic !== 'function') {
    t.skip('__testPanic is absent: this build lacks the test-hooks feature (tests/node.rs builds it with --features test-hooks)')
    return
  }
  // In a child, whose stderr takes the panics' messages: a panic that crashed the process
  // would end this run. Each place a panic can happen: a synchronous export (throws); the work
  // of an async export on libuv's pool, on a thread of its own, and as its outcome is settled
  // on the main thread (rejects).
  const out = inChild(`
    const said = {};
    try {
      agentsmd.__testPanic('sync');
      said.sync = 'no error';
    } catch (err) {
      said.sync = { error: err instanceof agentsmd.AgentsmdError, kind: err.kind, path: err.path, errno: err.errno };
    }
    for (const where of ['pool', 'thread', 'settle']) {
      try {
        await agentsmd.__testPanic(where);
        said[where] = 'no error';
      } catch (err) {
        said[where] = { error: err instanceof agentsmd.AgentsmdError, kind: err.kind, path: err.path, errno: err.errno };
      }
    }
    // Node lives on, and the addon still answers.
    said.after = agentsmd.render([{ path: 'p', content: 'x' }]).length;
    console.log(JSON.stringify(said));
  `)
  assert.equal(out.signal, null, `Node crashed: ${out.signal}\n${out.stderr}`)
  assert.equal(out.status, 0, out.stderr)
  const panic = { error: true, kind: 'Panic', path: null, errno: null }
  assert.deepEqual(JSON.parse(out.stdout), {
    sync: panic,
    pool: panic,
    thread: panic,
    settle: panic,
    after: agentsmd.render([{ path: 'p', content: 'x' }]).length,
  })
  assert.match(out.stderr, /__testPanic/)
})
