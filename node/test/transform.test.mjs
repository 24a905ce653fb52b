// The transform (SPEC.md §5.5): given each file's path and content (a Buffer, after imports),
// returning a Buffer, a string or (with chain) a Promise of one; counted by the bounds, never
// scanned for directives; a throw is the chain's Fs error. And env, the interpolator's map.

import assert from 'node:assert/strict'
import path from 'node:path'
import { test } from 'node:test'

import { agentsmd, inChild, memoryFs, rejectsKind, sameAsCli, tempTree, throwsKind, within } from './support.mjs'

const files = { 'AGENTS.md': 'root\n@inc.md\n', 'inc.md': 'included\n', 'a/AGENTS.md': 'a\n' }

const upper = (content) => content.toString('utf8').toUpperCase()

test('a transform answering a Buffer, a string, or a Promise of either', async () => {
  const seen = []
  const answers = {
    buffer: (file, content) => {
      seen.push([file, Buffer.isBuffer(content), content.toString('utf8')])
      return Buffer.from(upper(content))
    },
    string: (_, content) => upper(content),
    promisedBuffer: async (_, content) => Buffer.from(upper(content)),
    promisedString: (_, content) => new Promise((resolve) => setTimeout(() => resolve(upper(content)), 1)),
  }
  for (const [kind, transform] of Object.entries(answers)) {
    const options = { fs: memoryFs(files), imports: true, transform }
    const results = [await within(10000, 'chain', agentsmd.chain('a/x', options))]
    if (!kind.startsWith('promised')) results.push(agentsmd.chainSync('a/x', options))
    for (const result of results) {
      assert.deepEqual(
        result.files.map((f) => [f.path, f.content.toString('utf8')]),
        [['AGENTS.md', 'ROOT\nINCLUDED\n'], ['a/AGENTS.md', 'A\n']],
        kind,
      )
      assert.ok(result.files.every((f) => Buffer.isBuffer(f.content)))
    }
  }
  // Each file once, its path and its content after imports, as a Buffer.
  assert.deepEqual(seen.slice(0, 2), [
    ['AGENTS.md', true, 'root\nincluded\n'],
    ['a/AGENTS.md', true, 'a\n'],
  ])
})

test('what a transform returns is never scanned for directives', () => {
  const result = agentsmd.chainSync('.', {
    fs: memoryFs(files),
    imports: true,
    transform: () => '@inc.md\n',
  })
  assert.equal(result.files[0].content.toString('utf8'), '@inc.md\n')
})

test('the bounds count what the transform returns', async () => {
  const grow = () => 'x'.repeat(50)
  const err = throwsKind(() => agentsmd.chainSync('.', { fs: memoryFs(files), maxBytes: 20, transform: grow }), 'TooLarge')
  assert.equal(err.path, 'AGENTS.md')
  const result = await agentsmd.chain('a/x', { fs: memoryFs(files), budget: 60, transform: grow })
  assert.deepEqual(result.files.map((f) => f.path), ['AGENTS.md'])
  assert.deepEqual(result.omitted, [{ path: 'a/AGENTS.md', size: 50, reason: 'over_budget', by: null }])
})

test('a transform over OS files is given the absolute path', async (t) => {
  const dir = tempTree(t, { 'AGENTS.md': 'root\n' })
  const seen = []
  const result = await agentsmd.chain(path.join(dir, 'x'), {
    root: dir,
    transform: (file, content) => {
      seen.push(file)
      return content
    },
  })
  assert.deepEqual(seen, [path.join(dir, 'AGENTS.md')])
  assert.equal(result.files[0].content.toString('utf8'), 'root\n')
})

test('a throw or a rejection in the transform is the chain\'s Fs error, with its message', async () => {
  const fail = () => {
    throw new Error('no transform for you')
  }
  const err = throwsKind(() => agentsmd.chainSync('.', { fs: memoryFs(files), transform: fail }), 'Fs')
  assert.match(err.message, /no transform for you/)
  const thrown = await rejectsKind(agentsmd.chain('.', { fs: memoryFs(files), transform: fail }), 'Fs')
  assert.match(thrown.message, /no transform for you/)
  const rejected = await rejectsKind(
    agentsmd.chain('.', { fs: memoryFs(files), transform: async () => Promise.reject(new Error('rejected here')) }),
    'Fs',
  )
  assert.match(rejected.message, /rejected here/)
  throwsKind(() => agentsmd.chainSync('.', { fs: memoryFs(files), transform: () => 42 }), 'Fs')
})

test('a Promise from the transform given to chainSync is an AgentsmdError, never a hang', () => {
  const out = inChild(`
    const fs = { list: () => ['AGENTS.md'], stat: () => ({ kind: 'file', size: 5 }), read: () => Buffer.from('root\\n') };
    try {
      agentsmd.chainSync('.', { fs, transform: () => new Promise(() => {}) });
      console.log('no error');
    } catch (err) {
      console.log(JSON.stringify({ error: err instanceof agentsmd.AgentsmdError, kind: err.kind, message: err.message }));
    }
  `)
  assert.equal(out.signal, null, `chainSync hung (killed by ${out.signal})\n${out.stderr}`)
  assert.equal(out.status, 0, out.stderr)
  const said = JSON.parse(out.stdout)
  assert.ok(said.error, out.stdout)
  assert.equal(said.kind, 'Fs', said.message)
})

test('env replaces ${env:NAME} for the names given, and nothing from the process environment', async (t) => {
  process.env.AGENTSMD_NODE_TEST_SECRET = 'hunter2'
  t.after(() => delete process.env.AGENTSMD_NODE_TEST_SECRET)
  const dir = tempTree(t, {
    'AGENTS.md': 'team ${env:TEAM}, ${env:AGENTSMD_NODE_TEST_SECRET}, ${env:}, ${TEAM}, $' + '{env:TEAM\n',
  })
  const result = await sameAsCli(path.join(dir, 'x'), { root: dir, env: { TEAM: 'payments ${env:TEAM}' } })
  assert.equal(
    result.files[0].content.toString('utf8'),
    'team payments ${env:TEAM}, ${env:AGENTSMD_NODE_TEST_SECRET}, ${env:}, ${TEAM}, ${env:TEAM\n',
  )
})

test('env and a transform together are an InvalidArgument: the interpolator is the chain\'s one transform', async () => {
  const options = { fs: memoryFs(files), env: { A: 'b' }, transform: (_, content) => content }
  throwsKind(() => agentsmd.chainSync('.', options), 'InvalidArgument')
  await rejectsKind(agentsmd.chain('.', options), 'InvalidArgument')
})

test('a transform\'s string names bytes by the package\'s rule; a lone surrogate that names none fails', () => {
  const result = agentsmd.chainSync('.', { fs: memoryFs(files), transform: () => 'a\udcff' })
  assert.deepEqual(result.files[0].content, Buffer.from([0x61, 0xff]))
  // The transform answered what it may not: the chain's Fs error.
  throwsKind(() => agentsmd.chainSync('.', { fs: memoryFs(files), transform: () => 'a\ud800' }), 'Fs')
})
