// The same bytes as the command line on the golden fixtures of testdata/: the fixture tree's
// rendering (testdata/golden/render.txt), through the OS and through a custom file system, the
// chain's options of §1 on that tree, and the chain in each structure fixture's directory.

import assert from 'node:assert/strict'
import fs from 'node:fs'
import path from 'node:path'
import { test } from 'node:test'

import { agentsmd, cliError, plain, sameAsCli, TESTDATA } from './support.mjs'

const tree = path.join(TESTDATA, 'tree')
const leaf = path.join(tree, 'a', 'b', 'c&"d"', 'new.txt')
const user = path.join(TESTDATA, 'extra', 'user.md')
const override = ['AGENTS.override.md', 'AGENTS.md']
const golden = fs.readFileSync(path.join(TESTDATA, 'golden', 'render.txt'))

/** The golden rendering with the tree's path before each path, as §2 escapes it. */
function goldenAt(prefix) {
  const escaped = prefix
    .replaceAll('&', '&amp;')
    .replaceAll('<', '&lt;')
    .replaceAll('>', '&gt;')
    .replaceAll('"', '&quot;')
  return golden.toString('utf8').replaceAll('path="', `path="${escaped}/`)
}

test('the fixture tree renders as testdata/golden/render.txt, and as the command line prints it', async () => {
  const result = await sameAsCli(leaf, { root: tree, names: override })
  assert.equal(agentsmd.renderBytes(result.files).toString('utf8'), goldenAt(tree))
  assert.equal(agentsmd.render(result.files), goldenAt(tree))
  assert.deepEqual(
    result.files.map((f) => [f.path, f.source]),
    [
      [path.join(tree, 'AGENTS.md'), 'chain'],
      [path.join(tree, 'a', 'AGENTS.override.md'), 'chain'],
      [path.join(tree, 'a', 'b', 'c&"d"', 'AGENTS.md'), 'chain'],
    ],
  )
  assert.deepEqual(result.omitted, [
    {
      path: path.join(tree, 'a', 'AGENTS.md'),
      size: 34,
      reason: 'shadowed',
      by: path.join(tree, 'a', 'AGENTS.override.md'),
    },
  ])
  assert.deepEqual(result.imports, [])
  assert.deepEqual(result.probes, [])
})

/** testdata/tree as a custom file system, answered synchronously from node:fs. */
const treeFs = {
  list(dir) {
    try {
      return fs.readdirSync(path.join(tree, dir))
    } catch (err) {
      if (err.code === 'ENOENT') return null
      throw err
    }
  },
  stat(name) {
    try {
      const stat = fs.statSync(path.join(tree, name))
      return { kind: stat.isFile() ? 'file' : stat.isDirectory() ? 'dir' : 'other', size: stat.size }
    } catch (err) {
      if (err.code === 'ENOENT') return null
      throw err
    }
  },
  read(name, limit) {
    try {
      const content = fs.readFileSync(path.join(tree, name))
      return content.subarray(0, limit)
    } catch (err) {
      if (err.code === 'ENOENT') return null
      throw err
    }
  },
}

test('the fixture tree through a custom file system renders as the golden file, byte for byte', async () => {
  const options = { fs: treeFs, names: override }
  const sync = agentsmd.chainSync('a/b/c&"d"/new.txt', options)
  const async = await agentsmd.chain('a/b/c&"d"/new.txt', options)
  for (const result of [sync, async]) {
    assert.deepEqual(
      result.files.map((f) => f.path),
      ['AGENTS.md', 'a/AGENTS.override.md', 'a/b/c&"d"/AGENTS.md'],
    )
    assert.deepEqual(result.omitted, [
      { path: 'a/AGENTS.md', size: 34, reason: 'shadowed', by: 'a/AGENTS.override.md' },
    ])
    assert.deepEqual(agentsmd.renderBytes(result.files), golden)
    assert.equal(agentsmd.render(result.files), golden.toString('utf8'))
  }
})

// Each case says what it is for (kept whole, ended by a budget), so that agreeing with the
// command line is never vacuous.
const cases = [
  ['the whole chain with an extra file', leaf, { names: override, root: tree, extra: [user] }, 'whole'],
  ['a budget that runs out', leaf, { names: override, root: tree, extra: [user], budget: 64 }, 'budget'],
  ['a budget the extra file spends', leaf, { names: override, root: tree, extra: [user], budget: 1 }, 'budget'],
  ['a rendered budget that runs out', leaf, { names: override, root: tree, extra: [user], renderedBudget: 200 }, 'budget'],
  ['default names', leaf, { root: tree }, 'whole'],
  ['a directory as the path', path.join(tree, 'a'), { names: override, root: tree }, 'whole'],
  ['a missing extra file', leaf, { root: tree, extra: [path.join(TESTDATA, 'extra', 'missing.md'), user] }, 'whole'],
  ['a max-bytes every file fits', leaf, { names: override, root: tree, maxBytes: 64 }, 'whole'],
  ['a path that is itself a file', path.join(tree, 'a', 'b', 'c&"d"', 'main.go'), { root: tree }, 'whole'],
]

for (const [name, file, options, outcome] of cases) {
  test(`the same bytes as the command line: ${name}`, async () => {
    const result = await sameAsCli(file, options)
    const last = result.omitted.at(-1)
    assert.equal(last?.reason === 'over_budget' ? 'budget' : 'whole', outcome)
    assert.ok(result.files.length > 0 || outcome === 'budget')
  })
}

test('undefined, null, 0, \'\' and [] are each an option\'s default, as the command line\'s flags left out', async () => {
  const zero = {
    names: [],
    extra: null,
    maxBytes: 0,
    budget: 0,
    renderedBudget: undefined,
    confine: false,
    fragments: [],
    overlays: null,
    imports: false,
    importDepth: 0,
    maxImports: 0,
    nearest: false,
    report: false,
  }
  const expected = plain(await sameAsCli(leaf, { root: tree }))
  assert.deepEqual(plain(agentsmd.chainSync(leaf, { root: tree, ...zero })), expected)
  assert.deepEqual(plain(await agentsmd.chain(leaf, { root: tree, ...zero })), expected)
  // The default root is the file system's.
  assert.deepEqual(plain(agentsmd.chainSync(leaf, { root: '' })), plain(agentsmd.chainSync(leaf, { root: '/' })))
  assert.deepEqual(plain(agentsmd.chainSync(leaf)), plain(await sameAsCli(leaf, { root: '/' })))
})

test('many chains at once, off the main thread, each the same result', async () => {
  const options = { root: tree, names: override, extra: [user] }
  const expected = plain(agentsmd.chainSync(leaf, options))
  const results = await Promise.all(Array.from({ length: 64 }, () => agentsmd.chain(leaf, options)))
  for (const result of results) assert.deepEqual(plain(result), expected)
})

test('a file over max-bytes fails as the command line fails, naming the file', async () => {
  const options = { root: tree, maxBytes: 12 }
  const said = cliError([leaf, '--root', tree, '--max-bytes', '12'])
  for (const call of [() => agentsmd.chainSync(leaf, options), () => agentsmd.chain(leaf, options)]) {
    await assert.rejects(async () => call(), (err) => {
      assert.ok(err instanceof agentsmd.AgentsmdError)
      assert.equal(err.kind, 'TooLarge')
      // The root's file (11 bytes) fits; a/AGENTS.md (34 bytes) is the first that does not.
      assert.equal(err.path, path.join(tree, 'a', 'AGENTS.md'))
      assert.ok(err.message.includes(said), `${err.message}\ndoes not say\n${said}`)
      return true
    })
  }
})

const structureCases = fs.readdirSync(path.join(TESTDATA, 'golden', 'structure'))

for (const name of structureCases) {
  test(`the same bytes as the command line in the structure fixture ${name}`, async () => {
    const dir = path.join(TESTDATA, 'golden', 'structure', name)
    const result = await sameAsCli(path.join(dir, 'skills', 'new.md'), { root: dir })
    assert.deepEqual(result.files.map((f) => f.path), [path.join(dir, 'AGENTS.md')])
    assert.deepEqual(result.files[0].content, fs.readFileSync(path.join(dir, 'AGENTS.md')))
  })
}
