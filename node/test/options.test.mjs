// How the package reads what it is given: options as the caller's object answers them (getters,
// inherited ones), arrays refused at their first wrong element, and a transform's answer held
// to the bytes the library reads of a file.
import assert from 'node:assert/strict'
import { test } from 'node:test'

import { agentsmd, rejectsKind, tempTree, throwsKind } from './support.mjs'

const { chain, chainSync } = agentsmd

test('options are read as the object answers them: a getter, an inherited option', (t) => {
  const dir = tempTree(t, { 'AGENTS.md': 'root\n', 'a/CLAUDE.md': 'claude\n', 'a/AGENTS.md': 'a\n' })
  const own = chainSync(`${dir}/a/x`, { root: dir, names: ['CLAUDE.md'] })
  assert.deepEqual(own.files.map((f) => f.content.toString()), ['claude\n'])
  const getters = new (class {
    get root() { return dir }
    get names() { return ['CLAUDE.md'] }
  })()
  assert.deepEqual(chainSync(`${dir}/a/x`, getters).files.map((f) => f.content.toString()), ['claude\n'])
  const inherited = Object.create({ root: dir, names: ['CLAUDE.md'] })
  assert.deepEqual(chainSync(`${dir}/a/x`, inherited).files.map((f) => f.content.toString()), ['claude\n'])
  // With a transform, which is wrapped, the other options still come through.
  const both = Object.create({ root: dir, names: ['CLAUDE.md'], transform: (_, c) => c })
  assert.deepEqual(chainSync(`${dir}/a/x`, both).files.map((f) => f.content.toString()), ['claude\n'])
})

test('an array is refused at its first wrong element, however long it says it is', () => {
  const started = process.hrtime.bigint()
  throwsKind(() => chainSync('/tmp', { names: new Array(2 ** 32 - 1) }), 'InvalidArgument')
  assert.ok(process.hrtime.bigint() - started < 1_000_000_000n, 'refused at once')
})

test("a transform's answer beyond the bytes read of a file is TooLarge", async (t) => {
  const dir = tempTree(t, { 'AGENTS.md': 'root\n' })
  const options = (answer) => ({ root: dir, maxBytes: 10, transform: () => answer })
  for (const answer of [Buffer.alloc(1 << 20, 'x'), 'x'.repeat(1 << 20), '\u{1F980}'.repeat(6)]) {
    throwsKind(() => chainSync(`${dir}/x`, options(answer)), 'TooLarge')
    await rejectsKind(chain(`${dir}/x`, options(answer)), 'TooLarge')
  }
  // At the limit, the answer is the file.
  const fits = chainSync(`${dir}/x`, options('\u{1F980}'.repeat(2) + 'ab'))
  assert.equal(fits.files[0].content.toString(), '\u{1F980}\u{1F980}ab')
})
