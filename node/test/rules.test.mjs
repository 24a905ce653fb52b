// Rules (SPEC.md §11, §11.1): `options.rules`, each `{ dialect, dir }`, in chain, chainSync and
// Session; each dialect's lookup, suffixes and front matter, the globs, `available`, `warnings`,
// source `rule` and the probe outcomes `not_matched` and `available`. Held to the command line's
// `--rules DIALECT:DIR --json` on the same trees (sameAsCli), touch by touch for sessions.

import assert from 'node:assert/strict'
import { execFileSync } from 'node:child_process'
import { cpSync, readFileSync, symlinkSync } from 'node:fs'
import path from 'node:path'
import { test } from 'node:test'

import {
  PACKAGE,
  agentsmd,
  cliJson,
  fromJson,
  memoryFs,
  plain,
  rejectsKind,
  sameAsCli,
  tempTree,
  throwsKind,
} from './support.mjs'

const { Session } = agentsmd

/**
 * Each dialect of §11's table as the tests write its rules: the directory they keep them in,
 * the suffix of their files, a front matter that makes a rule apply always, one that makes it
 * apply when a touched path matches a pattern, and whether its rule directory is looked up in
 * each directory of the walk (else at the root).
 */
const DIALECTS = {
  claude: {
    dir: '.claude/rules',
    suffix: '.md',
    always: '',
    glob: (p) => `paths: ${quote(p)}\n`,
    walk: false,
  },
  cursor: {
    dir: '.cursor/rules',
    suffix: '.mdc',
    always: 'alwaysApply: true\n',
    glob: (p) => `globs:\n  - ${quote(p)}\n`,
    walk: true,
  },
  copilot: {
    dir: '.github/instructions',
    suffix: '.instructions.md',
    always: 'applyTo: "**"\n',
    glob: (p) => `applyTo:\n  - ${quote(p)}\n`,
    walk: false,
  },
  windsurf: {
    dir: '.windsurf/rules',
    suffix: '.md',
    always: 'trigger: always_on\n',
    glob: (p) => `trigger: glob\nglobs:\n  - ${quote(p)}\n`,
    walk: true,
  },
  kiro: {
    dir: '.kiro/steering',
    suffix: '.md',
    always: 'inclusion: always\n',
    glob: (p) => `inclusion: fileMatch\nfileMatchPattern: ${quote(p)}\n`,
    walk: false,
  },
  cline: {
    dir: '.clinerules',
    suffix: '.md',
    always: '',
    glob: (p) => `paths:\n  - ${quote(p)}\n`,
    walk: false,
  },
}

/** A YAML single-quoted scalar. */
const quote = (text) => `'${text.replaceAll("'", "''")}'`

/** `keys` as a front matter; none when empty. */
const front = (keys) => (keys === '' ? '' : `---\n${keys}---\n`)

/** The `rules` option of the named dialects, each in its usual directory. */
const rulesOf = (...names) => names.map((dialect) => ({ dialect, dir: DIALECTS[dialect].dir }))

/** The contents of `result`'s files of source `rule`, in order. */
const rules = (result) => result.files.filter((file) => file.source === 'rule').map((file) => file.content.toString())

/** The names of `result.available`, in order. */
const offered = (result) => result.available.map((rule) => rule.name)

/** `chain`, `chainSync` and the command line at `root/relative` with `options` (and `root`). */
const at = (root, relative, options) => sameAsCli(path.join(root, relative), { root, ...options })

test('§11 each dialect is looked up at the root or in each directory of the walk', async (t) => {
  for (const [dialect, { dir, suffix, always, walk }] of Object.entries(DIALECTS)) {
    const root = tempTree(t, {
      [`${dir}/r${suffix}`]: `${front(always)}root rule\n`,
      [`sub/${dir}/r${suffix}`]: `${front(always)}sub rule\n`,
    })
    const result = await at(root, 'sub/x.txt', { rules: rulesOf(dialect) })
    assert.deepEqual(rules(result), walk ? ['root rule\n', 'sub rule\n'] : ['root rule\n'], dialect)
    assert.deepEqual(
      result.files.map((file) => [file.path, file.source]),
      [[path.join(root, dir, `r${suffix}`), 'rule'], ...(walk ? [[path.join(root, 'sub', dir, `r${suffix}`), 'rule']] : [])],
      dialect,
    )
    assert.deepEqual(result.warnings, [], dialect)
  }
})

test('§11 each dialect counts the files of its suffixes', async (t) => {
  const counted = {
    claude: ['a', 'd'],
    cursor: ['a', 'b', 'd'],
    copilot: ['d'],
    windsurf: ['a', 'd'],
    kiro: ['a', 'd'],
    cline: ['a', 'c', 'd'],
  }
  const names = { a: 'a.md', b: 'b.mdc', c: 'c.txt', d: 'd.instructions.md', e: 'e.markdown', f: 'f.MD', g: 'g.md.bak' }
  for (const [dialect, { dir, always }] of Object.entries(DIALECTS)) {
    const tree = {}
    for (const [letter, name] of Object.entries(names)) tree[`${dir}/${name}`] = `${front(always)}${letter}\n`
    const root = tempTree(t, tree)
    const result = await at(root, 'x.txt', { rules: rulesOf(dialect) })
    assert.deepEqual(rules(result), counted[dialect].map((letter) => `${letter}\n`), dialect)
  }
})

/**
 * Each dialect's rows of the table: the rules it writes (name → text), then, per touched path,
 * the contents that apply (the always-rules and the glob-rules that match, in byte order of
 * name) and the names offered on request.
 */
const ROWS = {
  claude: {
    rules: {
      'a.md': 'a\n',
      'b.md': '---\ndescription: only a description\n---\nb\n',
      'c.md': '---\npaths: "src/**/*.go"\n---\nc\n',
      'd.md': '---\npaths:\n  - "a/*.rs"\n  - "b/*.rs"\n---\nd\n',
      'e.md': '---\npaths: []\n---\ne\n',
    },
    cases: [
      ['src/x/y.go', ['a\n', 'b\n', 'c\n'], []],
      ['b/z.rs', ['a\n', 'b\n', 'd\n'], []],
      // Anchored at the root: src/ below another directory is not src/.
      ['lib/src/y.go', ['a\n', 'b\n'], []],
    ],
  },
  cursor: {
    rules: {
      'a.mdc': '---\nalwaysApply: true\n---\na\n',
      'b.mdc': '---\nglobs: ["*.go", "*.mod"]\nalwaysApply: false\n---\nb\n',
      'c.mdc': '---\nglobs: "*.ts,*.tsx"\n---\nc\n',
      'd.mdc': '---\ndescription: Apply to Go\n---\nd\n',
      'e.md': 'e\n',
      'f.mdc': '---\nglobs: ""\n---\nf\n',
    },
    cases: [
      ['cmd/x.go', ['a\n', 'b\n'], ['d', 'e', 'f']],
      ['web/x.tsx', ['a\n', 'c\n'], ['d', 'e', 'f']],
      ['x.none', ['a\n'], ['d', 'e', 'f']],
    ],
  },
  copilot: {
    rules: {
      'a.instructions.md': '---\napplyTo: "**/*"\n---\na\n',
      'b.instructions.md': '---\napplyTo: "src/**/*.ts,*.md"\n---\nb\n',
      'c.instructions.md': '---\napplyTo: "**/*.GO"\n---\nc\n',
      'm.instructions.md': '---\ndescription: Manual\n---\nm\n',
    },
    cases: [
      // The root itself: `**/*` matches no element, but a whole `**/*` is always.
      ['', ['a\n'], ['m']],
      ['src/a/b.ts', ['a\n', 'b\n'], ['m']],
      ['cmd/X.go', ['a\n', 'c\n'], ['m']],
    ],
  },
  windsurf: {
    rules: {
      'a.md': '---\ntrigger: always_on\n---\na\n',
      'b.md': '---\ntrigger: glob\nglobs: "*.go"\n---\nb\n',
      'c.md': '---\ntrigger: model_decision\ndescription: When writing SQL\n---\nc\n',
      'd.md': '---\ntrigger: manual\n---\nd\n',
      'e.md': '---\ntrigger: glob\n---\ne\n',
    },
    cases: [
      ['x/y.go', ['a\n', 'b\n'], ['c', 'd']],
      ['x.rs', ['a\n'], ['c', 'd']],
    ],
  },
  kiro: {
    rules: {
      'a.md': 'a\n',
      'b.md': '---\ninclusion: always\n---\nb\n',
      'c.md': '---\ninclusion: fileMatch\nfileMatchPattern: "*.tsx"\n---\nc\n',
      'd.md': '---\ninclusion: manual\n---\nd\n',
      'e.md': '---\ninclusion: auto\ndescription: API design\n---\ne\n',
    },
    cases: [
      ['ui/app.tsx', ['a\n', 'b\n', 'c\n'], ['d', 'e']],
      ['x.rs', ['a\n', 'b\n'], ['d', 'e']],
    ],
  },
  cline: {
    rules: {
      'a.md': 'a\n',
      'b.txt': '---\npaths:\n  - "src/*.rs"\n---\nb\n',
      'c.md': '---\npaths: []\n---\nc\n',
    },
    cases: [
      ['src/x.rs', ['a\n', 'b\n'], []],
      ['z/src/x.rs', ['a\n'], []],
    ],
  },
}

for (const [dialect, { rules: files, cases }] of Object.entries(ROWS)) {
  test(`§11 ${dialect}: always, when a touched path matches, on request`, async (t) => {
    const { dir } = DIALECTS[dialect]
    const root = tempTree(t, Object.fromEntries(Object.entries(files).map(([name, text]) => [`${dir}/${name}`, text])))
    for (const [relative, applies, onRequest] of cases) {
      const result = await at(root, relative, { rules: rulesOf(dialect) })
      assert.deepEqual(rules(result), applies, `${dialect} at ${relative}`)
      assert.deepEqual(offered(result), onRequest, `${dialect} at ${relative}`)
      assert.deepEqual(result.warnings, [], `${dialect} at ${relative}`)
    }
  })
}

/** Whether a rule of `dialect` whose one pattern is `pattern` applies at `touched`, with no warning. */
async function matches(t, dialect, pattern, touched) {
  const { dir, suffix, glob } = DIALECTS[dialect]
  const root = tempTree(t, { [`${dir}/r${suffix}`]: `${front(glob(pattern))}rule\n` })
  const result = await at(root, touched, { rules: rulesOf(dialect) })
  assert.deepEqual(result.warnings, [], `${dialect} ${pattern} at ${touched}`)
  assert.deepEqual(result.available, [], 'a glob rule is never on request')
  return rules(result).length === 1
}

test('§11.1 globs: relative to the holder, anchoring, ** and *, classes, braces, dot names, case', async (t) => {
  const cases = [
    // The holder directory itself: `**` matches it, `*` and `**/*` do not.
    ['claude', '**', '', true],
    ['claude', '*', '', false],
    ['claude', '**/*', '', false],
    // claude and cline are anchored at the holder; the others match at any depth.
    ['claude', '*.rs', 'd/a.rs', false],
    ['cline', '*.rs', 'd/a.rs', false],
    ['cursor', '*.rs', 'd/e/a.rs', true],
    ['kiro', 'd/*.rs', 'x/d/a.rs', true],
    // A leading `/` anchors and is removed.
    ['cursor', '/*.rs', 'a.rs', true],
    ['cursor', '/*.rs', 'd/a.rs', false],
    // `**` as a whole element is any number of elements, none included; else it is `*`.
    ['claude', 'src/**/x.rs', 'src/x.rs', true],
    ['claude', 'src/**/x.rs', 'src/a/b/x.rs', true],
    ['claude', 'a**b.rs', 'ax/yb.rs', false],
    // `?` is one character, never `/`; classes negate with `!` or `^`; braces nest.
    ['claude', '?.rs', 'é.rs', true],
    ['claude', 'a?c.rs', 'a/c.rs', false],
    ['claude', '[!abc].rs', 'b.rs', false],
    ['claude', '[^abc].rs', 'd.rs', true],
    ['claude', '{a,b{c,d}}.rs', 'bd.rs', true],
    ['claude', '{a,b{c,d}}.rs', 'b.rs', false],
    // Names beginning with `.` match like any other.
    ['cursor', '*', '.env', true],
    // Copilot folds ASCII case only; the others compare exactly.
    ['copilot', 'SRC/**', 'src/a.rs', true],
    ['copilot', 'É.rs', 'é.rs', false],
    ['windsurf', '*.RS', 'a.rs', false],
  ]
  for (const [dialect, pattern, touched, expected] of cases) {
    assert.equal(await matches(t, dialect, pattern, touched), expected, `${dialect} ${pattern} at ${touched}`)
  }
})

test('§11 the globs of a walk directory\'s rules are relative to that directory', async (t) => {
  const root = tempTree(t, {
    'sub/.cursor/rules/k.mdc': '---\nglobs: "/x.go"\n---\ncursor\n',
    '.claude/rules/c.md': '---\npaths: "x.go"\n---\nclaude\n',
  })
  const options = { rules: rulesOf('claude', 'cursor') }
  assert.deepEqual(rules(await at(root, 'sub/x.go', options)), ['cursor\n'])
  assert.deepEqual(rules(await at(root, 'x.go', options)), ['claude\n'])
  assert.deepEqual(rules(await at(root, 'other/x.go', options)), [])
})

test('§11 available: {path, name, description}, not given; warnings: "PATH: message", the rule applying', async (t) => {
  const root = tempTree(t, {
    'AGENTS.md': 'root\n',
    '.cursor/rules/style.mdc': '---\ndescription: Go style\n---\nstyle\n',
    '.cursor/rules/manual.md': 'manual\n',
    '.cursor/rules/nested/deep.mdc': '---\ndescription: "Deep: yes"\n---\ndeep\n',
    // YAML reads `**/*.go` as an alias, and claude's front matter is not read line by line.
    '.claude/rules/alias.md': '---\npaths: **/*.go\n---\nalias\n',
    // An invalid glob matches nothing, with a warning.
    '.claude/rules/unclosed.md': '---\npaths: "[abc"\n---\nunclosed\n',
  })
  const result = await at(root, 'x', { rules: rulesOf('cursor', 'claude') })
  assert.deepEqual(rules(result), ['alias\n'])
  const rulesDir = path.join(root, '.cursor', 'rules')
  assert.deepEqual(result.available, [
    { path: path.join(rulesDir, 'manual.md'), name: 'manual', description: '' },
    { path: path.join(rulesDir, 'nested', 'deep.mdc'), name: 'deep', description: 'Deep: yes' },
    { path: path.join(rulesDir, 'style.mdc'), name: 'style', description: 'Go style' },
  ])
  assert.equal(result.warnings.length, 2, result.warnings.join('\n'))
  for (const [warning, file] of result.warnings.map((w, i) => [w, ['alias.md', 'unclosed.md'][i]])) {
    const prefix = `${path.join(root, '.claude', 'rules', file)}: `
    assert.ok(warning.startsWith(prefix) && warning.length > prefix.length, warning)
  }
  // Without rules, both are empty.
  const none = await at(root, 'x', {})
  assert.deepEqual([none.available, none.warnings], [[], []])
})

test('§11.1 probes: each rule directory and its files, source rule, not_matched and available', async (t) => {
  const root = tempTree(t, {
    'AGENTS.md': 'root\n',
    '.claude/rules/a.md': 'a\n',
    '.claude/rules/g.md': '---\npaths: "*.go"\n---\ng\n',
    '.claude/rules/.hidden.md': 'hidden\n',
    '.claude/rules/n.txt': 'txt\n',
    '.github/instructions/m.instructions.md': '---\ndescription: M\n---\nm\n',
    'sub/': '',
  })
  const result = await at(root, 'sub/x.rs', { rules: rulesOf('claude', 'copilot', 'cursor'), report: true })
  const probe = (relative, source, outcome) => ({ path: path.join(root, relative), source, outcome })
  assert.deepEqual(plain(result).probes, [
    probe('AGENTS.md', 'chain', 'included'),
    probe('.claude/rules', 'rule', 'listed'),
    probe('.claude/rules/a.md', 'rule', 'included'),
    probe('.claude/rules/g.md', 'rule', 'not_matched'),
    probe('.github/instructions', 'rule', 'listed'),
    probe('.github/instructions/m.instructions.md', 'rule', 'available'),
    probe('.cursor/rules', 'rule', 'not_found'),
    probe('sub/AGENTS.md', 'chain', 'not_found'),
    probe('sub/.cursor/rules', 'rule', 'not_found'),
  ])
})

test('§11 order: a directory\'s file, its fragments, then its rules in option order', async (t) => {
  const root = tempTree(t, {
    'AGENTS.md': 'root\n',
    'frags/f.md': 'root fragment\n',
    '.clinerules/b.md': 'cline\n',
    '.claude/rules/a.md': 'claude\n',
    '.cursor/rules/c.mdc': '---\nalwaysApply: true\n---\nroot cursor\n',
    'sub/AGENTS.md': 'sub\n',
    'sub/.cursor/rules/d.mdc': '---\nalwaysApply: true\n---\nsub cursor\n',
  })
  const result = await at(root, 'sub/x', { fragments: ['frags'], rules: rulesOf('cline', 'cursor', 'claude') })
  assert.deepEqual(
    result.files.map((file) => [file.content.toString(), file.source]),
    [
      ['root\n', 'chain'],
      ['root fragment\n', 'fragment'],
      ['cline\n', 'rule'],
      ['root cursor\n', 'rule'],
      ['claude\n', 'rule'],
      ['sub\n', 'chain'],
      ['sub cursor\n', 'rule'],
    ],
  )
})

test('§11.1 the budgets charge a rule\'s content; one that applies over maxBytes is TooLarge, one on request is not', async (t) => {
  const head = '---\ndescription: a front matter much longer than the rule it heads\n---\n'
  const root = tempTree(t, { '.claude/rules/a.md': `${head}A\n`, '.claude/rules/b.md': `${head}B\n` })
  const size = head.length + 2
  const budget = size + Math.floor(size / 2)
  const result = await at(root, 'x', { rules: rulesOf('claude'), budget })
  assert.deepEqual([rules(result), result.omitted], [['A\n', 'B\n'], []])

  const long = `${'x'.repeat(200)}\n`
  const big = tempTree(t, {
    '.github/instructions/manual.instructions.md': `---\ndescription: d\n---\n${long}`,
    '.claude/rules/go.md': `---\npaths: "*.go"\n---\n${long}`,
  })
  const options = { root: big, rules: rulesOf('copilot', 'claude'), maxBytes: 100 }
  assert.deepEqual(offered(await at(big, 'x.rs', options)), ['manual'])
  const error = throwsKind(() => agentsmd.chainSync(path.join(big, 'x.go'), options), 'TooLarge')
  assert.equal(error.path, path.join(big, '.claude', 'rules', 'go.md'))
  await rejectsKind(agentsmd.chain(path.join(big, 'x.go'), options), 'TooLarge')
})

test('§11 rules through a custom file system, its names FS names', async () => {
  for (const mode of ['sync', 'async']) {
    const fs = memoryFs(
      {
        'AGENTS.md': 'root\n',
        '.cursor/rules/go.mdc': '---\nglobs: **/*.go\n---\ngo\n',
        '.cursor/rules/pick.mdc': '---\ndescription: Pick me\n---\npick\n',
        'web/.cursor/rules/ts.mdc': '---\nglobs: "*.ts"\n---\nts\n',
      },
      mode,
    )
    const options = { fs, rules: rulesOf('cursor'), report: true }
    const results = [await agentsmd.chain('web/cmd/main.go', options)]
    if (mode === 'sync') results.push(agentsmd.chainSync('web/cmd/main.go', options))
    for (const result of results) {
      assert.deepEqual(result.files.map((file) => [file.path, file.source]), [
        ['AGENTS.md', 'chain'],
        ['.cursor/rules/go.mdc', 'rule'],
      ], mode)
      assert.deepEqual(result.available, [{ path: '.cursor/rules/pick.mdc', name: 'pick', description: 'Pick me' }], mode)
      const outcome = (name) => result.probes.find((probe) => probe.path === name)?.outcome
      assert.equal(outcome('web/.cursor/rules/ts.mdc'), 'not_matched', mode)
      assert.equal(outcome('.cursor/rules/pick.mdc'), 'available', mode)
    }
  }
})

/** The command line's `--touch` session: `touched[0]` first, then the others; one plain result per touch. */
function cliTouches(root, touched, rulesOption) {
  const flags = rulesOption.flatMap(({ dialect, dir }) => ['--rules', `${dialect}:${dir}`])
  const json = cliJson([touched[0], '--root', root, ...flags, '--explain', '--touch', ...touched.slice(1)])
  return json.touches.map((touch) => fromJson(touch))
}

test('§11 a session gives an always-rule at the first touch that looks its directory up, a glob-rule at the first touch it matches, each once', async (t) => {
  const root = tempTree(t, {
    'AGENTS.md': 'root\n',
    '.claude/rules/always.md': 'always\n',
    '.claude/rules/go.md': '---\npaths: "**/*.go"\n---\ngo\n',
    'sub/.cursor/rules/always.mdc': '---\nalwaysApply: true\n---\nsub always\n',
    'sub/.cursor/rules/pick.mdc': '---\ndescription: Pick me\n---\npick\n',
    'sub/.cursor/rules/ts.mdc': '---\nglobs: "*.ts"\n---\nts\n',
    'sub/.cursor/rules/md.mdc': '---\nglobs: "**/*.md"\n---\nmd\n',
  })
  const touched = ['a.txt', 'b/c.go', 'd.go', 'sub/x.txt', 'sub/y.ts', 'sub/z.ts', 'sub/w.go', 'other/readme.md', 'sub/readme.md']
    .map((relative) => path.join(root, relative))
  const expected = [
    [['root\n', 'always\n'], []],
    [['go\n'], []],
    [[], []],
    [['sub always\n'], ['pick']],
    [['ts\n'], []],
    [[], []],
    [[], []],
    // Outside the directory holding the Cursor rules: none matches there.
    [[], []],
    [['md\n'], []],
  ]
  const options = { root, rules: rulesOf('claude', 'cursor'), report: true }
  const cli = cliTouches(root, touched, options.rules)
  const sync = new Session(options)
  const async = new Session(options)
  for (const [i, at] of touched.entries()) {
    const deltas = [sync.touchSync(at), await async.touch(at)]
    for (const delta of deltas) {
      assert.deepEqual([delta.files.map((file) => file.content.toString()), offered(delta)], expected[i], `touch ${i}`)
      assert.deepEqual(plain(delta), cli[i], `touch ${i} is the command line's`)
    }
  }
  assert.deepEqual(cli[3].files[0], {
    path: path.join(root, 'sub', '.cursor', 'rules', 'always.mdc'),
    content: Buffer.from('sub always\n'),
    source: 'rule',
  })
})

test('§11 a bad dialect or rule directory is InvalidArgument, in chain, chainSync and new Session', async (t) => {
  const root = tempTree(t, { 'AGENTS.md': 'root\n' })
  const bad = [
    [{ dialect: 'amp', dir: '.amp/rules' }, /amp.*none of claude, cursor, copilot, windsurf, kiro, cline/],
    [{ dialect: 'Cursor', dir: '.cursor/rules' }, /options\.rules\[0\]\.dialect/],
    [{ dialect: '', dir: '.cursor/rules' }, /options\.rules\[0\]\.dialect/],
    [{ dialect: 42, dir: '.cursor/rules' }, /options\.rules\[0\]\.dialect: expected a string/],
    [{ dir: '.cursor/rules' }, /options\.rules\[0\]\.dialect: expected a string/],
    [{ dialect: 'cursor' }, /options\.rules\[0\]\.dir: expected a string/],
    [null, /options\.rules\[0\]: expected an object/],
    ['cursor:.cursor/rules', /options\.rules\[0\]: expected an object/],
  ]
  for (const dir of ['', '.', '..', '../x', 'a//b', 'a/../b', 'a/./b', '/abs', 'a/', 'a\0b']) {
    bad.push([{ dialect: 'cursor', dir }, /rule directory/])
  }
  for (const [rule, message] of bad) {
    const options = { root, rules: [rule] }
    const what = JSON.stringify(rule)
    assert.match(throwsKind(() => agentsmd.chainSync(root, options), 'InvalidArgument').message, message, what)
    assert.match((await rejectsKind(agentsmd.chain(root, options), 'InvalidArgument')).message, message, what)
    assert.match(throwsKind(() => new Session(options), 'InvalidArgument').message, message, what)
  }
  throwsKind(() => agentsmd.chainSync(root, { root, rules: { dialect: 'cursor', dir: '.cursor/rules' } }), 'InvalidArgument')
  // The second element is read too.
  const second = { root, rules: [{ dialect: 'cursor', dir: '.cursor/rules' }, { dialect: 'zed', dir: 'x' }] }
  assert.match(throwsKind(() => agentsmd.chainSync(root, second), 'InvalidArgument').message, /options\.rules\[1\]\.dialect/)
})

test('§11 docs/node.md shows node/examples/rules.mjs and exactly what it prints', (t) => {
  const page = readFileSync(path.join(PACKAGE, '..', 'docs', 'node.md'), 'utf8')
  const section = page.slice(page.indexOf('## Rules\n'))
  const block = (fence) => {
    const start = section.indexOf(`\`\`\`${fence}\n`) + fence.length + 4
    return section.slice(start, section.indexOf('```\n', start))
  }
  const example = readFileSync(path.join(PACKAGE, 'examples', 'rules.mjs'), 'utf8')
  assert.equal(block('js'), example)
  // Run as a product would: `agentsmd` resolved from its node_modules.
  const dir = tempTree(t, { 'node_modules/': '' })
  symlinkSync(PACKAGE, path.join(dir, 'node_modules', 'agentsmd'), 'dir')
  cpSync(path.join(PACKAGE, 'examples', 'rules.mjs'), path.join(dir, 'rules.mjs'))
  const printed = execFileSync(process.execPath, [path.join(dir, 'rules.mjs')], { encoding: 'utf8' })
  assert.equal(printed, block('text'))
})
