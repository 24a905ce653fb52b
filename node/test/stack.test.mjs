// A synchronous call whose callback runs out of JavaScript stack — deep recursion of the
// caller's, or chainSync called again and again from its own callbacks — fails with an error the
// caller can catch (a RangeError or an AgentsmdError), and never crashes the process.

import assert from 'node:assert/strict'
import { test } from 'node:test'

import { inChild } from './support.mjs'

/** A file system of one file, AGENTS.md, whose `read` runs `reading` first. */
const FS = `
  const fsReading = (reading) => ({
    list: (dir) => (dir === '.' ? ['AGENTS.md'] : null),
    stat: (name) => (name === 'AGENTS.md' ? { kind: 'file', size: 2 } : name === '.' ? { kind: 'dir', size: 0 } : null),
    read: (name) => { reading(); return Buffer.from('x\\n') },
  })
  const caught = (err) => err instanceof RangeError || err instanceof agentsmd.AgentsmdError
`

/** Runs `source` in a child, which must end by itself, printing `ok`. */
function survives(source) {
  const out = inChild(FS + source)
  assert.equal(out.signal, null, `the child died of ${out.signal}:\n${out.stderr}`)
  assert.equal(out.status, 0, out.stderr)
  assert.equal(out.stdout, 'ok\n')
}

test('chainSync called again from its callback, 1,000 deep: a catchable error, no crash', () => {
  survives(`
    let depth = 0
    const fs = fsReading(() => { if (++depth < 1000) agentsmd.chainSync('.', { fs }) })
    try {
      agentsmd.chainSync('.', { fs })
      console.log('no error at depth ' + depth)
    } catch (err) {
      console.log(caught(err) ? 'ok' : 'uncaught kind: ' + err)
    }
  `)
})

test('chainSync called by a callback at the end of the JavaScript stack: a catchable error, no crash', () => {
  // The callback recurses until the stack is out, then calls chainSync where it is, deepest
  // first: a chain inside a chain's callback, with no room left for the inner callbacks.
  survives(`
    const inner = fsReading(() => {})
    let passed = 0
    function deep() {
      // What fails here for want of stack is the RangeError or the AgentsmdError a caller can
      // catch; that it caught one and did not crash is what the test shows.
      try {
        deep()
      } catch {}
      try {
        agentsmd.chainSync('.', { fs: inner })
        passed++
      } catch {}
    }
    const outer = fsReading(deep)
    agentsmd.chainSync('.', { fs: outer })
    console.log(passed > 0 ? 'ok' : 'never passed')
  `)
})
