// What the package refuses, it refuses with an AgentsmdError: a name a custom file system lists
// that is not one path element fails the chain as it does in C and Go (`.` and `..`, which a
// readdir lists, are accepted and never match); an option whose getter or Proxy throws is an
// InvalidArgument error, with what was thrown as its `cause`.

import assert from 'node:assert/strict'
import { test } from 'node:test'

import { agentsmd, memoryFs, rejectsKind, throwsKind } from './support.mjs'

const FILES = { 'AGENTS.md': 'root\n', 'a/AGENTS.md': 'a\n' }

/** A file system over FILES whose listing of '.' also names `name`, one at a time or in a batch. */
function listing(name, batched) {
  const fs = memoryFs(FILES)
  const list = fs.list
  fs.list = (dir) => (dir === '.' ? [...list.call(fs, dir), name] : list.call(fs, dir))
  if (batched) {
    fs.readDirs = (dirs) =>
      dirs.map((dir) => {
        const names = fs.list(dir)
        return names && names.map((n) => ({ name: n }))
      })
  }
  return fs
}

for (const batched of [false, true]) {
  const op = batched ? 'fs.readDirs' : 'fs.list'
  for (const name of ['', 'x/y', 'a\0b']) {
    test(`${op} listing ${JSON.stringify(name)}: an Fs error naming it, as in C and Go`, async () => {
      const sync = throwsKind(() => agentsmd.chainSync('a', { fs: listing(name, batched) }), 'Fs')
      const async = await rejectsKind(agentsmd.chain('a', { fs: listing(name, batched) }), 'Fs')
      // The name as C shows it: quoted, a NUL as \0.
      const shown = `"${name.replace('\0', '\\0')}"`
      for (const err of [sync, async]) {
        assert.ok(err.message.includes(`${shown}, which is not one path element`), err.message)
        assert.ok(err.message.includes(op), err.message)
      }
    })
  }

  test(`${op} listing . and ..: accepted, and never a match`, async () => {
    const plainly = agentsmd.chainSync('a', { fs: memoryFs(FILES) })
    for (const name of ['.', '..']) {
      assert.deepEqual(agentsmd.chainSync('a', { fs: listing(name, batched) }), plainly)
      assert.deepEqual(await agentsmd.chain('a', { fs: listing(name, batched) }), plainly)
    }
  })
}

/** Options whose `name` is read by a getter that throws `thrown`. */
function throwing(name, thrown, base = {}) {
  const options = { ...base }
  Object.defineProperty(options, name, {
    get() {
      throw thrown
    },
    enumerable: true,
  })
  return options
}

const BASE = { fs: memoryFs(FILES) }

test('an option whose getter throws: InvalidArgument, naming it, with the throw as its cause', async () => {
  const names = ['names', 'root', 'extra', 'maxBytes', 'budget', 'fs', 'fragments', 'imports', 'env', 'transform', 'nearest', 'report', 'signal', 'skills']
  for (const name of names) {
    const thrown = new Error(`no ${name} today`)
    const base = name === 'fs' ? {} : BASE
    const calls = [
      () => agentsmd.chainSync('a', throwing(name, thrown, base)),
      () => agentsmd.parseText('# a\n', throwing(name, thrown, base)),
    ]
    // The synchronous calls take no signal, and read none.
    for (const call of name === 'signal' ? [] : calls) {
      const err = throwsKind(call, 'InvalidArgument')
      assert.equal(err.cause, thrown, `${name}: ${err.message}`)
      assert.ok(err.message.includes(`options.${name}`), err.message)
    }
    for (const call of [
      () => agentsmd.chain('a', throwing(name, thrown, base)),
      () => agentsmd.parse('a/AGENTS.md', throwing(name, thrown, base)),
      () => agentsmd.parseNearest('a', throwing(name, thrown, base)),
    ]) {
      const err = await rejectsKind(call(), 'InvalidArgument')
      assert.equal(err.cause, thrown, `${name}: ${err.message}`)
    }
  }
})

test('a Proxy that throws, as the options, an option, or a file system: InvalidArgument with the cause', async () => {
  const thrown = new Error('trapped')
  const trap = new Proxy({}, {
    get() {
      throw thrown
    },
    ownKeys() {
      throw thrown
    },
  })
  const cases = {
    options: trap,
    'options.names[0]': { ...BASE, names: Object.defineProperty([], 0, { get() { throw thrown } }) },
    'options.env': { root: '/', env: trap },
    'options.fs': { fs: trap },
    'options.fs.list': { fs: new Proxy(memoryFs(FILES), { get(target, key) { if (key === 'read') throw thrown; return target[key] } }) },
  }
  for (const [what, options] of Object.entries(cases)) {
    const err = throwsKind(() => agentsmd.chainSync('a', options), 'InvalidArgument')
    assert.equal(err.cause, thrown, `${what}: ${err.message}`)
    const rejected = await rejectsKind(agentsmd.chain('a', options), 'InvalidArgument')
    assert.equal(rejected.cause, thrown, `${what}: ${rejected.message}`)
  }
})

test('a render file whose getter throws: InvalidArgument with the cause', () => {
  const thrown = new Error('no path')
  const file = { content: 'x' }
  Object.defineProperty(file, 'path', { get() { throw thrown } })
  const err = throwsKind(() => agentsmd.render([file]), 'InvalidArgument')
  assert.equal(err.cause, thrown)
})
