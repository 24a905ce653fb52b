// index.d.ts, the package's published types, is what napi build writes from the addon's Rust
// items (node/src) after index.header.d.ts: no copy kept by hand. These tests hold it to
// index.js, the surface a program imports, so that neither can drift from the other: every value
// the types declare is exported, and every export is declared. (examples/typed.ts, type-checked
// by tests/node.rs and tests/install/npm, holds the declarations to the way the API is used,
// and tsc, which checks index.d.ts too, that every type it names is declared.)

import assert from 'node:assert/strict'
import fs from 'node:fs'
import path from 'node:path'
import { test } from 'node:test'

import { PACKAGE, agentsmd } from './support.mjs'

const types = fs.readFileSync(path.join(PACKAGE, 'index.d.ts'), 'utf8')

test('index.d.ts is the one napi build writes, headed by index.header.d.ts', () => {
  const header = fs.readFileSync(path.join(PACKAGE, 'index.header.d.ts'), 'utf8')
  assert.ok(types.startsWith(header), 'index.d.ts does not start with index.header.d.ts: run napi build')
  // The exports' declarations follow it, generated from the Rust items.
  assert.match(types.slice(header.length), /export declare function chain\(path: string, options\?: Options\): Promise<Result>/)
})

test('every value index.d.ts declares is what index.js exports, and no more', () => {
  const declared = new Set(
    [...types.matchAll(/^export declare (?:function|const|class) (\w+)/gm)].map((match) => match[1]),
  )
  const exported = new Set(Object.keys(agentsmd).filter((name) => name !== 'default'))
  assert.deepEqual([...exported].sort(), [...declared].sort())
})

