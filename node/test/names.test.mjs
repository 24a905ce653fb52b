// SPEC.md §9: names of several elements and `allNames`, against the command line on the same
// trees, from the OS and from a custom file system.

import assert from 'node:assert/strict'
import path from 'node:path'
import { test } from 'node:test'

import agentsmd from '../index.js'
import { sameAsCli, tempTree } from './support.mjs'

test('§9 a name of several elements names the file below each directory', async (t) => {
  const dir = tempTree(t, {
    'AGENTS.md': 'agents\n',
    '.github/copilot-instructions.md': 'root copilot\n',
    'a/.github/copilot-instructions.md': 'a copilot\n',
    'a/b/.github': 'a file, not a directory\n',
  })
  const names = ['.github/copilot-instructions.md', 'AGENTS.md']
  const result = await sameAsCli(path.join(dir, 'a', 'b', 'x.ts'), { root: dir, names, report: true })
  assert.deepEqual(
    result.files.map((f) => f.path),
    [path.join(dir, '.github/copilot-instructions.md'), path.join(dir, 'a/.github/copilot-instructions.md')],
  )
  assert.deepEqual(result.omitted.map((o) => [o.path, o.reason, o.by]), [
    [path.join(dir, 'AGENTS.md'), 'shadowed', path.join(dir, '.github/copilot-instructions.md')],
  ])
  const probe = result.probes.find((p) => p.path === path.join(dir, 'a/b/.github/copilot-instructions.md'))
  assert.equal(probe?.outcome, 'not_found')
})

test('§9 allNames includes every name a directory has, in names order', async (t) => {
  const dir = tempTree(t, {
    'CLAUDE.md': 'root\n',
    'CLAUDE.local.md': 'root local\n',
    'a/.claude/CLAUDE.md': 'a nested\n',
    'a/CLAUDE.local.md': 'a local\n',
  })
  const names = ['CLAUDE.md', '.claude/CLAUDE.md', 'CLAUDE.local.md']
  const all = await sameAsCli(path.join(dir, 'a', 'x'), { root: dir, names, allNames: true })
  assert.deepEqual(all.files.map((f) => f.content.toString()), ['root\n', 'root local\n', 'a nested\n', 'a local\n'])
  assert.deepEqual(all.omitted, [])
  const nearest = await sameAsCli(path.join(dir, 'a', 'x'), { root: dir, names, allNames: true, nearest: true })
  assert.deepEqual(nearest.files.map((f) => f.content.toString()), ['a nested\n', 'a local\n'])
  const by = path.join(dir, 'a/.claude/CLAUDE.md')
  assert.deepEqual(nearest.omitted.map((o) => [o.reason, o.by]), [['superseded', by], ['superseded', by]])
})

test('§9 a name of several elements through a custom file system', async () => {
  const files = new Map([['.claude/CLAUDE.md', 'root\n'], ['a/.claude/CLAUDE.md', 'a\n']])
  const dirs = new Map([['.', ['.claude', 'a']], ['.claude', ['CLAUDE.md']], ['a', ['.claude']], ['a/.claude', ['CLAUDE.md']]])
  const fs = {
    list: (dir) => dirs.get(dir) ?? null,
    stat: (name) => (files.has(name) ? { kind: 'file', size: files.get(name).length } : dirs.has(name) ? { kind: 'dir' } : null),
    read: (name) => (files.has(name) ? Buffer.from(files.get(name)) : null),
  }
  const result = agentsmd.chainSync('a', { fs, names: ['.claude/CLAUDE.md'] })
  assert.deepEqual(result.files.map((f) => f.path), ['.claude/CLAUDE.md', 'a/.claude/CLAUDE.md'])
})

test('§9 a name with an empty, "." or ".." element is InvalidArgument', () => {
  for (const name of ['a//b', './b', 'a/..', '/a', 'a/']) {
    assert.throws(() => agentsmd.chainSync('.', { names: [name] }), (err) => err.kind === 'InvalidArgument', name)
  }
})
