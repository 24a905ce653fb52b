// A custom file system that answers in batches (the issue's `readDirs(names)` and
// `readFiles(names, limit)`): a chain asks one readDirs, one readFiles and one more readFiles per
// level of imports, and finds what the same file system finds one question at a time; a wrong
// answer, a throw or a rejection of a batch is the chain's `Fs` error naming the callback.

import assert from 'node:assert/strict'
import { test } from 'node:test'

import { agentsmd, answerAs, inChild, memoryFs, rejectsKind, throwsKind, within } from './support.mjs'

/** The deepest of 32 directories, `d1/d2/…/d32`. */
const DEEPEST = Array.from({ length: 32 }, (_, i) => `d${i + 1}`).join('/')

/** Each directory from `d1` down to `DEEPEST`. */
const DEEP_DIRS = DEEPEST.split('/').map((_, i, parts) => parts.slice(0, i + 1).join('/'))

/** The 32 directories down to `DEEPEST`, each with an `AGENTS.md`, under a root with one. */
function deep() {
  const files = { 'AGENTS.md': 'root\n' }
  DEEP_DIRS.forEach((dir, i) => {
    files[`${dir}/AGENTS.md`] = `level ${i + 1}\n`
  })
  return files
}

/**
 * `memoryFs(files, mode)` with the batched questions too, which answer as its single ones would
 * (`said` gives what a listing says of each entry, by its full name). Its `calls` record every
 * question: `op name` for a single one, `readDirs N` and `readFiles N LIMIT` for a batch of N.
 */
function batchedFs(files, { mode = 'sync', said = (_, entry) => entry } = {}) {
  const fs = memoryFs(files, mode)
  // The batches' answers, not recorded as single questions.
  const quiet = memoryFs(files)
  const full = (dir, name) => (dir === '.' ? name : `${dir}/${name}`)
  return {
    ...fs,
    readDirs(names) {
      fs.calls.push(`readDirs ${names.length}`)
      const listing = (dir) =>
        quiet.list(dir)?.map((name) => said(full(dir, name), { name, ...quiet.stat(full(dir, name)) })) ?? null
      return answerAs(mode, names.map(listing))
    },
    readFiles(names, limit) {
      fs.calls.push(`readFiles ${names.length} ${limit}`)
      return answerAs(mode, names.map((name) => quiet.read(name, limit)))
    },
  }
}

/** How many batches of each kind `fs` was asked, and its single questions. */
function asked(fs) {
  const batches = (op) => fs.calls.filter((call) => call.startsWith(`${op} `)).length
  const single = fs.calls.filter((call) => !/^read(Dirs|Files) /.test(call))
  return { readDirs: batches('readDirs'), readFiles: batches('readFiles'), single }
}

/** Asserts that `result` is `expected` (the same chain one question at a time), and renders the same bytes. */
function same(result, expected, what) {
  assert.deepEqual(result, expected, what)
  assert.deepEqual(agentsmd.renderBytes(result.files), agentsmd.renderBytes(expected.files), what)
}

test('a 32-deep chain costs one readDirs and one readFiles, and finds what single questions find', () => {
  const files = { ...deep(), [`${DEEPEST}/main.go`]: 'package main\n' }
  for (const start of [DEEPEST, `${DEEPEST}/main.go`, `${DEEPEST}/new.go`]) {
    const fs = batchedFs(files)
    const result = agentsmd.chainSync(start, { fs })
    assert.equal(result.files.length, 33, start)
    same(result, agentsmd.chainSync(start, { fs: memoryFs(files) }), start)
    assert.deepEqual(asked(fs), { readDirs: 1, readFiles: 1, single: [] }, start)
  }
})

test('fragments cost no more batches', () => {
  const files = deep()
  for (const [at, depth] of [['', 0], ['d1/d2/', 2], [`${DEEPEST}/`, 32]]) {
    files[`${at}AGENTS.d/b.md`] = `b ${depth}\n`
    files[`${at}AGENTS.d/a.md`] = `a ${depth}\n`
    files[`${at}AGENTS.d/notes.txt`] = 'not read\n'
  }
  const options = { fragments: ['AGENTS.d'], report: true }
  const fs = batchedFs(files)
  const result = agentsmd.chainSync(DEEPEST, { ...options, fs })
  assert.equal(result.files.length, 33 + 6)
  same(result, agentsmd.chainSync(DEEPEST, { ...options, fs: memoryFs(files) }))
  assert.deepEqual(asked(fs), { readDirs: 1, readFiles: 1, single: [] })
})

test('each level of imports costs one more readFiles', () => {
  const files = {
    'AGENTS.md': '@docs/root.md\n',
    'docs/root.md': '@../shared.md\n',
    'shared.md': 'shared\n',
  }
  DEEP_DIRS.forEach((dir, i) => {
    files[`${dir}/AGENTS.md`] = `level ${i + 1}\n@one.md\n`
    files[`${dir}/one.md`] = `one ${i + 1}\n@two.md\n`
    files[`${dir}/two.md`] = `two ${i + 1}\n`
  })
  const options = { imports: true, maxImports: 200 }
  const fs = batchedFs(files)
  const result = agentsmd.chainSync(DEEPEST, { ...options, fs })
  assert.equal(result.imports.length, 2 + 64)
  same(result, agentsmd.chainSync(DEEPEST, { ...options, fs: memoryFs(files) }))
  assert.deepEqual(asked(fs), { readDirs: 1, readFiles: 1 + 2, single: [] })
})

test('chain waits for batches that answer Promises, called with the file system as this', async () => {
  const files = { ...deep(), [`${DEEPEST}/main.go`]: 'package main\n' }
  const start = `${DEEPEST}/main.go`
  const fs = batchedFs(files, { mode: 'async' })
  const result = await within(10000, 'chain', agentsmd.chain(start, { fs }))
  same(result, agentsmd.chainSync(start, { fs: memoryFs(files) }))
  assert.deepEqual(asked(fs), { readDirs: 1, readFiles: 1, single: [] })

  class Remote {
    constructor() {
      this.fs = batchedFs(files, { mode: 'async' })
    }

    list(dir) {
      return this.fs.list(dir)
    }

    stat(name) {
      return this.fs.stat(name)
    }

    read(name, limit) {
      return this.fs.read(name, limit)
    }

    async readDirs(names) {
      return this.fs.readDirs(names)
    }

    async readFiles(names, limit) {
      return this.fs.readFiles(names, limit)
    }
  }
  const remote = new Remote()
  same(await within(10000, 'chain', agentsmd.chain(start, { fs: remote })), result)
  assert.deepEqual(asked(remote.fs), { readDirs: 1, readFiles: 1, single: [] })
})

test('readFiles is given maxBytes + 1, and a file over maxBytes is TooLarge as it is one at a time', async () => {
  const files = { 'AGENTS.md': 'root\n', 'a/AGENTS.md': 'x'.repeat(100) }
  const fs = batchedFs(files)
  const err = throwsKind(() => agentsmd.chainSync('a', { fs, maxBytes: 10 }), 'TooLarge')
  assert.equal(err.path, 'a/AGENTS.md')
  assert.ok(fs.calls.includes('readFiles 2 11'), fs.calls.join('\n'))
  await rejectsKind(agentsmd.chain('a', { fs: batchedFs(files, { mode: 'async' }), maxBytes: 10 }), 'TooLarge')
})

for (const [what, unsaid] of [
  ["kind 'link'", ({ name }) => ({ name, kind: 'link' })],
  ['no kind', ({ name }) => ({ name })],
]) {
  test(`an entry of ${what} costs one stat of its name`, () => {
    const files = { 'AGENTS.md': 'root\n', 'a/AGENTS.md': 'a\n', 'a/b/x.go': '' }
    const fs = batchedFs(files, { said: (name, entry) => (name === 'a/AGENTS.md' ? unsaid(entry) : entry) })
    const result = agentsmd.chainSync('a/b/x.go', { fs })
    assert.deepEqual(result.files.map((f) => f.path), ['AGENTS.md', 'a/AGENTS.md'])
    same(result, agentsmd.chainSync('a/b/x.go', { fs: memoryFs(files) }))
    assert.deepEqual(asked(fs), { readDirs: 1, readFiles: 1, single: ['stat a/AGENTS.md'] })
  })
}

test('with readDirs alone the files are read one at a time; with readFiles alone, listed so', () => {
  const files = deep()
  const dirsOnly = { ...batchedFs(files), readFiles: undefined }
  same(agentsmd.chainSync(DEEPEST, { fs: dirsOnly }), agentsmd.chainSync(DEEPEST, { fs: memoryFs(files) }))
  const dirsAsked = asked(dirsOnly)
  assert.equal(dirsAsked.readDirs, 1)
  const read = ['AGENTS.md', ...DEEP_DIRS.map((dir) => `${dir}/AGENTS.md`)]
  assert.deepEqual(dirsAsked.single, read.map((name) => `read ${name} 1048577`))

  const filesOnly = { ...batchedFs(files), readDirs: undefined }
  same(agentsmd.chainSync(DEEPEST, { fs: filesOnly }), agentsmd.chainSync(DEEPEST, { fs: memoryFs(files) }))
  const filesAsked = asked(filesOnly)
  assert.equal(filesAsked.readFiles, 1)
  assert.ok(filesAsked.single.includes(`list ${DEEPEST}`), filesAsked.single.join('\n'))
  assert.ok(!filesAsked.single.some((call) => call.startsWith('read ')), filesAsked.single.join('\n'))
})

test('a name that is not UTF-8 keeps its bytes through both batches', () => {
  const name = 'AGENTS.d/caf\udce9.md'
  const files = { 'AGENTS.md': 'root\n', [name]: 'fragment\n' }
  const fs = batchedFs(files)
  const result = agentsmd.chainSync('.', { fs, fragments: ['AGENTS.d'] })
  assert.deepEqual(result.files.map((f) => f.path), ['AGENTS.md', name])
  assert.deepEqual(agentsmd.pathToBytes(result.files[1].path), Buffer.from('AGENTS.d/caf\xe9.md', 'latin1'))
  assert.deepEqual(asked(fs), { readDirs: 1, readFiles: 1, single: [] })
})

/** A file system whose `op` answers `answer(names)` instead of its own answer. */
function answering(op, answer) {
  return { ...batchedFs({ 'AGENTS.md': 'root\n', 'a/AGENTS.md': 'a\n' }), [op]: answer }
}

/** An answer of `element` for each name asked. */
const each = (element) => (names) => names.map(() => element)

for (const [op, what, answer, said] of [
  ['readDirs', 'too few listings', (names) => names.slice(1), /an array of length \d+; it answers an array of length/],
  ['readDirs', 'no array', () => ({}), /answered an object/],
  ['readDirs', 'null for the whole batch', () => null, /answered null/],
  ['readDirs', 'a listing that is no array', each('AGENTS.md'), /a listing that is a string/],
  ['readDirs', 'an entry of no kind it knows', each([{ name: 'AGENTS.md', kind: 'symlink' }]), /the kind symlink/],
  ['readDirs', 'a file without its size', each([{ name: 'AGENTS.md', kind: 'file' }]), /a file of size undefined/],
  ['readDirs', 'an entry without a name', each([{ kind: 'dir' }]), /an entry named by undefined/],
  ['readDirs', 'a name holding a lone surrogate', each([{ name: 'x\ud800', kind: 'dir' }]), /lone surrogate U\+D800/],
  ['readFiles', 'too few contents', () => [], /an array of length 0; it answers an array of length/],
  ['readFiles', 'no array', () => Buffer.from('root\n'), /answered an object/],
  ['readFiles', 'a string for a file', each('root\n'), /an array holding a string/],
]) {
  test(`${op} answering ${what} is an Fs error naming it`, async () => {
    const fs = answering(op, answer)
    const err = throwsKind(() => agentsmd.chainSync('a', { fs }), 'Fs')
    assert.match(err.message, new RegExp(`fs\\.${op}`))
    assert.match(err.message, said)
    const rejected = await rejectsKind(agentsmd.chain('a', { fs }), 'Fs')
    assert.equal(rejected.message, err.message)
  })
}

for (const op of ['readDirs', 'readFiles']) {
  test(`a throw or a rejection in ${op} is the chain's Fs error, with the thrown message and code`, async () => {
    const broken = (how) =>
      answering(op, () => {
        const err = Object.assign(new Error(`${op} broke (${how})`), { code: 'EACCES' })
        if (how === 'rejected') return Promise.reject(err)
        throw err
      })
    const thrown = throwsKind(() => agentsmd.chainSync('a', { fs: broken('thrown') }), 'Fs')
    assert.match(thrown.message, new RegExp(`${op} broke \\(thrown\\)`))
    assert.equal(thrown.errno, 'EACCES')
    assert.equal(typeof thrown.path, 'string')
    const rejected = await rejectsKind(within(10000, 'chain', agentsmd.chain('a', { fs: broken('rejected') })), 'Fs')
    assert.match(rejected.message, new RegExp(`${op} broke \\(rejected\\)`))
    assert.equal(rejected.errno, 'EACCES')
  })

  test(`${op} given but no function is InvalidArgument naming it`, () => {
    const err = throwsKind(() => agentsmd.chainSync('.', { fs: answering(op, 42) }), 'InvalidArgument')
    assert.match(err.message, new RegExp(`options\\.fs\\.${op}: expected a function`))
  })
}
