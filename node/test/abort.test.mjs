// A pending callback of an async call (SPEC.md §4, `Aborted`): it never keeps the event loop
// alive by itself, as a pending Promise does not; `options.signal` aborts `chain`, `parse` and
// `parseNearest` with an AgentsmdError of kind `Aborted`, and what the call held is released;
// a worker that ends leaves no call waiting for it.

import assert from 'node:assert/strict'
import { test } from 'node:test'

import { agentsmd, inChild, memoryFs, rejectsKind, within } from './support.mjs'

/**
 * A file system over `files` whose `op` of `name` never settles; `asked` settles when it is
 * called.
 */
function stuckFs(files, op = 'list', name = '.') {
  const fs = memoryFs(files)
  let asked
  fs.asked = new Promise((resolve) => {
    asked = resolve
  })
  const answer = fs[op]
  fs[op] = (...args) => {
    if (args[0] !== name) return answer.apply(fs, args)
    asked()
    return new Promise(() => {})
  }
  return fs
}

const FILES = { 'AGENTS.md': 'root\n', 'a/AGENTS.md': '---\nskills: [x]\n---\n# a\n' }

test('a callback whose Promise never settles does not keep the process alive', () => {
  const out = inChild(`
    const fs = { list: () => new Promise(() => {}), stat: () => null, read: () => null }
    agentsmd.chain('a', { fs }).then(() => console.log('settled'), (err) => console.log('failed', err.message))
    console.log('started')
    process.on('exit', () => console.log('exited'))
  `)
  assert.equal(out.signal, null, `the child was killed, so the pending callback kept it alive:\n${out.stderr}`)
  assert.equal(out.status, 0, out.stderr)
  assert.equal(out.stdout, 'started\nexited\n')
})

test('a callback that answers later still keeps nothing else from finishing', async () => {
  // The loop stays alive while the work runs: the chain settles with no timer of the caller's.
  const fs = memoryFs(FILES, 'async')
  const result = await agentsmd.chain('a', { fs })
  assert.equal(result.files.length, 2)
})

for (const [name, call] of [
  ['chain', (fs, signal) => agentsmd.chain('a', { fs, signal })],
  ['parse', (fs, signal) => agentsmd.parse('a/AGENTS.md', { fs, signal })],
  ['parseNearest', (fs, signal) => agentsmd.parseNearest('a', { fs, signal })],
]) {
  test(`${name}: options.signal aborts a call whose callback never settles`, async () => {
    // parse reads a/AGENTS.md; the walk lists '.'.
    const fs = name === 'parse' ? stuckFs(FILES, 'read', 'a/AGENTS.md') : stuckFs(FILES)
    const controller = new AbortController()
    const pending = call(fs, controller.signal)
    await within(10000, `${name} asking its callback`, fs.asked)
    controller.abort()
    const err = await within(10000, `${name} aborted`, rejectsKind(pending, 'Aborted'))
    assert.match(err.message, /abort/)
  })

  test(`${name}: an aborted signal rejects at once, asking nothing`, async () => {
    const fs = memoryFs(FILES, 'async')
    const err = await rejectsKind(call(fs, AbortSignal.abort('no more')), 'Aborted')
    assert.equal(err.cause, 'no more')
    assert.deepEqual(fs.calls, [])
  })

  test(`${name}: a signal never aborted changes nothing`, async () => {
    const fs = memoryFs(FILES, 'async')
    const controller = new AbortController()
    const plainly = await call(memoryFs(FILES, 'async'), undefined)
    assert.deepEqual(await call(fs, controller.signal), plainly)
    controller.abort()
  })
}

test('options.signal that is no AbortSignal is an InvalidArgument error', async () => {
  for (const signal of [1, 'x', {}, { aborted: false }]) {
    await rejectsKind(agentsmd.chain('.', { fs: memoryFs({}), signal }), 'InvalidArgument')
  }
})

test('aborted calls release their threads: as many calls again as there are threads all run', async () => {
  const stuck = []
  for (let i = 0; i < agentsmd.CALLBACK_THREADS * 2; i++) {
    const fs = stuckFs(FILES)
    const controller = new AbortController()
    stuck.push({ fs, controller, pending: agentsmd.chain('a', { fs, signal: controller.signal }) })
  }
  // Those that got a thread have asked; the rest wait for one.
  await within(10000, 'the first calls asking', Promise.all(stuck.slice(0, agentsmd.CALLBACK_THREADS).map((s) => s.fs.asked)))
  for (const { controller } of stuck) controller.abort()
  for (const { pending } of stuck) await rejectsKind(pending, 'Aborted')
  const results = await within(
    10000,
    'chains after the aborted ones',
    Promise.all(Array.from({ length: agentsmd.CALLBACK_THREADS * 2 }, () => agentsmd.chain('a', { fs: memoryFs(FILES, 'async') }))),
  )
  for (const result of results) assert.equal(result.files.length, 2)
})

test('a worker that ends with its callbacks pending leaves no call waiting: the process ends', () => {
  const out = inChild(`
    const { Worker } = await import('node:worker_threads')
    const index = ${JSON.stringify(new URL('../index.js', import.meta.url).pathname)}
    const worker = new Worker(\`
      const agentsmd = require(\${JSON.stringify(index)})
      const { parentPort } = require('node:worker_threads')
      const fs = { list: () => new Promise(() => {}), stat: () => null, read: () => null }
      let started = 0
      for (let i = 0; i < agentsmd.CALLBACK_THREADS * 2; i++) {
        agentsmd.chain('a', { fs: { ...fs, list: () => { if (++started === agentsmd.CALLBACK_THREADS) parentPort.postMessage('asked'); return new Promise(() => {}) } } })
      }
      setInterval(() => {}, 1000)
    \`, { eval: true, execArgv: [] })
    await new Promise((resolve) => worker.once('message', resolve))
    await worker.terminate()
    // The worker's threads are free again: the main thread's chains each get one.
    const fs = { list: (d) => Promise.resolve(d === '.' ? ['AGENTS.md'] : null), stat: (n) => (n === 'AGENTS.md' ? { kind: 'file', size: 2 } : { kind: 'dir', size: 0 }), read: () => Buffer.from('x\\n') }
    const results = await Promise.all(Array.from({ length: agentsmd.CALLBACK_THREADS * 2 }, () => agentsmd.chain('.', { fs })))
    console.log(results.every((r) => r.files.length === 1) ? 'ok' : 'wrong')
  `)
  assert.equal(out.signal, null, `the child was killed:\n${out.stdout}\n${out.stderr}`)
  assert.equal(out.status, 0, out.stderr)
  assert.equal(out.stdout, 'ok\n')
})
