// Sessions (SPEC.md §10): `new Session(options)`, `touch` (a Promise) and `touchSync`, each
// giving what newly applies — every file once, every file left out reported once — with the
// options' custom `fs` and `transform` serving every touch. Held to the command line's
// `--touch` where it can say the same.

import assert from 'node:assert/strict'
import { execFileSync, spawnSync } from 'node:child_process'
import { cpSync, readFileSync, symlinkSync } from 'node:fs'
import path from 'node:path'
import { test } from 'node:test'

import { PACKAGE, agentsmd, cliJson, fromJson, memoryFs, plain, rejectsKind, tempTree, throwsKind, within } from './support.mjs'

const { Session } = agentsmd

const tree = {
  'AGENTS.md': 'root\n',
  'a/AGENTS.md': 'a\n',
  'a/b/AGENTS.md': 'b\n',
  'c/AGENTS.md': 'c\n',
  'c/d/AGENTS.md': 'd\n',
}

const paths = (result) => result.files.map((file) => file.path)

/** The `--touch` session of the command line, one `plain` result per touch. */
function cliTouches(root, touched, flags = []) {
  const json = cliJson([touched[0], '--root', root, ...flags, '--touch', ...touched.slice(1), '--json'])
  return json.touches.map((touch) => plain(fromJson(touch)))
}

test('§10 the first touch is exactly chainSync(path)', async (t) => {
  const root = tempTree(t, tree)
  const at = path.join(root, 'a', 'b', 'x.ts')
  const options = { root, budget: 4, report: true }
  const expected = plain(agentsmd.chainSync(at, options))
  assert.deepEqual(plain(new Session(options).touchSync(at)), expected)
  assert.deepEqual(plain(await within(10000, 'touch', new Session(options).touch(at))), expected)
})

test('§10 a later touch gives only the files no earlier touch gave', async (t) => {
  const root = tempTree(t, tree)
  const session = new Session({ root })
  assert.deepEqual(paths(await session.touch(path.join(root, 'a', 'x'))), [
    path.join(root, 'AGENTS.md'),
    path.join(root, 'a', 'AGENTS.md'),
  ])
  assert.deepEqual(paths(session.touchSync(path.join(root, 'a', 'b', 'y'))), [path.join(root, 'a', 'b', 'AGENTS.md')])
  assert.deepEqual(paths(await session.touch(path.join(root, 'a', 'b', 'z'))), [])
  assert.deepEqual(paths(session.touchSync(path.join(root, 'c', 'd'))), [
    path.join(root, 'c', 'AGENTS.md'),
    path.join(root, 'c', 'd', 'AGENTS.md'),
  ])
})

test('§10 a path outside root gives an empty delta, not an error', async (t) => {
  const root = tempTree(t, tree)
  const session = new Session({ root: path.join(root, 'a') })
  const outside = path.join(root, 'c', 'x')
  for (const result of [session.touchSync(outside), await session.touch(outside)]) {
    assert.deepEqual(plain(result), { files: [], omitted: [], imports: [], probes: [], available: [], warnings: [] })
  }
  assert.deepEqual(paths(session.touchSync(path.join(root, 'a', 'x'))), [path.join(root, 'a', 'AGENTS.md')])
})

test('§10 nearest is an InvalidArgument error with a session', () => {
  const error = throwsKind(() => new Session({ nearest: true }), 'InvalidArgument')
  assert.match(error.message, /nearest/)
})

test('§10 omitted once: a file left out is reported by the first delta that finds it', async (t) => {
  const root = tempTree(t, tree)
  const session = new Session({ root, budget: 5 })
  const first = session.touchSync(path.join(root, 'a', 'x'))
  assert.deepEqual(paths(first), [path.join(root, 'AGENTS.md')])
  assert.deepEqual(
    first.omitted.map((o) => [o.path, o.reason]),
    [[path.join(root, 'a', 'AGENTS.md'), 'over_budget']],
  )
  const second = await session.touch(path.join(root, 'a', 'b', 'y'))
  assert.deepEqual(
    second.omitted.map((o) => [o.path, o.reason]),
    [[path.join(root, 'a', 'b', 'AGENTS.md'), 'over_budget']],
  )
  assert.deepEqual(plain(session.touchSync(path.join(root, 'a', 'b', 'z'))).omitted, [])
})

test('§10 touch and touchSync give the same deltas, as the command line does', async (t) => {
  const root = tempTree(t, { ...tree, 'a/inc.md': 'inc\n', 'c/AGENTS.md': 'c\n@../a/inc.md\n' })
  const touched = [root, path.join(root, 'a', 'x'), path.join(root, 'c', 'd', 'y'), path.join(root, 'a', 'b')]
  const options = { root, imports: true, report: true, budget: 9 }
  const sync = new Session(options)
  const async = new Session(options)
  const expected = cliTouches(root, touched, ['--imports', '--explain', '--budget', '9'])
  for (const [i, at] of touched.entries()) {
    assert.deepEqual(plain(sync.touchSync(at)), expected[i], `touchSync ${at}`)
    assert.deepEqual(plain(await async.touch(at)), expected[i], `touch ${at}`)
  }
})

test('§10 many touches at once on one session give each file once, in the order called', async (t) => {
  const files = {}
  for (let i = 0; i < 40; i++) files[`d${i}/AGENTS.md`] = `${i}\n`
  const root = tempTree(t, { 'AGENTS.md': 'root\n', ...files })
  const session = new Session({ root })
  const touched = Array.from({ length: 40 }, (_, i) => path.join(root, `d${i}`, 'x'))
  const deltas = await within(20000, 'touches', Promise.all([...touched, ...touched].map((at) => session.touch(at))))
  assert.deepEqual(paths(deltas[0]), [path.join(root, 'AGENTS.md'), path.join(root, 'd0', 'AGENTS.md')])
  for (let i = 1; i < 40; i++) assert.deepEqual(paths(deltas[i]), [path.join(root, `d${i}`, 'AGENTS.md')])
  for (const delta of deltas.slice(40)) assert.deepEqual(paths(delta), [])
})

for (const mode of ['sync', 'async']) {
  test(`§10 a custom fs and a transform (answering ${mode}) serve every touch`, async () => {
    const fs = memoryFs({ 'AGENTS.md': 'root\n', 'a/AGENTS.md': 'a\n', 'b/AGENTS.md': 'b\n', 'b/c/AGENTS.md': 'c\n' }, mode)
    const seen = []
    const transform = (file, content) => {
      seen.push(file)
      const upper = content.toString('utf8').toUpperCase()
      return mode === 'async' ? Promise.resolve(upper) : upper
    }
    const session = new Session({ fs, transform })
    const text = (result) => result.files.map((f) => [f.path, f.content.toString('utf8')])
    assert.deepEqual(text(await within(10000, 'touch', session.touch('a/x'))), [
      ['AGENTS.md', 'ROOT\n'],
      ['a/AGENTS.md', 'A\n'],
    ])
    const concurrent = [session.touch('b/x'), session.touch('b/c/y'), session.touch('a/z')]
    assert.deepEqual((await within(10000, 'touches', Promise.all(concurrent))).map(text), [
      [['b/AGENTS.md', 'B\n']],
      [['b/c/AGENTS.md', 'C\n']],
      [],
    ])
    assert.deepEqual(seen, ['AGENTS.md', 'a/AGENTS.md', 'b/AGENTS.md', 'b/c/AGENTS.md'])
    if (mode === 'sync') {
      const again = new Session({ fs, transform })
      assert.deepEqual(text(again.touchSync('b/c/x')), [
        ['AGENTS.md', 'ROOT\n'],
        ['b/AGENTS.md', 'B\n'],
        ['b/c/AGENTS.md', 'C\n'],
      ])
      assert.deepEqual(text(await again.touch('a/y')), [['a/AGENTS.md', 'A\n']])
    } else {
      // touchSync cannot wait for a Promise: an error, and the session goes on as before it.
      throwsKind(() => session.touchSync('c/x'), 'Fs')
    }
  })
}

test('§10 a failing touch leaves the session as it was', async () => {
  let failing = true
  const memory = memoryFs({ 'AGENTS.md': 'root\n', 'a/AGENTS.md': 'a\n' })
  const fs = {
    ...memory,
    read(name, limit) {
      if (failing && name === 'a/AGENTS.md') throw new Error('the network is down')
      return memory.read(name, limit)
    },
  }
  const session = new Session({ fs })
  assert.deepEqual(paths(session.touchSync('.')), ['AGENTS.md'])
  await rejectsKind(session.touch('a/x'), 'Fs')
  throwsKind(() => session.touchSync('a/x'), 'Fs')
  failing = false
  assert.deepEqual(paths(await session.touch('a/x')), ['a/AGENTS.md'])
})

test('§10 touchSync while a touch calls the callbacks is refused, and a closed session touches nothing', async () => {
  const memory = memoryFs({ 'AGENTS.md': 'root\n' })
  let session
  let inner
  const fs = {
    ...memory,
    list(dir) {
      if (inner === undefined) {
        try {
          session.touchSync('.')
        } catch (error) {
          inner = error
        }
      }
      return memory.list(dir)
    },
  }
  session = new Session({ fs })
  assert.deepEqual(paths(await within(10000, 'touch', session.touch('.'))), ['AGENTS.md'])
  assert.ok(inner instanceof agentsmd.AgentsmdError && inner.kind === 'InvalidArgument', String(inner))
  session.close()
  session.close()
  throwsKind(() => session.touchSync('.'), 'InvalidArgument')
  await rejectsKind(session.touch('.'), 'InvalidArgument')
})

test('§10 options.signal aborts a touch, and the session goes on as before it', async () => {
  const memory = memoryFs({ 'AGENTS.md': 'root\n', 'a/AGENTS.md': 'a\n' }, 'async')
  let stuck = true
  let asked
  const waiting = new Promise((resolve) => {
    asked = resolve
  })
  const fs = {
    ...memory,
    list(dir) {
      if (stuck && dir === 'a') {
        asked()
        return new Promise(() => {})
      }
      return memory.list(dir)
    },
  }
  const session = new Session({ fs })
  const controller = new AbortController()
  const pending = session.touch('a/x', { signal: controller.signal })
  // Waits for its turn, after the aborted one.
  const next = session.touch('.')
  await within(10000, 'the touch asking its callback', waiting)
  controller.abort('enough')
  const error = await within(10000, 'the touch aborted', rejectsKind(pending, 'Aborted'))
  assert.equal(error.cause, 'enough')
  stuck = false
  assert.deepEqual(paths(await within(10000, 'the next touch', next)), ['AGENTS.md'])
  await rejectsKind(session.touch('a/y', { signal: AbortSignal.abort() }), 'Aborted')
  assert.deepEqual(paths(await session.touch('a/y', { signal: new AbortController().signal })), ['a/AGENTS.md'])
})

test('§10 docs/node.md shows node/examples/session.mjs and exactly what it prints', (t) => {
  const page = readFileSync(path.join(PACKAGE, '..', 'docs', 'node.md'), 'utf8')
  const section = page.slice(page.indexOf('## Sessions\n'))
  const block = (fence) => {
    const start = section.indexOf(`\`\`\`${fence}\n`) + fence.length + 4
    return section.slice(start, section.indexOf('```\n', start))
  }
  const example = readFileSync(path.join(PACKAGE, 'examples', 'session.mjs'), 'utf8')
  assert.equal(block('js'), example)
  // Run as a product would: `agentsmd` resolved from its node_modules.
  const dir = tempTree(t, { 'node_modules/': '' })
  symlinkSync(PACKAGE, path.join(dir, 'node_modules', 'agentsmd'), 'dir')
  cpSync(path.join(PACKAGE, 'examples', 'session.mjs'), path.join(dir, 'session.mjs'))
  const printed = execFileSync(process.execPath, [path.join(dir, 'session.mjs')], { encoding: 'utf8' })
  assert.equal(printed, block('text'))
})

test('§10 a session releases its fs and transform when closed or collected', () => {
  const source = `
    const agentsmd = require(${JSON.stringify(path.join(PACKAGE, 'index.js'))})
    const collected = new Set()
    const registry = new FinalizationRegistry((name) => collected.add(name))
    function session(name) {
      const fs = {
        list: (dir) => (dir === '.' ? ['AGENTS.md'] : null),
        stat: (name) => (name === 'AGENTS.md' ? { kind: 'file', size: 2 } : null),
        read: () => Buffer.from('a\\n'),
      }
      const transform = (_, content) => content
      registry.register(fs, name)
      registry.register(transform, name + ' transform')
      return new agentsmd.Session({ fs, transform })
    }
    ;(async () => {
      let dropped = session('dropped')
      await dropped.touch('.')
      dropped.touchSync('x')
      dropped = null
      const closed = session('closed')
      await closed.touch('.')
      closed.close()
      const kept = session('kept')
      for (let i = 0; i < 20 && collected.size < 4; i++) {
        globalThis.gc()
        await new Promise((resolve) => setTimeout(resolve, 10))
      }
      console.log([...collected].sort().join(','), kept.touchSync('.').files.length)
    })()
  `
  const out = spawnSync(process.execPath, ['--expose-gc', '-e', source], { encoding: 'utf8', timeout: 20000 })
  assert.equal(out.status, 0, out.stderr)
  assert.equal(out.stdout, 'closed,closed transform,dropped,dropped transform 1\n')
})
