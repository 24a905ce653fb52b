// The options of SPEC.md §5 against the command line on the same trees: fragments, overlays,
// imports (with their provenance), the interpolator's env, nearest and the report's probes.
// Each case also checks what it is for, so that agreeing with the command line is never vacuous.

import assert from 'node:assert/strict'
import fs from 'node:fs'
import path from 'node:path'
import { test } from 'node:test'

import { sameAsCli, tempTree } from './support.mjs'

/** A repository with a file per level, fragments, an overlay and imports. */
function repository(t) {
  const dir = tempTree(t, {
    'repo/AGENTS.md': 'root\n@docs/style.md\n',
    'repo/docs/style.md': 'style & <rules>\n@nested.md\n',
    'repo/docs/nested.md': 'nested',
    'repo/.agents/AGENTS.d/b.md': 'fragment b\n',
    'repo/.agents/AGENTS.d/a.md': 'fragment a\n',
    'repo/.agents/AGENTS.d/.hidden.md': 'hidden\n',
    'repo/.agents/AGENTS.d/notes.txt': 'not markdown\n',
    'repo/svc/AGENTS.md': 'svc ${env:TEAM} ${env:UNSET} ${other}\n@../docs/style.md\n',
    'repo/svc/AGENTS.override.md': 'svc override\n',
    'repo/svc/api/AGENTS.md': '```\n@not/an/import.md\n```\nleaf\n',
    'users/alice/.agents/AGENTS.md': 'alice\n@mine.md\n',
    'users/alice/.agents/mine.md': "alice's own\n",
    'users/alice/.agents/AGENTS.d/z.md': 'alice fragment\n',
  })
  return {
    repo: path.join(dir, 'repo'),
    leaf: path.join(dir, 'repo', 'svc', 'api', 'new.ts'),
    overlay: path.join(dir, 'users', 'alice', '.agents'),
    missingOverlay: path.join(dir, 'users', 'bob', '.agents'),
  }
}

test('fragments follow each directory file, in byte order of name', async (t) => {
  const { repo, leaf } = repository(t)
  const result = await sameAsCli(leaf, { root: repo, fragments: ['.agents/AGENTS.d'] })
  assert.deepEqual(
    result.files.map((f) => [path.relative(repo, f.path), f.source]),
    [
      ['AGENTS.md', 'chain'],
      ['.agents/AGENTS.d/a.md', 'fragment'],
      ['.agents/AGENTS.d/b.md', 'fragment'],
      ['svc/AGENTS.md', 'chain'],
      ['svc/api/AGENTS.md', 'chain'],
    ],
  )
})

test('overlays come last, a missing one is skipped, and a repeated one is a duplicate', async (t) => {
  const { repo, leaf, overlay, missingOverlay } = repository(t)
  const result = await sameAsCli(leaf, {
    root: repo,
    fragments: ['AGENTS.d'],
    overlays: [missingOverlay, overlay, overlay],
  })
  assert.deepEqual(
    result.files.slice(-2).map((f) => [f.path, f.source]),
    [
      [path.join(overlay, 'AGENTS.md'), 'overlay'],
      [path.join(overlay, 'AGENTS.d', 'z.md'), 'overlay'],
    ],
  )
  assert.ok(result.omitted.some((o) => o.reason === 'duplicate'))
})

test('imports expand, with their provenance, and a duplicate import expands to nothing', async (t) => {
  const { repo, leaf, overlay } = repository(t)
  const result = await sameAsCli(leaf, { root: repo, imports: true, overlays: [overlay] })
  assert.equal(
    result.files[0].content.toString('utf8'),
    'root\nstyle & <rules>\nnested\n',
  )
  assert.deepEqual(
    result.imports.map((i) => [path.relative(repo, i.path), i.line, i.depth, i.duplicate]),
    [
      ['docs/style.md', 2, 1, false],
      ['docs/nested.md', 2, 2, false],
      ['docs/style.md', 2, 1, true],
      ['../users/alice/.agents/mine.md', 2, 1, false],
    ],
  )
  assert.ok(result.files.some((f) => f.content.includes('@not/an/import.md')), 'code is not scanned')
})

test('import depth and the number of imports are the command line\'s', async (t) => {
  const { repo, leaf } = repository(t)
  await sameAsCli(leaf, { root: repo, imports: true, importDepth: 2, maxImports: 3 })
})

test('env replaces only the names given', async (t) => {
  const { repo, leaf } = repository(t)
  const result = await sameAsCli(leaf, {
    root: repo,
    names: ['AGENTS.md'],
    env: { TEAM: 'payments & <co>' },
  })
  assert.equal(
    result.files[1].content.toString('utf8'),
    'svc payments & <co> ${env:UNSET} ${other}\n@../docs/style.md\n',
  )
})

test('nearest keeps the last directory file; the others are superseded, shadowed ones stay shadowed', async (t) => {
  const { repo, leaf } = repository(t)
  const result = await sameAsCli(leaf, {
    root: repo,
    names: ['AGENTS.override.md', 'AGENTS.md'],
    nearest: true,
    fragments: ['.agents/AGENTS.d'],
  })
  assert.deepEqual(
    result.files.map((f) => f.source),
    ['fragment', 'fragment', 'chain'],
  )
  assert.deepEqual(
    result.omitted.map((o) => [path.relative(repo, o.path), o.reason]),
    [
      ['AGENTS.md', 'superseded'],
      ['svc/AGENTS.override.md', 'superseded'],
      ['svc/AGENTS.md', 'shadowed'],
    ],
  )
})

test('report lists every place looked at', async (t) => {
  const { repo, leaf, overlay, missingOverlay } = repository(t)
  const result = await sameAsCli(leaf, {
    root: repo,
    names: ['AGENTS.override.md', 'AGENTS.md'],
    extra: [path.join(repo, 'missing.md')],
    fragments: ['.agents/AGENTS.d'],
    overlays: [overlay, missingOverlay],
    imports: true,
    report: true,
  })
  const outcomes = new Set(result.probes.map((p) => p.outcome))
  for (const outcome of ['included', 'shadowed', 'not_found', 'listed', 'imported']) {
    assert.ok(outcomes.has(outcome), `a probe ${outcome}`)
  }
  assert.equal(result.probes[0].path, path.join(repo, 'missing.md'))
})

test('budgets are spent across every source, in order', async (t) => {
  const { repo, leaf, overlay } = repository(t)
  for (const budget of [1, 20, 40, 80]) {
    await sameAsCli(leaf, {
      root: repo,
      fragments: ['.agents/AGENTS.d'],
      overlays: [overlay],
      imports: true,
      budget,
      report: true,
    })
  }
  const result = await sameAsCli(leaf, {
    root: repo,
    fragments: ['.agents/AGENTS.d'],
    overlays: [overlay],
    renderedBudget: 300,
  })
  assert.equal(result.omitted.at(-1).reason, 'over_budget')
})

test('confine: a link out of root is omitted as escapes, as the command line omits it', async (t) => {
  const dir = tempTree(t, { 'outside/AGENTS.md': 'secret\n', 'repo/AGENTS.md': 'root\n', 'repo/sub/': '' })
  const repo = path.join(dir, 'repo')
  fs.symlinkSync('../../outside/AGENTS.md', path.join(repo, 'sub', 'AGENTS.md'))
  const result = await sameAsCli(path.join(repo, 'sub', 'x'), { root: repo, confine: true, report: true })
  assert.deepEqual(result.omitted.map((o) => o.reason), ['escapes'])
  assert.ok(!result.files.some((f) => f.content.includes('secret')))
})
