// SPEC §12: the Gemini CLI preset (`--as gemini`) against the pinned product itself, npm
// `@google/gemini-cli-core` 0.61.0 as node/bench installs it: on generated trees, the memory
// `Config.initialize()` loads for an interactive, trusted session in the working directory
// (`new MemoryContextManager(config)`, `await manager.refresh()`) and the two pieces the model is
// given (the system instruction's global context, the first message's project context) must be
// the CLI's stdout byte for byte, and its `--json` files and omitted what the product loads and
// drops, `@path` imports (the product's `tree` format) expanded as it expands them. And a session
// of it (SPEC §12 with §10): the start, then each read as the product's tools make it
// (`discoverJitContext`, the GEMINI.md files `loadJitSubdirectoryMemory` newly loads, appended by
// `appendJitContext`), against the CLI's `--touch` stdout byte for byte and the binding's Session.

import assert from 'node:assert/strict'
import fs from 'node:fs'
import path from 'node:path'
import { test } from 'node:test'
import { pathToFileURL } from 'node:url'

import { REPO, agentsmd, cliJson, cliOk, tempTree } from './support.mjs'

const GEMINI = path.join(REPO, 'node', 'bench', 'node_modules', '@google', 'gemini-cli-core')
const installed = fs.existsSync(path.join(GEMINI, 'package.json'))
if (!installed && process.env.CI) {
  throw new Error(`${GEMINI} is missing: run \`npm ci\` in node/bench (the pinned Gemini CLI)`)
}
const skip = installed ? false : `${GEMINI} is not installed (\`npm ci\` in node/bench)`

/** The product's own modules, as its package lays them out. */
async function product() {
  const src = path.join(GEMINI, 'dist', 'src')
  const load = (file) => import(pathToFileURL(path.join(src, file)).href)
  const version = JSON.parse(fs.readFileSync(path.join(GEMINI, 'package.json'), 'utf8')).version
  assert.equal(version, '0.61.0', 'the pinned @google/gemini-cli-core')
  return {
    ...(await load('config/config.js')),
    ...(await load('context/memoryContextManager.js')),
    ...(await load('prompts/snippets.js')),
    ...(await load('tools/jit-context.js')),
    ...(await load('tools/memoryTool.js')),
    ...(await load('utils/events.js')),
    concatenateInstructions: (await load('utils/memoryDiscovery.js')).concatenateInstructions,
  }
}

const gemini = installed ? await product() : null
// Each Config listens to the product's event bus; a test makes one per comparison.
gemini?.coreEvents.setMaxListeners(0)
// The product logs its discovery through console.debug; its CLI silences it without --debug.
console.debug = () => {}

/** JavaScript's trim, as the product applies it. */
const trim = (text) => text.trim()

/**
 * What the product gives its model at `cwd` with `home` as its home: S + U of SPEC §12's
 * Gemini CLI paragraph, and the files it loads with the text it uses and those it drops empty;
 * then, for each of `reads`, the piece its tools append and the files newly loaded.
 */
async function productAt(cwd, home, reads = [], beforeRead = async () => {}) {
  const saved = process.env.GEMINI_CLI_HOME
  const error = console.error
  process.env.GEMINI_CLI_HOME = home
  // The product reports each import that fails through console.error; the tests expect some.
  console.error = () => {}
  try {
    const config = new gemini.Config({
      sessionId: 'agentsmd-test',
      targetDir: cwd,
      cwd,
      debugMode: false,
      model: 'gemini-2.5-pro',
      interactive: true,
      trustedFolder: true,
    })
    assert.deepEqual(config.getMemoryBoundaryMarkers(), ['.git'])
    assert.equal(config.getImportFormat(), 'tree')
    await config.storage.initialize()
    // As Config.initialize() does.
    config.memoryContextManager = new gemini.MemoryContextManager(config)
    await config.memoryContextManager.refresh()
    const memory = config.getSystemInstructionMemory()
    const shell = gemini
      .renderFinalShell('BASE', memory, gemini.getAllGeminiMdFilenames())
      .replace(/\n{3,}/g, '\n\n')
    let system
    if (shell === 'BASE') system = ''
    else {
      assert.ok(shell.startsWith('BASE\n\n'), shell)
      system = shell.slice('BASE\n\n'.length)
    }
    const stdout = system + config.getSessionMemory()

    // The files behind it, from the manager's own discovery and reading.
    const manager = new gemini.MemoryContextManager(config)
    const paths = await manager.discoverMemoryPaths()
    const contents = await manager.loadMemoryContents(paths)
    const files = []
    const empty = []
    for (const [list, source] of [[paths.global, 'extra'], [paths.project, 'chain']]) {
      for (const p of list) {
        const read = contents.get(p)
        if (!read || read.content === null) continue
        const text = trim(read.content)
        if (text === '') empty.push(p)
        else files.push({ path: p, content: text, source })
      }
    }

    // Each read as its tools (read_file, list_directory, …) make it: the context newly discovered
    // there, appended to the tool's result, and the files the session's manager newly loads;
    // `beforeRead(i)` runs before the i-th.
    const pieces = []
    const loaded = []
    for (const [i, read] of reads.entries()) {
      await beforeRead(i)
      const before = new Set(config.getMemoryContextManager().getLoadedPaths())
      const context = await gemini.discoverJitContext(config, read)
      pieces.push(gemini.appendJitContext('', context))
      const now = [...config.getMemoryContextManager().getLoadedPaths()]
      loaded.push(now.filter((p) => !before.has(p)))
    }
    return { stdout, files, empty, pieces, loaded }
  } finally {
    console.error = error
    if (saved === undefined) delete process.env.GEMINI_CLI_HOME
    else process.env.GEMINI_CLI_HOME = saved
  }
}

/**
 * The CLI's `--as gemini` at `cwd` with `home` against the product: stdout byte for byte, the
 * JSON files, and omitted (the product's empty files and the `unreadable` ones as `empty`,
 * `duplicates` as given).
 */
async function compare(cwd, home, { duplicates = [], unreadable = [], expectFiles } = {}) {
  const args = [cwd, '--as', 'gemini', '--home', home]
  const stdout = cliOk(args)
  const json = cliJson(args)
  const want = await productAt(cwd, home)
  assert.equal(stdout.toString('utf8'), want.stdout, 'stdout')
  assert.deepEqual(Buffer.from(want.stdout, 'utf8'), stdout, 'stdout bytes')
  const files = json.files.map(({ path, content, source }) => ({ path, content, source }))
  assert.deepEqual(files, want.files, 'files')
  if (expectFiles !== undefined) assert.equal(files.length, expectFiles, 'the number of files')
  const omitted = json.omitted.map(({ path, reason, by }) => ({ path, reason, by }))
  const wantOmitted = [
    ...[...want.empty, ...unreadable].map((p) => ({ path: p, reason: 'empty', by: undefined })),
    ...duplicates.map(([p, by]) => ({ path: p, reason: 'duplicate', by })),
  ]
  const key = (o) => `${o.reason} ${o.path}`
  const sorted = (list) => list.sort((a, b) => (key(a) < key(b) ? -1 : 1))
  assert.deepEqual(
    sorted(omitted.map((o) => ({ ...o, by: o.by || undefined }))),
    sorted(wantOmitted),
    'omitted',
  )
  return { stdout, json }
}

const text = (label) => `# ${label}\n\nKeep it small.\n`

test('s12_gemini_nested_files_up_to_the_git_root_with_a_global_file', { skip }, async (t) => {
  const dir = tempTree(t, {
    'GEMINI.md': text('above the repository: not read'),
    'home/.gemini/GEMINI.md': text('global'),
    'repo/.git/': '',
    'repo/GEMINI.md': text('root'),
    'repo/a/GEMINI.md': text('a'),
    'repo/a/b/GEMINI.md': '\n\n  ' + text('b') + '\n\n\n\n- more\n\n',
    'repo/a/b/c/': '',
  })
  const { stdout } = await compare(path.join(dir, 'repo/a/b/c'), path.join(dir, 'home'), {
    expectFiles: 4,
  })
  assert.ok(!stdout.toString().includes('above the repository'))
})

test('s12_gemini_paths_sorted_as_strings', { skip }, async (t) => {
  // `repo/B/GEMINI.md` sorts before `repo/GEMINI.md` ('B' < 'G'), `repo/a` after it.
  const dir = tempTree(t, {
    'home/': '',
    'repo/.git/': '',
    'repo/GEMINI.md': text('root'),
    'repo/B/GEMINI.md': text('B'),
    'repo/B/a/GEMINI.md': text('B/a'),
    'repo/B/a/Zeta/GEMINI.md': text('Zeta'),
    'repo/B/a/Zeta/é/GEMINI.md': text('é'),
  })
  const { json } = await compare(path.join(dir, 'repo/B/a/Zeta/é'), path.join(dir, 'home'), {
    expectFiles: 5,
  })
  assert.equal(json.files[0].path, path.join(dir, 'repo/B/GEMINI.md'))
})

test('s12_gemini_case_variants_are_other_names', { skip }, async (t) => {
  const dir = tempTree(t, {
    'home/.gemini/gemini.md': text('global, lower case'),
    'repo/.git/': '',
    'repo/gemini.md': text('lower'),
    'repo/Gemini.md': text('mixed'),
    'repo/GEMINI.MD': text('upper extension'),
    'repo/sub/GEMINI.md': text('sub'),
  })
  await compare(path.join(dir, 'repo/sub'), path.join(dir, 'home'))
})

test('s12_gemini_boms_empty_and_white_space_only_files', { skip }, async (t) => {
  const dir = tempTree(t, {
    'home/.gemini/GEMINI.md': '\ufeff \n\t\n',
    'repo/.git/': '',
    'repo/GEMINI.md': '\ufeff' + text('BOM'),
    'repo/a/GEMINI.md': '',
    'repo/a/b/GEMINI.md': ' \r\n\t\u3000\n',
    'repo/a/b/c/GEMINI.md': '\ufeff',
    'repo/a/b/c/d/GEMINI.md': '\r\n' + text('CRLF').replace(/\n/g, '\r\n') + '\r\n\r\n\r\n',
  })
  const { json } = await compare(path.join(dir, 'repo/a/b/c/d'), path.join(dir, 'home'), {
    expectFiles: 2,
  })
  assert.equal(json.omitted.length, 4)
})

test('s12_gemini_git_at_various_levels', { skip }, async (t) => {
  const dir = tempTree(t, {
    'home/.gemini/GEMINI.md': text('global'),
    'outer/.git/': '',
    'outer/GEMINI.md': text('outer'),
    'outer/inner/.git': 'gitdir: ../.git/modules/inner\n',
    'outer/inner/GEMINI.md': text('inner'),
    'outer/inner/src/GEMINI.md': text('src'),
    'outer/inner/src/deep/': '',
    'outer/inner/src/deep/GEMINI.md': text('deep'),
    'plain/GEMINI.md': text('no repository: not read'),
    'plain/sub/GEMINI.md': text('the working directory alone'),
  })
  const home = path.join(dir, 'home')
  await compare(path.join(dir, 'outer/inner/src/deep'), home, { expectFiles: 4 })
  await compare(path.join(dir, 'outer/inner'), home, { expectFiles: 2 })
  await compare(path.join(dir, 'outer'), home, { expectFiles: 2 })
  await compare(path.join(dir, 'plain/sub'), home, { expectFiles: 2 })
})

test('s12_gemini_home_without_a_global_file', { skip }, async (t) => {
  const dir = tempTree(t, {
    'home/.gemini/settings.json': '{}',
    'repo/.git/': '',
    'repo/GEMINI.md': text('root'),
  })
  const { stdout } = await compare(path.join(dir, 'repo'), path.join(dir, 'home'), {
    expectFiles: 1,
  })
  assert.ok(stdout.toString().startsWith('\n<loaded_context>\n<project_context>\n'))
  const bare = tempTree(t, { 'home/': '', 'repo/.git/': '' })
  const nothing = await compare(path.join(bare, 'repo'), path.join(bare, 'home'), {
    expectFiles: 0,
  })
  assert.equal(nothing.stdout.length, 0)
})

test('s12_gemini_a_symlinked_duplicate_is_read_once', { skip }, async (t) => {
  const dir = tempTree(t, {
    'home/.gemini/GEMINI.md': text('global'),
    'repo/.git/': '',
    'repo/GEMINI.md': text('root'),
    'repo/a/': '',
    'repo/a/b/': '',
  })
  // a/GEMINI.md is the root's file again; b/GEMINI.md is the global file again.
  fs.symlinkSync('../GEMINI.md', path.join(dir, 'repo/a/GEMINI.md'))
  fs.symlinkSync(path.join(dir, 'home/.gemini/GEMINI.md'), path.join(dir, 'repo/a/b/GEMINI.md'))
  await compare(path.join(dir, 'repo/a/b'), path.join(dir, 'home'), {
    expectFiles: 2,
    duplicates: [
      [path.join(dir, 'repo/a/GEMINI.md'), path.join(dir, 'repo/GEMINI.md')],
      [path.join(dir, 'repo/a/b/GEMINI.md'), path.join(dir, 'home/.gemini/GEMINI.md')],
    ],
  })
})

test('s12_gemini_a_working_directory_through_a_link_is_made_real', { skip }, async (t) => {
  const dir = tempTree(t, {
    'home/': '',
    'repo/.git/': '',
    'repo/GEMINI.md': text('root'),
    'repo/pkg/GEMINI.md': text('pkg'),
  })
  fs.symlinkSync(path.join(dir, 'repo/pkg'), path.join(dir, 'link'))
  const { json } = await compare(path.join(dir, 'link'), path.join(dir, 'home'), {
    expectFiles: 2,
  })
  assert.equal(json.files[1].path, path.join(dir, 'repo/pkg/GEMINI.md'))
})

test('s12_gemini_a_directory_of_the_name_is_skipped', { skip }, async (t) => {
  const dir = tempTree(t, {
    'home/.gemini/GEMINI.md/': '',
    'repo/.git/': '',
    'repo/GEMINI.md/': '',
    'repo/sub/GEMINI.md': text('sub'),
  })
  await compare(path.join(dir, 'repo/sub'), path.join(dir, 'home'), { expectFiles: 1 })
})

test('s12_gemini_imports_expanded_as_its_tree_format_expands_them', { skip }, async (t) => {
  const chain = {}
  for (let level = 1; level <= 7; level++) {
    chain[`repo/docs/chain${level}.md`] = `level ${level}\n@./chain${level + 1}.md\n`
  }
  const dir = tempTree(t, {
    'outside.md': 'outside the repository\n',
    'home/.gemini/GEMINI.md': 'global @./style.md and @../../outside.md\n',
    'home/.gemini/style.md': 'two spaces\n',
    'repo/.git/': '',
    'repo/GEMINI.md': [
      '# Root',
      '@./docs/a.md',
      'mail me: someone@example.com, or @missing.md',
      'not this: `@./docs/a.md`, nor this:',
      '```',
      '@./docs/a.md',
      '```',
      '@../outside.md @/etc/hostname-of-nothing @https://example.com/x.md',
      '@docs/ @./docs/chain1.md @./GEMINI.md',
      '@./docs/%61.md @./docs/%zz.md @1x @.hidden',
      '',
    ].join('\n'),
    'repo/docs/a.md': 'A, which imports B: @b.md\n',
    'repo/docs/b.md': '\ufeffB, which imports A again: @./a.md\n',
    'repo/.hidden': 'a dot file\n',
    'repo/sub/GEMINI.md': '@../docs/b.md\n',
    ...chain,
  })
  fs.symlinkSync(path.join(dir, 'outside.md'), path.join(dir, 'repo/docs/link.md'))
  fs.appendFileSync(path.join(dir, 'repo/sub/GEMINI.md'), '@../docs/link.md\n')
  const { stdout } = await compare(path.join(dir, 'repo/sub'), path.join(dir, 'home'), {
    expectFiles: 3,
  })
  assert.match(stdout.toString(), /<!-- Imported from: \.\/docs\/a\.md -->/)
})

test('s12_gemini_an_unreadable_file_is_not_found', { skip }, async (t) => {
  const dir = tempTree(t, {
    'home/': '',
    'repo/.git/': '',
    'repo/GEMINI.md': text('root'),
    'repo/sub/GEMINI.md': text('unreadable'),
  })
  const locked = path.join(dir, 'repo/sub/GEMINI.md')
  // Removing it afterwards needs no permission on the file itself.
  fs.chmodSync(locked, 0)
  // As root every file is readable, and both read it; otherwise neither does, and it is reported.
  let readable = true
  try {
    fs.accessSync(locked, fs.constants.R_OK)
  } catch {
    readable = false
  }
  const { json } = await compare(path.join(dir, 'repo/sub'), path.join(dir, 'home'), {
    expectFiles: readable ? 2 : 1,
    unreadable: readable ? [] : [locked],
  })
  assert.equal(json.files.length, readable ? 2 : 1)
})

test('s12_gemini_the_walk_stops_at_the_products_own_directory', { skip }, async (t) => {
  const dir = tempTree(t, {
    'repo/.git/': '',
    'repo/GEMINI.md': text('root: above ~/.gemini, not read'),
    'repo/home/.gemini/GEMINI.md': text('global'),
    'repo/home/.gemini/x/GEMINI.md': text('x'),
  })
  const home = path.join(dir, 'repo/home')
  await compare(path.join(dir, 'repo/home/.gemini/x'), home, { expectFiles: 2 })
  await compare(path.join(dir, 'repo/home/.gemini'), home, { expectFiles: 1 })
  await compare(path.join(dir, 'repo/home'), home, { expectFiles: 2 })
})

test('s12_gemini_invalid_utf8_and_files_over_32_kib_are_read_whole', { skip }, async (t) => {
  const big = 'Every line of a long file.\n'.repeat(1600)
  const dir = tempTree(t, {
    'home/.gemini/GEMINI.md': Buffer.from([0x67, 0xff, 0xc3, 0x28, 0x0a, 0xe2, 0x82]),
    'repo/.git/': '',
    'repo/GEMINI.md': big,
    'repo/a/GEMINI.md': Buffer.concat([
      Buffer.from('cut inside a character: '),
      Buffer.from('é').subarray(0, 1),
    ]),
  })
  const { json } = await compare(path.join(dir, 'repo/a'), path.join(dir, 'home'), {
    expectFiles: 3,
  })
  assert.ok(json.files[1].content.length > 32 * 1024)
})

test('s12_gemini_home_from_GEMINI_CLI_HOME_without_a_home_option', { skip }, async (t) => {
  const dir = tempTree(t, {
    'gemini-home/.gemini/GEMINI.md': text('from GEMINI_CLI_HOME'),
    'home/.gemini/GEMINI.md': text('from HOME: not read'),
    'repo/.git/': '',
    'repo/GEMINI.md': text('root'),
  })
  const cwd = path.join(dir, 'repo')
  const env = { ...process.env, HOME: path.join(dir, 'home') }
  env.GEMINI_CLI_HOME = path.join(dir, 'gemini-home')
  const stdout = cliOk([cwd, '--as', 'gemini'], { env })
  const want = await productAt(cwd, env.GEMINI_CLI_HOME)
  assert.equal(stdout.toString('utf8'), want.stdout)
  assert.ok(want.stdout.includes('from GEMINI_CLI_HOME'))
  // With --home, the environment is not read.
  const withHome = cliOk([cwd, '--as', 'gemini', '--home', path.join(dir, 'home')], { env })
  assert.equal(withHome.toString('utf8'), (await productAt(cwd, path.join(dir, 'home'))).stdout)
})

test('s12_gemini_a_working_directory_is_uri_decoded', { skip }, async (t) => {
  // The product decodes `x%41y` to `xAy`, which does not exist: its GEMINI.md is not found.
  const dir = tempTree(t, {
    'home/': '',
    'repo/.git/': '',
    'repo/GEMINI.md': text('root'),
    'repo/x%41y/GEMINI.md': text('not found'),
    'repo/p%zz/GEMINI.md': text('found: %zz does not decode'),
  })
  await compare(path.join(dir, 'repo/x%41y'), path.join(dir, 'home'), { expectFiles: 1 })
  await compare(path.join(dir, 'repo/p%zz'), path.join(dir, 'home'), { expectFiles: 2 })
})

/**
 * A later touch of ours, `{ files, omitted }`, against the product's `i`-th read of `want`: its
 * files rendered through the product's own `concatenateInstructions` are the read's piece, and
 * its files and empty ones what the product newly loaded there, and the `unreadable` ones, which
 * the product does not find, reported empty.
 */
function sameTouch(touch, want, i, read, unreadable = []) {
  const text = (content) => (typeof content === 'string' ? content : content.toString('utf8'))
  const files = touch.files.map((f) => ({ filePath: f.path, content: text(f.content) }))
  const piece = gemini.appendJitContext('', gemini.concatenateInstructions(files))
  assert.equal(piece, want.pieces[i], `${read}: the files rendered`)
  const empty = touch.omitted.filter((o) => o.reason === 'empty').map((o) => o.path)
  const given = [...touch.files.map((f) => f.path), ...empty].sort()
  const loaded = [...want.loaded[i], ...unreadable].sort()
  assert.deepEqual(given, loaded, `${read}: the files newly loaded`)
}

/** The number of files a piece holds. */
const blocksOf = (piece) => piece.split('\n--- End of Context from: ').length - 1

/**
 * A session of the CLI's `--as gemini` (`--touch`) against the product: the start at `cwd`,
 * then each of `reads` as its tools read it (`discoverJitContext` after
 * `MemoryContextManager.refresh()`, its result appended with `appendJitContext`). stdout must be
 * the product's start and each read's piece, concatenated, byte for byte; each later touch's
 * `--json` files must render, through the product's own `concatenateInstructions`, to that
 * read's piece, and its files and empty ones be what the product newly loaded there (with
 * `unreadable[i]`, the files the i-th read finds unreadable). `blocks` is the number of files
 * each read's piece holds, which the product must give, so that a tree checks what it is meant
 * to.
 */
async function compareSession(cwd, home, reads, blocks, { unreadable = {} } = {}) {
  assert.equal(reads.length, blocks.length)
  const args = [cwd, '--as', 'gemini', '--home', home, '--touch', ...reads]
  const stdout = cliOk(args)
  const json = cliJson(args)
  const want = await productAt(cwd, home, reads)
  assert.deepEqual(want.pieces.map(blocksOf), blocks, 'the product: files in each piece')
  const expected = want.stdout + want.pieces.join('')
  assert.equal(stdout.toString('utf8'), expected, 'stdout')
  assert.deepEqual(stdout, Buffer.from(expected, 'utf8'), 'stdout bytes')

  assert.equal(json.touches.length, reads.length + 1, 'touches')
  const start = json.touches[0].files.map(({ path, content, source }) => ({
    path,
    content,
    source,
  }))
  assert.deepEqual(start, want.files, 'the start: files')
  reads.forEach((read, i) => sameTouch(json.touches[i + 1], want, i, read, unreadable[i]))
  return { stdout, json, want }
}

/**
 * The binding's `Session` with preset `gemini` against the product, the two in step: `change(i)`
 * runs before the i-th read of both (a file the agent writes, say), then each reads it; each
 * touch's files must be the product's, as `compareSession` holds the CLI's `--json`.
 */
async function compareBindingSession(cwd, home, reads, blocks, change = () => {}) {
  const session = new agentsmd.Session({ preset: 'gemini', home })
  try {
    const start = session.touchSync(cwd)
    const touches = []
    const want = await productAt(cwd, home, reads, async (i) => {
      change(i)
      touches.push(session.touchSync(reads[i]))
    })
    assert.deepEqual(want.pieces.map(blocksOf), blocks, 'the product: files in each piece')
    const files = start.files.map(({ path, content, source }) => ({
      path,
      content: content.toString('utf8'),
      source,
    }))
    assert.deepEqual(files, want.files, 'the start: files')
    reads.forEach((read, i) => sameTouch(touches[i], want, i, read))
  } finally {
    session.close()
  }
}

test('s12_gemini_session_reads_give_the_files_newly_found', { skip }, async (t) => {
  // Nested files, one white space only and one with an import, found by reads of every kind.
  const dir = tempTree(t, {
    'home/.gemini/GEMINI.md': text('global'),
    'outside/GEMINI.md': text('outside the workspace: not read'),
    'outside/x.txt': 'x\n',
    'repo/.git/': '',
    'repo/GEMINI.md': text('root'),
    'repo/a/GEMINI.md': text('a') + '@./notes.md\n',
    'repo/a/notes.md': 'Notes imported by a.\n',
    'repo/a/b/GEMINI.md': ' \n\t\n',
    'repo/a/b/c/GEMINI.md': '\n\n' + text('c') + '\n\n',
    'repo/a/b/c/main.rs': 'fn main() {}\n',
    'repo/d/GEMINI.md': text('d'),
    'repo/d/e/': '',
    'repo/f/g/GEMINI.md': text('f/g'),
  })
  const repo = path.join(dir, 'repo')
  const at = (p) => path.join(repo, p)
  const { stdout } = await compareSession(
    repo,
    path.join(dir, 'home'),
    [
      at('a/b/c/main.rs'), // a file: a, b (white space only), c
      at('a/b/c/lib.rs'), // a second read in the same directory: nothing
      at('d'), // a directory: its own file
      at('d/e/new.txt'), // a path about to be created: nothing new
      at('f/g/h/new.txt'), // in a directory that does not exist yet: f/g's file
      path.join(dir, 'outside/x.txt'), // outside the workspace: nothing
      at('f/g'),
    ],
    [2, 0, 1, 0, 1, 0, 0],
  )
  assert.match(stdout.toString(), /Notes imported by a\./)
  assert.ok(!stdout.toString().includes('outside the workspace'))
})

test('s12_gemini_session_reads_stop_at_the_git_root_of_the_start', { skip }, async (t) => {
  // A read walks up to the `.git` the start's directory is in, or to the start without one.
  const dir = tempTree(t, {
    'home/': '',
    'repo/.git/': '',
    'repo/GEMINI.md': text('root'),
    'repo/mid/.git/': '',
    'repo/mid/GEMINI.md': text('mid'),
    'repo/mid/sub/GEMINI.md': text('sub'),
    'repo/mid/sub/deep/GEMINI.md': text('deep'),
    'repo/mid/sub/deep/file.txt': 'x\n',
    'repo/mid/other/GEMINI.md': text('other'),
    'repo/mid/other/file.txt': 'x\n',
    'plain/GEMINI.md': text('above the start without a repository: not read'),
    'plain/sub/GEMINI.md': text('plain/sub'),
    'plain/sub/deep/GEMINI.md': text('plain/sub/deep'),
    'plain/sub/deep/file.txt': 'x\n',
  })
  const home = path.join(dir, 'home')
  const at = (p) => path.join(dir, p)
  // From the outer root, the middle `.git` stops nothing: mid, sub and deep are read.
  await compareSession(at('repo'), home, [at('repo/mid/sub/deep/file.txt')], [3])
  // Started below the middle `.git`: mid and sub at the start, deep on a read; mid/other is
  // outside the workspace.
  await compareSession(
    at('repo/mid/sub'),
    home,
    [at('repo/mid/sub/deep/file.txt'), at('repo/mid/other/file.txt'), at('repo/mid/sub/deep')],
    [1, 0, 0],
  )
  // Started at the middle root.
  await compareSession(
    at('repo/mid'),
    home,
    [at('repo/mid/other/file.txt'), at('repo/mid/sub/deep/file.txt')],
    [1, 2],
  )
  // Without a repository, the walk stops at the start.
  await compareSession(at('plain/sub'), home, [at('plain/sub/deep/file.txt')], [1])
})

test('s12_gemini_session_a_file_imported_at_the_start_is_loaded_again', { skip }, async (t) => {
  // The product marks as loaded the files it found, not what they import: sub's file, imported
  // by the root's, is read again when the agent reads in sub.
  const dir = tempTree(t, {
    'home/': '',
    'repo/.git/': '',
    'repo/GEMINI.md': text('root') + '@./sub/GEMINI.md\n',
    'repo/sub/GEMINI.md': text('sub'),
    'repo/sub/file.txt': 'x\n',
  })
  const repo = path.join(dir, 'repo')
  await compareSession(repo, path.join(dir, 'home'), [path.join(repo, 'sub/file.txt')], [1])
})

test('s12_gemini_session_a_read_file_imports_one_given_at_the_start', { skip }, async (t) => {
  // The product records the files it found, not what they import: sub's file expands its import
  // of the root's file, given at the start, again.
  const dir = tempTree(t, {
    'home/': '',
    'repo/.git/': '',
    'repo/GEMINI.md': text('root'),
    'repo/sub/GEMINI.md': text('sub') + '@../GEMINI.md\n',
    'repo/sub/file.txt': 'x\n',
  })
  const repo = path.join(dir, 'repo')
  await compareSession(repo, path.join(dir, 'home'), [path.join(repo, 'sub/file.txt')], [1])
})

test('s12_gemini_session_a_symlinked_duplicate_is_not_given_again', { skip }, async (t) => {
  // By file identity: a link to a file given at the start or at an earlier read is not given.
  const dir = tempTree(t, {
    'home/.gemini/GEMINI.md': text('global'),
    'repo/.git/': '',
    'repo/GEMINI.md': text('root'),
    'repo/a/b/file.txt': 'x\n',
    'repo/c/GEMINI.md': text('c'),
    'repo/c/file.txt': 'x\n',
    'repo/d/file.txt': 'x\n',
  })
  fs.symlinkSync('../GEMINI.md', path.join(dir, 'repo/a/GEMINI.md'))
  fs.symlinkSync(path.join(dir, 'home/.gemini/GEMINI.md'), path.join(dir, 'repo/a/b/GEMINI.md'))
  fs.symlinkSync('../c/GEMINI.md', path.join(dir, 'repo/d/GEMINI.md'))
  const repo = path.join(dir, 'repo')
  const at = (p) => path.join(repo, p)
  await compareSession(
    repo,
    path.join(dir, 'home'),
    [at('a/b/file.txt'), at('c/file.txt'), at('d/file.txt')],
    [0, 1, 0],
  )
})

test('s12_gemini_session_a_directory_of_the_name_is_skipped', { skip }, async (t) => {
  // A directory named GEMINI.md passes fs.access; reading it fails, and it is neither given nor
  // recorded.
  const dir = tempTree(t, {
    'home/': '',
    'repo/.git/': '',
    'repo/a/GEMINI.md/': '',
    'repo/a/b/GEMINI.md': text('b'),
    'repo/a/b/file.txt': 'x\n',
  })
  const repo = path.join(dir, 'repo')
  await compareSession(repo, path.join(dir, 'home'), [path.join(repo, 'a/b/file.txt')], [1])
})

test('s12_gemini_session_reads_stop_at_the_products_own_directory', { skip }, async (t) => {
  // A read's walk stops at ~/.gemini: x's file, not ~'s; a read in ~ itself reads ~'s file.
  const dir = tempTree(t, {
    'repo/.git/': '',
    'repo/GEMINI.md': text('root'),
    'repo/home/GEMINI.md': text('home'),
    'repo/home/.gemini/GEMINI.md': text('global'),
    'repo/home/.gemini/x/GEMINI.md': text('x'),
    'repo/home/.gemini/x/file.txt': 'x\n',
  })
  const repo = path.join(dir, 'repo')
  const at = (p) => path.join(repo, p)
  await compareSession(
    repo,
    at('home'),
    [at('home/.gemini/x/file.txt'), at('home/.gemini/file.txt'), at('home/file.txt')],
    [1, 0, 1],
  )
})

test('s12_gemini_session_case_variants_are_other_names', { skip }, async (t) => {
  // Only GEMINI.md is looked for: gemini.md beside it is another file, and not read.
  const dir = tempTree(t, {
    'home/': '',
    'repo/.git/': '',
    'repo/GEMINI.md': text('root'),
    'repo/sub/gemini.md': text('lower: not read'),
    'repo/sub/GEMINI.md': text('sub'),
    'repo/sub/file.txt': 'x\n',
  })
  const repo = path.join(dir, 'repo')
  await compareSession(repo, path.join(dir, 'home'), [path.join(repo, 'sub/file.txt')], [1])
})

test('s12_gemini_session_started_through_a_link', { skip }, async (t) => {
  // The workspace is the start made real: a read through the link is outside it.
  const dir = tempTree(t, {
    'home/': '',
    'repo/.git/': '',
    'repo/GEMINI.md': text('root'),
    'repo/pkg/GEMINI.md': text('pkg'),
    'repo/pkg/sub/GEMINI.md': text('sub'),
    'repo/pkg/sub/file.txt': 'x\n',
  })
  fs.symlinkSync(path.join(dir, 'repo/pkg'), path.join(dir, 'link'))
  await compareSession(
    path.join(dir, 'link'),
    path.join(dir, 'home'),
    [path.join(dir, 'repo/pkg/sub/file.txt')],
    [1],
  )
  await compareSession(
    path.join(dir, 'link'),
    path.join(dir, 'home'),
    [path.join(dir, 'link/sub/file.txt')],
    [0],
  )
})

test('s12_gemini_session_a_read_through_dot_dot', { skip }, async (t) => {
  const dir = tempTree(t, {
    'home/': '',
    'repo/.git/': '',
    'repo/GEMINI.md': text('root'),
    'repo/a/GEMINI.md': text('a'),
    'repo/b/GEMINI.md': text('b'),
    'repo/b/file.txt': 'x\n',
  })
  // Started in a, a read of a/../b/file.txt is outside the workspace; started at the root, it is
  // b's file.
  const at = (p) => path.join(dir, 'repo', p)
  await compareSession(at('a'), path.join(dir, 'home'), [at('a') + '/../b/file.txt'], [0])
  await compareSession(at(''), path.join(dir, 'home'), [at('a') + '/../b/file.txt'], [1])
})

test('s12_gemini_binding_session_files_written_between_reads', { skip }, async (t) => {
  // The product looks for GEMINI.md at every read: one written after a read in its directory is
  // found at the next, one changed after it was given is not given again.
  const dir = tempTree(t, {
    'home/': '',
    'repo/.git/': '',
    'repo/GEMINI.md': text('root'),
    'repo/sub/file.txt': 'x\n',
    'repo/sub/deep/GEMINI.md': text('deep'),
  })
  const at = (p) => path.join(dir, 'repo', p)
  const changes = {
    1: () => fs.writeFileSync(at('sub/GEMINI.md'), text('sub, written after a read')),
    2: () => {
      fs.writeFileSync(at('sub/GEMINI.md'), text('sub, changed'))
      fs.writeFileSync(at('sub/deep/GEMINI.md'), text('deep, changed'))
      fs.mkdirSync(at('new'))
      fs.writeFileSync(at('new/GEMINI.md'), text('new'))
    },
  }
  await compareBindingSession(
    at(''),
    path.join(dir, 'home'),
    [at('sub/file.txt'), at('sub/file.txt'), at('sub/deep/x.txt'), at('new/x.txt')],
    [0, 1, 1, 1],
    (i) => changes[i]?.(),
  )
})

test('s12_gemini_session_files_read_on_a_read_as_at_the_start', { skip }, async (t) => {
  // BOMs, CRLF, invalid UTF-8, a file over 32 KiB and imports, in files found on reads.
  const dir = tempTree(t, {
    'home/': '',
    'outside.md': 'outside the repository\n',
    'repo/.git/': '',
    'repo/GEMINI.md': text('root'),
    'repo/docs/style.md': 'Use tabs. @./more.md\n',
    'repo/docs/more.md': '\ufeffMore, which imports the style again: @./style.md\n',
    'repo/a/GEMINI.md': '\ufeff' + text('BOM'),
    'repo/a/b/GEMINI.md': '\r\n' + text('CRLF').replace(/\n/g, '\r\n') + '\r\n\r\n',
    'repo/a/b/c/GEMINI.md': Buffer.from([0x67, 0xff, 0xc3, 0x28, 0x0a, 0xe2, 0x82]),
    'repo/a/b/c/d/GEMINI.md': 'Every line of a long file.\n'.repeat(1600),
    'repo/i/GEMINI.md': '@../docs/style.md @../../outside.md @missing.md\n',
    'repo/i/j/GEMINI.md': '\ufeff',
  })
  const at = (p) => path.join(dir, 'repo', p)
  const error = console.error
  console.error = () => {}
  try {
    await compareSession(
      at(''),
      path.join(dir, 'home'),
      [at('a/b/c/d/x.txt'), at('i/j/x.txt'), at('docs/style.md')],
      [4, 1, 0],
    )
  } finally {
    console.error = error
  }
})

test('s12_gemini_session_an_unreadable_file_on_a_read', { skip }, async (t) => {
  // The product does not find a file it may not read (fs.access R_OK); ours reports it empty.
  const dir = tempTree(t, {
    'home/': '',
    'repo/.git/': '',
    'repo/GEMINI.md': text('root'),
    'repo/sub/GEMINI.md': text('unreadable'),
    'repo/sub/deep/GEMINI.md': text('deep'),
  })
  const locked = path.join(dir, 'repo/sub/GEMINI.md')
  fs.chmodSync(locked, 0)
  // As root every file is readable, and both read it; otherwise neither does.
  let readable = true
  try {
    fs.accessSync(locked, fs.constants.R_OK)
  } catch {
    readable = false
  }
  const at = (p) => path.join(dir, 'repo', p)
  // Reported once, at the read that finds it.
  await compareSession(
    at(''),
    path.join(dir, 'home'),
    [at('sub/deep/x.txt'), at('sub/y.txt')],
    [readable ? 2 : 1, 0],
    { unreadable: readable ? {} : { 0: [locked] } },
  )
})

test('s12_gemini_session_reads_of_odd_paths', { skip }, async (t) => {
  // Paths an agent may read, each walked as the product walks it.
  const dir = tempTree(t, {
    'home/': '',
    'elsewhere/GEMINI.md': text('elsewhere, through a link'),
    'elsewhere/file.txt': 'x\n',
    'repo/.git/GEMINI.md': text('inside .git'),
    'repo/.git/config': '[core]\n',
    'repo/GEMINI.md': text('root'),
    'repo/a/GEMINI.md': text('a'),
    'repo/b c/é/GEMINI.md': text('spaces and é'),
    'repo/d/GEMINI.md': text('d'),
    'repo/e/GEMINI.md': text('e'),
    'repo/f/GEMINI.md': text('f'),
  })
  fs.symlinkSync(path.join(dir, 'elsewhere'), path.join(dir, 'repo/ln'))
  fs.symlinkSync(path.join(dir, 'elsewhere/file.txt'), path.join(dir, 'repo/e/file-link.txt'))
  fs.symlinkSync(path.join(dir, 'nowhere'), path.join(dir, 'repo/f/broken'))
  const at = (p) => path.join(dir, 'repo', p)
  await compareSession(
    at(''),
    path.join(dir, 'home'),
    [
      at('.git/config'), // the walk starts in .git, and reads its GEMINI.md
      at('a/GEMINI.md'), // a GEMINI.md itself
      at('b c/é/x.txt'),
      at('d') + '/',
      at('ln'), // a link to a directory elsewhere: the walk starts in it, as named
      at('e/file-link.txt'), // a link to a file elsewhere: its directory as named
      at('f/broken'), // a link to nothing: as a path about to be created
      at(''), // the start again
    ],
    [1, 1, 1, 1, 1, 1, 1, 0],
  )
})

test('s12_gemini_session_an_empty_file_of_the_start_is_not_read_again', { skip }, async (t) => {
  // The product records the start's white-space-only file as loaded: a read beside it gives
  // nothing, and ours does not report it again.
  const dir = tempTree(t, {
    'home/': '',
    'repo/.git/': '',
    'repo/GEMINI.md': ' \n',
    'repo/a/GEMINI.md': '\ufeff\n',
    'repo/a/b/GEMINI.md': text('b'),
  })
  const at = (p) => path.join(dir, 'repo', p)
  const { json } = await compareSession(
    at('a'),
    path.join(dir, 'home'),
    [at('a/x.txt'), at('a/b/x.txt'), at('a/b/y.txt')],
    [0, 1, 0],
  )
  assert.equal(json.touches[0].omitted.length, 2)
})
