// A custom file system (SPEC.md §3, the issue's `fs`): values with chainSync and chain, Promises
// with chain, `null` for "not found", a throw or a rejection as the chain's `Fs` error with its
// message, and a Promise given to chainSync as an error, never a hang.

import assert from 'node:assert/strict'
import { test } from 'node:test'

import { agentsmd, inChild, memoryFs, rejectsKind, throwsKind, within } from './support.mjs'

const files = {
  'AGENTS.md': 'root\n',
  'a/AGENTS.md': 'a\n',
  'a/agents.md': 'other spelling\n',
  'a/b/AGENTS.override.md': 'override\n',
  'a/b/AGENTS.md': 'shadowed\n',
}
const names = ['AGENTS.override.md', 'AGENTS.md']

/** What the chain at `a/b/c/new.txt` over `files` must be. */
function expected(result) {
  assert.deepEqual(
    result.files.map((f) => [f.path, f.content.toString('utf8'), f.source]),
    [
      ['AGENTS.md', 'root\n', 'chain'],
      ['a/AGENTS.md', 'a\n', 'chain'],
      ['a/b/AGENTS.override.md', 'override\n', 'chain'],
    ],
  )
  assert.deepEqual(result.omitted, [
    { path: 'a/b/AGENTS.md', size: 9, reason: 'shadowed', by: 'a/b/AGENTS.override.md' },
  ])
  assert.ok(result.files.every((f) => Buffer.isBuffer(f.content)))
}

test('chainSync over a file system that answers values', () => {
  const fs = memoryFs(files)
  expected(agentsmd.chainSync('a/b/c/new.txt', { fs, names }))
  assert.ok(fs.calls.includes('read a/b/AGENTS.override.md 1048577'), 'reads at most max_bytes + 1')
})

test('chain over a file system that answers values', async () => {
  expected(await within(10000, 'chain', agentsmd.chain('a/b/c/new.txt', { fs: memoryFs(files), names })))
})

test('chain over a file system that answers Promises', async () => {
  const fs = memoryFs(files, 'async')
  expected(await within(10000, 'chain', agentsmd.chain('a/b/c/new.txt', { fs, names })))
  assert.ok(fs.calls.length > 0)
})

test('chain over a file system that mixes values and Promises, many at once', async () => {
  const sync = memoryFs(files)
  const async = memoryFs(files, 'async')
  const mixed = { list: sync.list, stat: async.stat, read: async.read }
  const results = await within(
    20000,
    'chain ×32',
    Promise.all(Array.from({ length: 32 }, () => agentsmd.chain('a/b/c/new.txt', { fs: mixed, names }))),
  )
  results.forEach(expected)
})

test('chain leaves the main thread free while the walk waits on the file system', async () => {
  let ticks = 0
  const timer = setInterval(() => ticks++, 1)
  try {
    const slow = memoryFs(files)
    const fs = {
      list: (dir) => new Promise((resolve) => setTimeout(() => resolve(slow.list(dir)), 20)),
      stat: slow.stat,
      read: slow.read,
    }
    expected(await within(10000, 'chain', agentsmd.chain('a/b/c/new.txt', { fs, names })))
  } finally {
    clearInterval(timer)
  }
  assert.ok(ticks > 5, `the event loop ran while chain waited (${ticks} ticks)`)
})

test('null means not found from every callback', async () => {
  const fs = {
    list: (dir) => (dir === '.' ? ['AGENTS.md', 'gone.md'] : null),
    stat: (name) => (name === 'AGENTS.md' ? { kind: 'file', size: 5 } : null),
    read: (name) => (name === 'AGENTS.md' ? Buffer.from('root\n') : null),
  }
  for (const result of [
    agentsmd.chainSync('x/y/z', { fs }),
    await agentsmd.chain('x/y/z', { fs }),
    agentsmd.chainSync('.', { fs, names: ['gone.md', 'AGENTS.md'] }),
  ]) {
    assert.deepEqual(result.files.map((f) => f.path), ['AGENTS.md'])
    assert.deepEqual(result.omitted, [])
  }
})

test('a directory, or an entry of kind other, is no file', () => {
  const fs = {
    list: () => ['AGENTS.md', 'AGENTS.override.md'],
    stat: (name) => (name === 'AGENTS.md' ? { kind: 'dir', size: 0 } : { kind: 'other', size: 0 }),
    read: () => {
      throw new Error('nothing is read')
    },
  }
  const result = agentsmd.chainSync('.', { fs, names })
  assert.deepEqual(result.files, [])
  assert.deepEqual(result.omitted, [])
})

test('a read over maxBytes is TooLarge naming the file, and the limit is maxBytes + 1', async () => {
  const fs = memoryFs({ 'AGENTS.md': 'x'.repeat(100) })
  const err = throwsKind(() => agentsmd.chainSync('.', { fs, maxBytes: 10 }), 'TooLarge')
  assert.equal(err.path, 'AGENTS.md')
  assert.ok(fs.calls.includes('read AGENTS.md 11'), fs.calls.join('\n'))
  await rejectsKind(agentsmd.chain('.', { fs: memoryFs({ 'AGENTS.md': 'x'.repeat(100) }, 'async'), maxBytes: 10 }), 'TooLarge')
})

for (const op of ['list', 'stat', 'read']) {
  test(`a throw in ${op} is the chain's Fs error, with the thrown message`, async () => {
    const base = memoryFs(files)
    const failing = (mode) => ({
      ...base,
      [op]: (name) => {
        if (mode === 'async') return Promise.reject(new Error(`${op} broke on ${name} (async)`))
        throw new Error(`${op} broke on ${name}`)
      },
    })
    const err = throwsKind(() => agentsmd.chainSync('a/new.txt', { fs: failing('sync'), names }), 'Fs')
    assert.match(err.message, new RegExp(`${op} broke on `))
    assert.equal(typeof err.path, 'string')
    const thrown = await rejectsKind(agentsmd.chain('a/new.txt', { fs: failing('sync'), names }), 'Fs')
    assert.match(thrown.message, new RegExp(`${op} broke on `))
    const rejected = await rejectsKind(
      within(10000, 'chain', agentsmd.chain('a/new.txt', { fs: failing('async'), names })),
      'Fs',
    )
    assert.match(rejected.message, new RegExp(`${op} broke on .*\\(async\\)`))
  })
}

test('a callback answering nonsense is an Fs error, not a crash', async () => {
  const answers = [
    { list: () => 'AGENTS.md' },
    { list: () => [42] },
    { stat: () => ({ kind: 'symlink', size: 1 }) },
    { stat: () => 'file' },
    { read: () => 17 },
  ]
  for (const answer of answers) {
    const fs = { ...memoryFs({ 'AGENTS.md': 'root\n' }), ...answer }
    throwsKind(() => agentsmd.chainSync('.', { fs }), 'Fs')
    await rejectsKind(agentsmd.chain('.', { fs }), 'Fs')
  }
})

for (const [op, promise] of [
  ['list', 'new Promise(() => {})'],
  ['stat', 'new Promise(() => {})'],
  ['read', 'new Promise(() => {})'],
  ['read', "Promise.resolve(Buffer.from('root\\n'))"],
  // The batched questions too (batch.test.mjs).
  ['readDirs', "Promise.resolve([[{ name: 'AGENTS.md', kind: 'file', size: 5 }]])"],
  ['readFiles', "Promise.resolve([Buffer.from('root\\n')])"],
]) {
  test(`a Promise (${promise}) from ${op} given to chainSync is an AgentsmdError, never a hang`, () => {
    // In a child process that is killed if it hangs: a hang would hold this thread for ever.
    const out = inChild(`
      const fs = {
        list: () => ['AGENTS.md'],
        stat: () => ({ kind: 'file', size: 5 }),
        read: () => Buffer.from('root\\n'),
      };
      fs[${JSON.stringify(op)}] = () => ${promise};
      try {
        agentsmd.chainSync('.', { fs });
        console.log('no error');
      } catch (err) {
        console.log(JSON.stringify({ error: err instanceof agentsmd.AgentsmdError, kind: err.kind, message: err.message }));
      }
    `)
    assert.equal(out.signal, null, `chainSync hung (killed by ${out.signal})\n${out.stderr}`)
    assert.equal(out.status, 0, out.stderr)
    const said = JSON.parse(out.stdout)
    assert.ok(said.error, `an AgentsmdError: ${out.stdout}`)
    assert.equal(said.kind, 'Fs', said.message)
    assert.match(said.message, new RegExp(`fs\\.${op} answered a Promise`))
  })
}

test('path and root are FS names: an invalid one is InvalidArgument before any call', () => {
  for (const [file, root] of [['/abs', undefined], ['a//b', undefined], ['a/../b', undefined], ['a', '/'], ['b/x', 'a']]) {
    const fs = memoryFs(files)
    throwsKind(() => agentsmd.chainSync(file, { fs, root }), 'InvalidArgument')
    assert.deepEqual(fs.calls, [], `${file} under ${root}: nothing asked`)
  }
})

test('a root inside the FS stops the walk there', () => {
  const result = agentsmd.chainSync('a/b/c/new.txt', { fs: memoryFs(files), names, root: 'a' })
  assert.deepEqual(result.files.map((f) => f.path), ['a/AGENTS.md', 'a/b/AGENTS.override.md'])
})

test('the callbacks are called with the file system as this', async () => {
  class Workspace {
    constructor(files) {
      this.files = memoryFs(files)
    }

    list(dir) {
      return this.files.list(dir)
    }

    async stat(name) {
      return this.files.stat(name)
    }

    read(name, limit) {
      return this.files.read(name, limit)
    }
  }
  expected(await agentsmd.chain('a/b/c/new.txt', { fs: new Workspace(files), names }))
  const sync = new Workspace(files)
  sync.stat = function stat(name) {
    return this.files.stat(name)
  }
  expected(agentsmd.chainSync('a/b/c/new.txt', { fs: sync, names }))
})
