// The bytes of a Result belong to JavaScript: a synchronous loop of chainSync calls, each
// dropping its result, holds no more memory than one call does, though the event loop never
// turns (Node frees memory a native addon lent only on a later turn).

import assert from 'node:assert/strict'
import { spawnSync } from 'node:child_process'
import path from 'node:path'
import { test } from 'node:test'

import { PACKAGE, tempTree } from './support.mjs'

const MIB = 1 << 20

test('chainSync in a synchronous loop: memory stays flat', (t) => {
  const dir = tempTree(t, { 'AGENTS.md': 'x'.repeat(MIB - 1) + '\n' })
  const source = `
    const agentsmd = require(${JSON.stringify(path.join(PACKAGE, 'index.js'))})
    const options = { root: ${JSON.stringify(dir)} }
    const rss = () => { globalThis.gc(); return process.memoryUsage().rss }
    for (let i = 0; i < 20; i++) agentsmd.chainSync(${JSON.stringify(dir)}, options)
    const before = rss()
    for (let i = 0; i < 400; i++) {
      const result = agentsmd.chainSync(${JSON.stringify(dir)}, options)
      if (result.files[0].content.length !== ${MIB}) throw new Error('wrong content')
    }
    console.log(JSON.stringify({ before, after: rss() }))
  `
  const out = spawnSync(process.execPath, ['--expose-gc', '-e', source], { encoding: 'utf8' })
  assert.equal(out.status, 0, out.stderr)
  const { before, after } = JSON.parse(out.stdout)
  // 400 results of 1 MiB each, all held, would be 400 MiB; one held at a time is 1 MiB.
  const grown = (after - before) / MIB
  assert.ok(grown < 64, `RSS grew by ${grown.toFixed(1)} MiB over 400 calls of 1 MiB each`)
})
