// SPEC §12: the pi preset (`--as pi`) against the pinned product itself, npm
// `@mariozechner/pi-coding-agent` 0.73.1 as node/bench installs it. On generated trees (nested
// AGENTS.md, AGENTS.MD, CLAUDE.md and CLAUDE.MD, BOMs, empty and whitespace-only files, bytes
// that are not UTF-8, an agent directory with a global file), the CLI's
// `agentsmd PATH --as pi --home HOME` stdout must be, byte for byte, the project context
// `buildSystemPrompt` (dist/core/system-prompt.js) appends for the files the product's own
// `loadProjectContextFiles({ cwd, agentDir })` loads, and its `--json` files those files.

import assert from 'node:assert/strict'
import fs from 'node:fs'
import path from 'node:path'
import { test } from 'node:test'
import { pathToFileURL } from 'node:url'

import { REPO, cliJson, cliOk, tempTree } from './support.mjs'

const PI = path.join(REPO, 'node', 'bench', 'node_modules', '@mariozechner', 'pi-coding-agent')
const installed = fs.existsSync(path.join(PI, 'package.json'))
if (!installed && process.env.CI) {
  throw new Error(`${PI} is missing: run \`npm ci\` in node/bench (the pinned pi)`)
}
const skip = installed ? false : `${PI} is not installed (\`npm ci\` in node/bench)`

/** The product's own functions: the exported loader, and the prompt builder. */
async function product() {
  const version = JSON.parse(fs.readFileSync(path.join(PI, 'package.json'), 'utf8')).version
  assert.equal(version, '0.73.1', 'the pinned @mariozechner/pi-coding-agent')
  const load = (file) => import(pathToFileURL(path.join(PI, 'dist', file)).href)
  const { loadProjectContextFiles } = await load('index.js')
  const { buildSystemPrompt } = await load('core/system-prompt.js')
  return { loadProjectContextFiles, buildSystemPrompt }
}

const pi = installed ? await product() : null

/** pi's agent directory under `home`: `~/.pi/agent` (getAgentDir without PI_CODING_AGENT_DIR). */
const agentDirOf = (home) => path.join(home, '.pi', 'agent')

/**
 * The project context as dist/core/system-prompt.js appends it to the prompt: `"\n\n# Project
 * Context\n\n"`, `"Project-specific instructions and guidelines:\n\n"`, then per file
 * `` `## ${filePath}\n\n${content}\n\n` ``; nothing without a file.
 */
function projectContext(contextFiles) {
  if (contextFiles.length === 0) return ''
  let prompt = '\n\n# Project Context\n\n'
  prompt += 'Project-specific instructions and guidelines:\n\n'
  for (const { path: filePath, content } of contextFiles) {
    prompt += `## ${filePath}\n\n${content}\n\n`
  }
  return prompt
}

/**
 * What the product gives its model at `cwd` with `home`: its files, and the piece of the
 * system prompt holding them, cut out of the product's own `buildSystemPrompt` (a custom prompt
 * `BASE`, no tools and no skills, so that what follows the context is the date and the working
 * directory alone) and checked against `projectContext`.
 */
function productAt(cwd, home) {
  // pi warns through console.error of a context file it cannot read (a directory of its name);
  // some trees hold one on purpose.
  const error = console.error
  console.error = () => {}
  let files
  try {
    files = pi.loadProjectContextFiles({ cwd, agentDir: agentDirOf(home) })
  } finally {
    console.error = error
  }
  const prompt = pi.buildSystemPrompt({
    customPrompt: 'BASE',
    selectedTools: [],
    cwd,
    contextFiles: files,
    skills: [],
  })
  assert.ok(prompt.startsWith('BASE'), prompt)
  const tail = prompt.lastIndexOf('\nCurrent date: ')
  assert.ok(tail > 0, prompt)
  const piece = prompt.slice('BASE'.length, tail)
  assert.equal(piece, projectContext(files), 'system-prompt.js appends the project context so')
  return { files, piece }
}

/** Asserts that the CLI gives at `cwd` with `home` exactly what pi gives. */
function samePi(cwd, home, what) {
  const { files, piece } = productAt(cwd, home)
  const stdout = cliOk([cwd, '--as', 'pi', '--home', home])
  assert.ok(
    stdout.equals(Buffer.from(piece, 'utf8')),
    `${what}: stdout differs from pi's\n` +
      `--- agentsmd\n${JSON.stringify(stdout.toString('utf8'))}\n` +
      `--- pi\n${JSON.stringify(piece)}`,
  )
  const json = cliJson([cwd, '--as', 'pi', '--home', home])
  assert.deepEqual(
    json.files.map((f) => ({ path: f.path, content: f.content })),
    files.map((f) => ({ path: f.path, content: f.content })),
    `${what}: --json files`,
  )
  const global = files.length > 0 && path.dirname(files[0].path) === agentDirOf(home)
  assert.deepEqual(
    json.files.map((f) => f.source),
    files.map((_, i) => (i === 0 && global ? 'extra' : 'chain')),
    `${what}: sources`,
  )
  return { files, json }
}

const BOM = '\uFEFF'

test('§12 pi: nested files of every name, farthest first, past .git', { skip }, (t) => {
  const root = tempTree(t, {
    'AGENTS.md': 'root agents\n',
    'a/.git/': '',
    'a/CLAUDE.md': ' claude at a \n',
    'a/b/AGENTS.MD': 'upper agents',
    'a/b/c/CLAUDE.MD': 'upper claude\r\n',
    'a/b/c/d/': '',
  })
  const home = tempTree(t, { '.pi/agent/AGENTS.md': '# global\n\nbe brief\n' })
  for (const rel of ['', 'a', 'a/b', 'a/b/c', 'a/b/c/d']) {
    const { files } = samePi(path.join(root, rel), home, `cwd ${rel || '.'}`)
    assert.equal(files[0].path, path.join(agentDirOf(home), 'AGENTS.md'))
  }
})

test('§12 pi: the first of its four names stands for a directory', { skip }, (t) => {
  const names = ['AGENTS.md', 'AGENTS.MD', 'CLAUDE.md', 'CLAUDE.MD']
  const home = tempTree(t)
  for (let first = 0; first < names.length; first++) {
    const files = {}
    for (const name of names.slice(first)) files[name] = `${name} text`
    files['agents.md'] = 'no name of pi'
    files['Claude.md'] = 'no name of pi'
    const root = tempTree(t, files)
    const { files: loaded } = samePi(root, home, `from ${names[first]}`)
    assert.equal(loaded.at(-1).path, path.join(root, names[first]))
  }
})

test('§12 pi: BOMs and empty files kept, bad bytes decoded as pi does', { skip }, (t) => {
  const root = tempTree(t, {
    'AGENTS.md': Buffer.concat([Buffer.from(BOM, 'utf8'), Buffer.from('with a BOM\n')]),
    'a/CLAUDE.md': Buffer.from(BOM, 'utf8'),
    'a/b/AGENTS.md': '',
    'a/b/c/AGENTS.MD': ' \n\t \n',
    'a/b/c/d/AGENTS.md': Buffer.from([
      0x61, 0xc0, 0x80, 0x62, 0xed, 0xa0, 0x80, 0x63, 0xf0, 0x9f, 0x98, 0x64, 0xff, 0xfe, 0x65,
      0xe2, 0x82,
    ]),
    'a/b/c/d/e/CLAUDE.md': Buffer.from([0xef, 0xbb, 0xbf, 0xef, 0xbb, 0xbf, 0x0a]),
  })
  const home = tempTree(t, {
    '.pi/agent/CLAUDE.md': Buffer.from(`${BOM}global with a BOM`, 'utf8'),
  })
  const { files } = samePi(path.join(root, 'a/b/c/d/e'), home, 'BOMs and bad bytes')
  assert.ok(files.some((f) => f.content === ''), 'an empty file is kept')
  assert.ok(files.some((f) => f.content.startsWith(BOM)), 'a BOM is kept')
})

test('§12 pi: the agent directory first, once when the walk passes it', { skip }, (t) => {
  const home = tempTree(t, {
    '.pi/agent/AGENTS.md': 'global',
    '.pi/agent/CLAUDE.md': 'shadowed',
    '.pi/agent/work/deeper/': '',
    'AGENTS.md': 'home file',
  })
  samePi(path.join(home, '.pi/agent/work/deeper'), home, 'cwd inside the agent dir')
  samePi(path.join(home, '.pi/agent'), home, 'cwd the agent dir')
  // An agent dir without a file: the walk alone.
  const other = tempTree(t, { '.pi/agent/': '', 'x/AGENTS.md': 'x' })
  samePi(path.join(other, 'x'), other, 'no global file')
})

test('§12 pi: a directory named as a context file gives way to the next name', { skip }, (t) => {
  const root = tempTree(t, {
    'AGENTS.md/': '',
    'AGENTS.MD/': '',
    'CLAUDE.md': 'claude',
    'sub/AGENTS.md/': '',
    'sub/CLAUDE.MD': 'upper claude',
  })
  const home = tempTree(t, { '.pi/agent/AGENTS.md/': '', '.pi/agent/CLAUDE.md': 'global claude' })
  samePi(path.join(root, 'sub'), home, 'directories named as context files')
})

test('§12 pi: a file path is looked at from its directory', { skip }, (t) => {
  const root = tempTree(t, {
    'AGENTS.md': 'root',
    'src/CLAUDE.md': 'src',
    'src/main.rs': 'fn main() {}',
  })
  const home = tempTree(t)
  const { files } = productAt(path.join(root, 'src'), home)
  const stdout = cliOk([path.join(root, 'src', 'main.rs'), '--as', 'pi', '--home', home])
  assert.ok(stdout.equals(Buffer.from(projectContext(files), 'utf8')), stdout.toString('utf8'))
})

/** A small deterministic generator (mulberry32), so that a failing tree can be made again. */
function random(seed) {
  return () => {
    seed = (seed + 0x6d2b79f5) | 0
    let r = Math.imul(seed ^ (seed >>> 15), 1 | seed)
    r = (r + Math.imul(r ^ (r >>> 7), 61 | r)) ^ r
    return ((r ^ (r >>> 14)) >>> 0) / 4294967296
  }
}

test('§12 pi: generated trees', { skip }, (t) => {
  const names = ['AGENTS.md', 'AGENTS.MD', 'CLAUDE.md', 'CLAUDE.MD', 'agents.md', 'Agents.md']
  const texts = [
    () => '',
    () => ' \n',
    () => `${BOM}bom`,
    () => 'plain\n',
    () => 'crlf\r\nline\r\n',
    () => Buffer.from([0x78, 0xff, 0x79, 0xe2, 0x82]),
    () => 'é ✓ 😀\n',
  ]
  for (let seed = 1; seed <= 24; seed++) {
    const next = random(seed)
    const pick = (list) => list[Math.floor(next() * list.length)]
    const files = {}
    const dirs = ['', 'p', 'p/q', 'p/q/r', 'p/s']
    for (const dir of dirs) {
      for (const name of names) {
        if (next() < 0.3) files[path.join(dir, name)] = pick(texts)()
      }
      if (next() < 0.2) files[path.join(dir, '.git/')] = ''
    }
    for (const dir of dirs) files[path.join(dir, 'keep/')] = ''
    const root = tempTree(t, files)
    const homeFiles = { '.pi/agent/': '' }
    for (const name of names.slice(0, 4)) {
      if (next() < 0.3) homeFiles[path.join('.pi/agent', name)] = pick(texts)()
    }
    const home = tempTree(t, homeFiles)
    const cwd = path.join(root, pick(dirs))
    samePi(cwd, home, `seed ${seed}`)
  }
})
