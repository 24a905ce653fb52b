// SPEC §12 through the package: `options.preset` and `options.home` in chain, chainSync and
// Session, held to the command line. On a repository (a .git directory, nested files, a file
// Codex drops as whitespace only and one it cuts at 32 KiB, Claude Code's files with an import
// and a rule) and a home holding each product's global files, `chainSync(path, { preset, home })`
// is `agentsmd PATH --as NAME --home HOME --json`, and `Result.rendered` its stdout, for every
// preset; an unknown preset is an InvalidArgument error.

import assert from 'node:assert/strict'
import fs from 'node:fs'
import path from 'node:path'
import { test } from 'node:test'

import {
  PACKAGE, agentsmd, cliJson, cliOk, fromJson, plain, rejectsKind, tempTree, throwsKind,
} from './support.mjs'

/** Every preset the command line has, as `agentsmd --as list` names them. */
const PRESETS = cliOk(['--as', 'list'])
  .toString('utf8')
  .split('\n')
  .filter((line) => line !== '')
  .map((line) => line.split('\t')[0])

/** The repository and the home of every test here. */
function presetTree(t) {
  const repo = tempTree(t, {
    '.git/': '',
    'AGENTS.md': 'root rules\n',
    'CLAUDE.md': 'Claude root.\n@docs/style.md\n',
    'docs/style.md': 'Use tabs.\n',
    '.claude/rules/always.md': 'Always.\n',
    'GEMINI.md': 'Gemini root.\n',
    '.goosehints': 'Goose root.\n',
    'mid/AGENTS.md': '  \n\t\n',
    'mid/CLAUDE.md': 'Claude mid.\n',
    'mid/sub/AGENTS.md': '0123456789abcdef'.repeat(2500),
    'mid/sub/CLAUDE.local.md': 'Local.\n',
    'mid/sub/.cursorrules': 'Cursor rules.\n',
  })
  const home = tempTree(t, {
    '.codex/AGENTS.md': 'global codex\n',
    '.claude/CLAUDE.md': 'global claude\n',
    '.gemini/GEMINI.md': 'global gemini\n',
    '.config/goose/.goosehints': 'global goose\n',
    '.config/opencode/AGENTS.md': 'global opencode\n',
    '.pi/agent/AGENTS.md': 'global pi\n',
  })
  return { repo, home }
}

test('§12: each preset is --as --json\'s files and omitted, rendered its stdout', async (t) => {
  const { repo, home } = presetTree(t)
  // What the results compared held, so that agreeing is never vacuous.
  const seen = new Map()
  const count = (what) => seen.set(what, (seen.get(what) ?? 0) + 1)
  for (const preset of PRESETS) {
    for (const at of [path.join(repo, 'mid', 'sub', 'main.rs'), path.join(repo, 'mid'), repo]) {
      const what = `--as ${preset} at ${at}`
      const options = { preset, home }
      const sync = agentsmd.chainSync(at, options)
      const async = await agentsmd.chain(at, options)
      assert.deepEqual(plain(async), plain(sync), `${what}: chain and chainSync agree`)
      assert.equal(async.rendered, sync.rendered, `${what}: chain and chainSync render alike`)
      const args = [at, '--as', preset, '--home', home]
      const object = fromJson(cliJson(args))
      const mine = plain(sync)
      assert.deepEqual(mine.files, object.files, `${what}: files`)
      assert.deepEqual(mine.omitted, object.omitted, `${what}: omitted`)
      assert.equal(typeof sync.rendered, 'string', `${what}: rendered is a string`)
      assert.equal(sync.rendered, cliOk(args).toString('utf8'), `${what}: rendered is the stdout`)
      seen.set(preset, (seen.get(preset) ?? 0) + sync.files.length)
      if (sync.rendered !== '') count(`${preset} rendered`)
      for (const omitted of sync.omitted) count(omitted.reason)
    }
  }
  const wanted = ['codex', 'codex rendered', 'claude', 'claude rendered', 'gemini']
  wanted.push('empty', 'truncated', 'shadowed')
  for (const what of wanted) {
    assert.ok(seen.get(what), `no result compared held ${what}: ${JSON.stringify([...seen])}`)
  }
})

test('§12: the type Preset names every preset of --as list', () => {
  const types = fs.readFileSync(path.join(PACKAGE, 'index.d.ts'), 'utf8')
  const union = types.match(/^export type Preset = (.*)$/m)
  assert.ok(union, 'index.d.ts declares Preset')
  const names = union[1].split(' | ').map((name) => name.replace(/^'(.*)'$/, '$1'))
  assert.deepEqual(names, PRESETS)
  assert.ok(PRESETS.includes('codex') && PRESETS.includes('claude'), PRESETS.join(', '))
})

test('§12: Codex reads the home given, drops the whitespace-only file and cuts at 32 KiB', (t) => {
  const { repo, home } = presetTree(t)
  const at = path.join(repo, 'mid', 'sub', 'main.rs')
  const result = agentsmd.chainSync(at, { preset: 'codex', home })
  assert.deepEqual(
    result.files.map((f) => [f.path, f.source]),
    [
      [path.join(home, '.codex', 'AGENTS.md'), 'extra'],
      [path.join(repo, 'AGENTS.md'), 'chain'],
      [path.join(repo, 'mid', 'sub', 'AGENTS.md'), 'chain'],
    ],
  )
  const kept = 32768 - 'root rules\n'.length
  assert.equal(result.files[2].content.length, kept)
  assert.deepEqual(
    result.omitted.map(({ path, size, reason, by }) => ({ path, size, reason, by })),
    [
      { path: path.join(repo, 'mid', 'AGENTS.md'), size: 5, reason: 'empty', by: null },
      {
        path: path.join(repo, 'mid', 'sub', 'AGENTS.md'),
        size: 40000 - kept,
        reason: 'truncated',
        by: null,
      },
    ],
  )
  const cwd = path.join(repo, 'mid', 'sub')
  assert.ok(
    result.rendered.startsWith(
      `# AGENTS.md instructions for ${cwd}\n\n<INSTRUCTIONS>\nglobal codex\n\n` +
        '--- project-doc ---\n\nroot rules\n',
    ),
    result.rendered.slice(0, 200),
  )
  assert.ok(result.rendered.endsWith('\n</INSTRUCTIONS>'))
  // Without a preset, nothing is rendered for the caller: `render` renders the files.
  assert.equal(agentsmd.chainSync(cwd, { root: repo }).rendered, null)
  assert.equal(agentsmd.chainSync(cwd, { root: repo, preset: '', home }).rendered, null)
})

test('§12: a Claude Code session loads as its chain does', (t) => {
  const { repo, home } = presetTree(t)
  const at = path.join(repo, 'mid', 'sub', 'main.rs')
  const session = new agentsmd.Session({ preset: 'claude', home })
  try {
    const touched = session.touchSync(at)
    const chained = agentsmd.chainSync(at, { preset: 'claude', home })
    assert.deepEqual(touched.files.map((f) => f.path), chained.files.map((f) => f.path))
    assert.ok(chained.files.some((f) => f.path === path.join(home, '.claude', 'CLAUDE.md')))
    assert.equal(touched.rendered, null)
  } finally {
    session.close()
  }
})

test('§12: a Codex session starts as its chain and gives nothing at a read', (t) => {
  const { repo, home } = presetTree(t)
  const at = path.join(repo, 'mid', 'sub', 'main.rs')
  const session = new agentsmd.Session({ preset: 'codex', home })
  try {
    const start = session.touchSync(at)
    assert.ok(start.files.length > 0, 'Codex loads files when it starts')
    const chained = agentsmd.chainSync(at, { preset: 'codex', home })
    assert.deepEqual(plain(start).files, plain(chained).files)
    assert.deepEqual(session.touchSync(path.join(repo, 'mid', 'other.rs')).files, [])
  } finally {
    session.close()
  }
})

test('§12: an unknown preset, or a home that is no string, is InvalidArgument', async (t) => {
  const { repo, home } = presetTree(t)
  for (const preset of ['Codex', 'copilot-x', ' claude', 'codex\0']) {
    const err = throwsKind(() => agentsmd.chainSync(repo, { preset, home }), 'InvalidArgument')
    for (const name of PRESETS) {
      assert.ok(err.message.includes(name), `${err.message} names ${name}`)
    }
    await rejectsKind(agentsmd.chain(repo, { preset, home }), 'InvalidArgument')
    throwsKind(() => new agentsmd.Session({ preset, home }), 'InvalidArgument')
  }
  throwsKind(() => agentsmd.chainSync(repo, { preset: 7, home }), 'InvalidArgument')
  throwsKind(() => agentsmd.chainSync(repo, { preset: 'codex', home: ['x'] }), 'InvalidArgument')
})

test('§12: Copilot loads its documented files, rendered as render renders them', (t) => {
  const repo = tempTree(t, {
    '.git/': '',
    'AGENTS.md': 'root agents\n',
    '.github/copilot-instructions.md': 'repository\n',
    '.github/instructions/go.instructions.md': '---\napplyTo: "**/*.go"\n---\ngo\n',
    '.github/instructions/ts.instructions.md': '---\napplyTo: "**/*.ts"\n---\nts\n',
    'a/AGENTS.md': 'a agents\n',
  })
  const home = tempTree(t, { '.copilot/copilot-instructions.md': 'user\n' })
  const result = agentsmd.chainSync(path.join(repo, 'a', 'main.go'), { preset: 'copilot', home })
  // The user's instructions, then from the .git root down each directory's
  // .github/copilot-instructions.md and AGENTS.md, with the root's instructions that apply.
  assert.deepEqual(
    result.files.map((f) => [f.path, f.content.toString('utf8'), f.source]),
    [
      [path.join(home, '.copilot', 'copilot-instructions.md'), 'user\n', 'extra'],
      [path.join(repo, '.github', 'copilot-instructions.md'), 'repository\n', 'chain'],
      [path.join(repo, 'AGENTS.md'), 'root agents\n', 'chain'],
      [path.join(repo, '.github', 'instructions', 'go.instructions.md'), 'go\n', 'rule'],
      [path.join(repo, 'a', 'AGENTS.md'), 'a agents\n', 'chain'],
    ],
  )
  assert.ok(result.rendered, 'rendered is not empty')
  assert.equal(result.rendered, agentsmd.render(result.files))
})

test('§12: a session of Cursor or Windsurf gives each file and glob rule as reached', (t) => {
  const repo = tempTree(t, {
    '.git/': '',
    'AGENTS.md': 'root\n',
    'a/AGENTS.md': 'a\n',
    'a/.cursor/rules/go.mdc': '---\nglobs: "*.go"\n---\ncursor go\n',
    'a/.windsurf/rules/go.md': '---\ntrigger: glob\nglobs: "*.go"\n---\nwindsurf go\n',
  })
  const home = tempTree(t)
  const rules = {
    cursor: [path.join(repo, 'a', '.cursor', 'rules', 'go.mdc'), 'cursor go\n', 'rule'],
    windsurf: [path.join(repo, 'a', '.windsurf', 'rules', 'go.md'), 'windsurf go\n', 'rule'],
  }
  const rows = (result) => result.files.map((f) => [f.path, f.content.toString('utf8'), f.source])
  for (const preset of ['cursor', 'windsurf']) {
    // The session finds the product's project, the nearest .git, at its first touch.
    const session = new agentsmd.Session({ preset, home })
    try {
      assert.deepEqual(
        rows(session.touchSync(path.join(repo, 'README.md'))),
        [[path.join(repo, 'AGENTS.md'), 'root\n', 'chain']],
        `${preset}: the first touch`,
      )
      assert.deepEqual(
        rows(session.touchSync(path.join(repo, 'a', 'main.go'))),
        [[path.join(repo, 'a', 'AGENTS.md'), 'a\n', 'chain'], rules[preset]],
        `${preset}: the touch of a/main.go`,
      )
      assert.deepEqual(rows(session.touchSync(path.join(repo, 'a', 'other.go'))), [], preset)
    } finally {
      session.close()
    }
  }
})
