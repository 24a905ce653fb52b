// The async calls whose options hold JavaScript callbacks share a bounded pool of threads:
// CALLBACK_THREADS at most, however many calls run at once; a call waits for a thread, and
// never fails for want of one.

import assert from 'node:assert/strict'
import fs from 'node:fs'
import { test } from 'node:test'

import { agentsmd, inChild } from './support.mjs'

test('CALLBACK_THREADS is a small positive whole number', () => {
  assert.ok(Number.isSafeInteger(agentsmd.CALLBACK_THREADS) && agentsmd.CALLBACK_THREADS > 0)
})

test('4,000 chains at once with async callbacks all succeed, on at most CALLBACK_THREADS threads', (t) => {
  if (!fs.existsSync('/proc/self/task')) {
    t.skip('counts threads in /proc/self/task (Linux)')
    return
  }
  const out = inChild(`
    const fsp = await import('node:fs/promises')
    const threads = () => fsp.readdir('/proc/self/task').then((tasks) => tasks.length)
    const answer = (value) => new Promise((resolve) => setImmediate(() => resolve(value)))
    let most = 0
    const fs = {
      async list(dir) {
        most = Math.max(most, await threads())
        return answer(dir === '.' ? ['AGENTS.md', 'a'] : dir === 'a' ? ['AGENTS.md'] : null)
      },
      stat: (name) => answer(name.endsWith('AGENTS.md') ? { kind: 'file', size: 2 } : name === '.' || name === 'a' ? { kind: 'dir', size: 0 } : null),
      read: () => answer(Buffer.from('x\\n')),
    }
    // Node's own threads, its pool's included, before any call of ours.
    await Promise.all(Array.from({ length: 8 }, () => fsp.stat('.')))
    await agentsmd.chain('.', {})
    const own = await threads()
    const bound = agentsmd.CALLBACK_THREADS ?? 16
    const results = await Promise.allSettled(Array.from({ length: 4000 }, () => agentsmd.chain('a', { fs })))
    const failed = results.filter((r) => r.status === 'rejected' || r.value.files.length !== 2)
    console.log(JSON.stringify({ own, most, bound, failed: failed.length, first: String(failed[0]?.reason ?? '') }))
  `, 120000)
  assert.equal(out.signal, null, out.stderr)
  assert.equal(out.status, 0, out.stderr)
  const { own, most, bound, failed, first } = JSON.parse(out.stdout)
  assert.equal(failed, 0, `${failed} chains failed: ${first}`)
  assert.ok(most <= own + bound, `${most} threads at most, against Node's ${own} and the bound ${bound}`)
})
