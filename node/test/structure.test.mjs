// Structure (SPEC.md §6): parse, parseText, parseNearest and block against the golden blocks of
// testdata/golden/structure/ and against `agentsmd structure` (its stdout and its --json) on the
// same files, with the caller's skills, the block's options, confinement and the nearest file.

import assert from 'node:assert/strict'
import fs from 'node:fs'
import path from 'node:path'
import { test } from 'node:test'

import { agentsmd, cliJson, cliOk, jsonBytes, memoryFs, TESTDATA, tempTree } from './support.mjs'

const GOLDEN = path.join(TESTDATA, 'golden', 'structure')

// Each golden case's block options, as cli/tests/structure.rs gives them to the command line.
const REPO = { where: '/repo/AGENTS.md' }
const goldens = {
  fits: REPO,
  dropped_then_kept: { ...REPO, cap: 2048 },
  whole_file: { ...REPO, cap: 2048 },
  skills_both_sources: REPO,
  requested_skills_header: { ...REPO, cap: 2048, heading: '# Team rules', preamble: 'Follow these.' },
  readme: { cap: 2048, where: 'AGENTS.md' },
}

test('every golden case of testdata/golden/structure/ is listed here', () => {
  assert.deepEqual(fs.readdirSync(GOLDEN).sort(), Object.keys(goldens).sort())
})

/** `agentsmd structure FILE` with the options of parse and of block. */
function structureArgs(file, parseOptions = {}, blockOptions = {}) {
  const args = ['structure', file]
  if (parseOptions.skills) {
    if (parseOptions.skills.length === 0) args.push('--no-skills')
    for (const skill of parseOptions.skills) args.push('--skill', skill)
  }
  for (const key of ['root', 'maxBytes']) {
    if (parseOptions[key] !== undefined) args.push(key === 'root' ? '--root' : '--max-bytes', String(parseOptions[key]))
  }
  if (parseOptions.confine) args.push('--confine')
  for (const key of ['cap', 'heading', 'preamble', 'where']) {
    if (blockOptions[key] !== undefined) args.push(`--${key}`, String(blockOptions[key]))
  }
  return args
}

/**
 * The document and its block against the command line on `file`: the block is its stdout, and
 * requested, skills, unknown, warnings and dropped are its --json's.
 */
function sameAsCli(doc, file, parseOptions, blockOptions, cwd) {
  const args = structureArgs(file, { root: path.dirname(path.resolve(cwd ?? '.', file)), ...parseOptions }, blockOptions)
  const block = agentsmd.block(doc, blockOptions)
  assert.equal(typeof block.block, 'string')
  assert.equal(block.block, cliOk(args, { cwd }).toString('utf8'), 'the block is the stdout')
  const json = cliJson(args, { cwd })
  assert.equal(Buffer.from(block.block).toString('utf8'), jsonBytes(json.block).toString('utf8'))
  assert.deepEqual(
    {
      requested: doc.requested,
      skills: doc.skills.map(({ name, source }) => ({ name, source })),
      unknown: doc.unknown,
      warnings: doc.warnings,
      dropped: block.dropped.map(({ title, bytes }) => ({ title, bytes })),
    },
    {
      requested: json.requested,
      skills: json.skills,
      unknown: json.unknown,
      warnings: json.warnings,
      dropped: json.dropped,
    },
  )
  return block
}

for (const [name, blockOptions] of Object.entries(goldens)) {
  test(`parse: the golden block ${name}, as the command line prints it`, async () => {
    const dir = path.join(GOLDEN, name)
    const file = path.join(dir, 'AGENTS.md')
    const doc = await agentsmd.parse(file)
    const block = sameAsCli(doc, file, {}, blockOptions)
    assert.deepEqual(Buffer.from(block.block), fs.readFileSync(path.join(dir, 'block.txt')))
  })

  test(`parseText: the golden case ${name} without its skill files, as the command line prints it`, async (t) => {
    // The text alone has no directory: skills/NAME.md resolves nowhere, as in a directory
    // holding the file alone.
    const text = fs.readFileSync(path.join(GOLDEN, name, 'AGENTS.md'))
    const dir = tempTree(t, { 'AGENTS.md': text })
    for (const input of [text, text.toString('utf8')]) {
      const doc = agentsmd.parseText(input)
      sameAsCli(doc, 'AGENTS.md', {}, blockOptions, dir)
    }
  })
}

test('the caller\'s skills replace the front matter\'s; an empty list requests none', async () => {
  const file = path.join(GOLDEN, 'skills_both_sources', 'AGENTS.md')
  for (const skills of [[], ['file-one', 'missing', 'file-one'], ['inline-one'], ['../escape']]) {
    const doc = await agentsmd.parse(file, { skills })
    sameAsCli(doc, file, { skills }, REPO)
    const text = agentsmd.parseText(fs.readFileSync(file), { skills })
    assert.deepEqual(text.requested, doc.requested)
  }
})

test('block options: cap, heading, preamble, name and where', async () => {
  const file = path.join(GOLDEN, 'dropped_then_kept', 'AGENTS.md')
  const doc = await agentsmd.parse(file)
  // The default where is the parsed file's path; the default name its base name.
  sameAsCli(doc, file, {}, { cap: 2048 })
  sameAsCli(doc, file, {}, { cap: 100, heading: '', preamble: 'Read on.', where: '' })
  sameAsCli(doc, file, {}, {})
  const named = agentsmd.block(doc, { cap: 2048, name: 'RULES.md', where: 'docs/RULES.md' })
  assert.ok(named.block.includes('> ⚠️ RULES.md exceeded 2048 bytes; '), named.block)
  assert.ok(named.block.includes('read docs/RULES.md for the full instructions'), named.block)
  // parseText knows no path: the name and where are AGENTS.md.
  const text = agentsmd.block(agentsmd.parseText(fs.readFileSync(file)), { cap: 2048 })
  assert.ok(text.block.includes('> ⚠️ AGENTS.md exceeded 2048 bytes; '), text.block)
  assert.ok(text.block.includes('read AGENTS.md for the full instructions'), text.block)
})

test('a block of nothing is the empty string', () => {
  const block = agentsmd.block(agentsmd.parseText(''))
  assert.deepEqual({ block: block.block, dropped: block.dropped }, { block: '', dropped: [] })
})

test('front matter warnings and skill sections, as the command line reports them', async (t) => {
  const dir = tempTree(t, {
    'AGENTS.md':
      '---\nskills: {a: 1}\n---\n# Title\n\n## Skill: one\nfirst\n## Skill: one\nsecond\n## Skill:\nnot a skill\n```\n## Skill: two\n```\n',
    'skills/one.md': 'from the file\n',
  })
  const file = path.join(dir, 'AGENTS.md')
  const doc = await agentsmd.parse(file, { skills: ['one', 'two', 'three'] })
  sameAsCli(doc, file, { skills: ['one', 'two', 'three'] }, {})
  assert.deepEqual(doc.skills.map((s) => [s.name, s.source]), [['one', 'inline']])
  assert.deepEqual(doc.unknown, ['two', 'three'])
  assert.ok(doc.warnings.length >= 2, doc.warnings.join('\n'))
  assert.ok(doc.warnings.every((w) => typeof w === 'string' && /^line \d+: /.test(w)), doc.warnings.join('\n'))
})

test('confine: a skill file whose link leads out of root is not read', async (t) => {
  const dir = tempTree(t, { secret: 'API_KEY=hunter2\n', 'repo/AGENTS.md': '---\nskills: [netrc]\n---\nbody\n', 'repo/skills/': '' })
  const repo = path.join(dir, 'repo')
  fs.symlinkSync('../../secret', path.join(repo, 'skills', 'netrc.md'))
  const file = path.join(repo, 'AGENTS.md')
  const confined = await agentsmd.parse(file, { root: repo, confine: true })
  const block = sameAsCli(confined, file, { root: repo, confine: true }, {})
  assert.ok(!block.block.includes('hunter2'))
  assert.deepEqual(confined.unknown, ['netrc'])
  assert.ok(confined.warnings.some((w) => w.includes('escapes root')), confined.warnings.join('\n'))
  const open = await agentsmd.parse(file, { root: repo })
  assert.ok(agentsmd.block(open).block.includes('hunter2'))
})

test('parse and parseNearest through a custom file system, answering values or Promises, resolve skills through it', async () => {
  for (const mode of ['sync', 'async']) {
    const fs = memoryFs(
      {
        'docs/AGENTS.md': '---\nskills: [release]\n---\nbody\n',
        'docs/skills/release.md': '\n\nTag it.\n\n',
      },
      mode,
    )
    const parsed = await agentsmd.parse('docs/AGENTS.md', { fs })
    const nearest = await agentsmd.parseNearest('docs/src/x.md', { fs })
    assert.equal(await agentsmd.parseNearest('other/x.md', { fs }), null)
    for (const doc of [parsed, nearest]) {
      assert.deepEqual(doc.skills.map((s) => [s.name, s.source]), [['release', 'file']], mode)
      assert.equal(
        agentsmd.block(doc).block,
        '# Repository Agent Instructions (AGENTS.md)\n\nbody\n\n## Requested Skills\n\n### release\n\nTag it.\n',
      )
    }
  }
})

test('parseNearest: the nearest file of the walk, its skills beside it', async (t) => {
  const dir = tempTree(t, {
    'AGENTS.md': '# Root\n\nroot\n',
    'svc/AGENTS.md': '---\nskills: [deploy]\n---\n# Service\n\nsvc\n',
    'svc/skills/deploy.md': 'Deploy with care.\n',
    'svc/.agents/AGENTS.d/frag.md': '# Fragment\n',
    'overlay/AGENTS.md': '# Overlay\n',
    'empty/': '',
  })
  const file = path.join(dir, 'svc', 'AGENTS.md')
  const options = { root: dir, fragments: ['.agents/AGENTS.d'], overlays: [path.join(dir, 'overlay')], extra: [path.join(dir, 'AGENTS.md')] }
  const doc = await agentsmd.parseNearest(path.join(dir, 'svc', 'src', 'new.ts'), options)
  assert.ok(doc, 'svc/AGENTS.md stands')
  sameAsCli(doc, file, { root: dir }, {})
  assert.equal(agentsmd.block(doc).block, agentsmd.block(await agentsmd.parse(file, { root: dir })).block)
})

test('parseNearest: null when no directory of the walk has a file, or the nearest is over budget', async (t) => {
  const dir = tempTree(t, {
    'repo/sub/': '',
    'repo/.agents/AGENTS.d/frag.md': '# Fragment\n',
    'overlay/AGENTS.md': '# Overlay\n',
    'big/AGENTS.md': '# Root\n',
    'big/sub/AGENTS.md': 'x'.repeat(100),
  })
  const repo = path.join(dir, 'repo')
  assert.equal(
    await agentsmd.parseNearest(path.join(repo, 'sub', 'x'), {
      root: repo,
      fragments: ['.agents/AGENTS.d'],
      overlays: [path.join(dir, 'overlay')],
    }),
    null,
  )
  const big = path.join(dir, 'big')
  assert.equal(await agentsmd.parseNearest(path.join(big, 'sub', 'x'), { root: big, budget: 50 }), null)
  assert.ok(await agentsmd.parseNearest(path.join(big, 'sub', 'x'), { root: big }))
})
