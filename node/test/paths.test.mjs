// Paths that are not UTF-8 (SPEC.md §1, §7: lossless), as node/README.md documents them: each
// byte that is not part of well-formed UTF-8 is the lone surrogate U+DC00 + the byte, in every
// string the package gives (paths, by, messages, error paths, the block, render's output) and
// takes (path, root, extra, overlays, a custom FS's names, render's paths and contents), so that
// a path handed back names the same bytes; the command line's JSON `{"bytes"}` says the same.

import assert from 'node:assert/strict'
import fs from 'node:fs'
import path from 'node:path'
import { test } from 'node:test'

import {
  agentsmd,
  bytesOfText,
  cliOk,
  memoryFs,
  pathFromBytes,
  sameAsCli,
  tempTree,
  throwsKind,
} from './support.mjs'

const unix = { skip: process.platform === 'win32' && 'Windows paths are WTF-8, never bytes that are not UTF-8' }

/** `dir` joined with the element whose bytes are `bytes`, made on disk as a directory. */
function byteDir(dir, bytes) {
  const made = Buffer.concat([Buffer.from(`${dir}/`), Buffer.from(bytes)])
  fs.mkdirSync(made)
  return made
}

/** Writes `content` at `dirBytes`/AGENTS.md. */
function writeIn(dirBytes, content, name = 'AGENTS.md') {
  fs.writeFileSync(Buffer.concat([dirBytes, Buffer.from(`/${name}`)]), content)
}

test('the escape rule: UTF-8 is text, each other byte a lone surrogate; pathToBytes and pathFromBytes keep it', () => {
  assert.equal(pathFromBytes(Buffer.from([0x61, 0xff, 0xc3, 0xa9, 0xc3])), 'a\udcffé\udcc3')
  assert.deepEqual(bytesOfText('a\udcffé\udcc3'), Buffer.from([0x61, 0xff, 0xc3, 0xa9, 0xc3]))
  const samples = [
    [],
    [0x61, 0xff, 0xc3, 0xa9, 0xc3],
    [0xed, 0xa0, 0x80], // an encoded surrogate is no UTF-8
    [0xf0, 0x9f, 0x98, 0x80, 0xf0, 0x9f, 0x98], // a whole emoji, then a cut one
    [0xc0, 0xaf, 0xe0, 0x80, 0xaf, 0xf8, 0x80], // overlong forms, a byte no UTF-8 holds
  ]
  // And every byte value, alone and after a lead byte of each length.
  for (let b = 0; b < 256; b++) samples.push([b], [0xc3, b], [0xe2, 0x82, b], [0xf0, 0x9f, 0x98, b])
  for (const sample of samples) {
    const bytes = Buffer.from(sample)
    const text = agentsmd.pathFromBytes(bytes)
    assert.equal(text, pathFromBytes(bytes), `pathFromBytes(${bytes.toString('hex')})`)
    assert.deepEqual(agentsmd.pathToBytes(text), bytes, `pathToBytes(pathFromBytes(${bytes.toString('hex')}))`)
    assert.ok(Buffer.isBuffer(agentsmd.pathToBytes(text)))
  }
  throwsKind(() => agentsmd.pathToBytes('a\ud800'), 'InvalidArgument')
})

test('a chain below a directory that is not UTF-8: paths escaped, the command line\'s bytes', unix, async (t) => {
  const dir = tempTree(t, { 'AGENTS.md': 'root\n' })
  const odd = byteDir(dir, [0x66, 0xff, 0xfe])
  writeIn(odd, Buffer.from([0x6c, 0x65, 0x61, 0x66, 0x80, 0x0a]))
  writeIn(odd, 'shadowed\n', 'README.md')
  const leaf = `${dir}/f\udcff\udcfe/new.md`
  const result = await sameAsCli(leaf, { root: dir, names: ['AGENTS.md', 'README.md'], report: true })
  assert.deepEqual(
    result.files.map((f) => f.path),
    [`${dir}/AGENTS.md`, `${dir}/f\udcff\udcfe/AGENTS.md`],
  )
  assert.deepEqual(result.files[1].content, Buffer.from([0x6c, 0x65, 0x61, 0x66, 0x80, 0x0a]))
  assert.deepEqual(result.omitted, [
    { path: `${dir}/f\udcff\udcfe/README.md`, size: 9, reason: 'shadowed', by: `${dir}/f\udcff\udcfe/AGENTS.md` },
  ])
  // The path handed back, as pathToBytes gives its bytes, opens the same file.
  assert.deepEqual(fs.readFileSync(agentsmd.pathToBytes(result.files[1].path)), result.files[1].content)
  // render's string keeps the bytes the same way; renderBytes is the bytes.
  const rendered = agentsmd.render(result.files)
  assert.deepEqual(bytesOfText(rendered), agentsmd.renderBytes(result.files))
  assert.ok(rendered.includes('f\udcff\udcfe/AGENTS.md'))
})

test('root, extra and overlays that are not UTF-8', unix, async (t) => {
  const dir = tempTree(t)
  const root = byteDir(dir, [0x72, 0xe9])
  writeIn(root, 'root\n')
  const overlay = byteDir(dir, [0x6f, 0xff])
  writeIn(overlay, 'overlay\n')
  const extra = byteDir(dir, [0x65, 0xc0])
  writeIn(extra, 'extra\n', 'user.md')
  const text = (bytes) => pathFromBytes(bytes)
  const result = await sameAsCli(`${text(root)}/a/b`, {
    root: text(root),
    extra: [`${text(extra)}/user.md`],
    overlays: [text(overlay)],
  })
  assert.deepEqual(
    result.files.map((f) => [f.path, f.source]),
    [
      [`${dir}/e\udcc0/user.md`, 'extra'],
      [`${dir}/r\udce9/AGENTS.md`, 'chain'],
      [`${dir}/o\udcff/AGENTS.md`, 'overlay'],
    ],
  )
})

test('an error names a path that is not UTF-8 in its message and path', unix, async (t) => {
  const dir = tempTree(t)
  const odd = byteDir(dir, [0xff])
  writeIn(odd, 'x'.repeat(20))
  const err = throwsKind(() => agentsmd.chainSync(`${dir}/\udcff/x`, { root: dir, maxBytes: 10 }), 'TooLarge')
  assert.equal(err.path, `${dir}/\udcff/AGENTS.md`)
  assert.ok(err.message.includes(`${dir}/\udcff/AGENTS.md`), err.message)
})

test('a lone surrogate that names no byte is an InvalidArgument', () => {
  for (const bad of ['/tmp/\ud800', '/tmp/\udc00', '/tmp/\udc7f', '/tmp/\udfff']) {
    throwsKind(() => agentsmd.chainSync(bad, { root: '/tmp' }), 'InvalidArgument')
  }
  throwsKind(() => agentsmd.renderBytes([{ path: '\ud800', content: 'x' }]), 'InvalidArgument')
})

test('render takes escaped strings as the bytes they name, paths and contents alike', () => {
  const bytes = agentsmd.renderBytes([{ path: 'a\udcff', content: 'b\udcfe\n' }])
  assert.deepEqual(
    bytes,
    Buffer.concat([
      Buffer.from('<project_context>\n<project_instructions path="a'),
      Buffer.from([0xff]),
      Buffer.from('">\nb'),
      Buffer.from([0xfe]),
      Buffer.from('\n</project_instructions>\n</project_context>'),
    ]),
  )
  assert.equal(
    agentsmd.render([{ path: 'p', content: Buffer.from([0x80]) }]),
    '<project_context>\n<project_instructions path="p">\n\udc80\n</project_instructions>\n</project_context>',
  )
})

test('a custom file system\'s names that are not UTF-8, escaped both ways', () => {
  const result = agentsmd.chainSync('d\udcff/x', { fs: memoryFs({ 'AGENTS.md': 'root\n', 'd\udcff/AGENTS.md': 'leaf\n' }) })
  assert.deepEqual(result.files.map((f) => f.path), ['AGENTS.md', 'd\udcff/AGENTS.md'])
  assert.ok(agentsmd.renderBytes(result.files).includes(Buffer.from([0x64, 0xff, 0x2f])))
})

test('a block naming a file that is not UTF-8 is the command line\'s bytes', unix, async (t) => {
  const dir = tempTree(t)
  const odd = byteDir(dir, [0x73, 0xfe])
  writeIn(odd, `# Big\n\n${'x'.repeat(3000)}\n\n# Small\n\nsmall\n`)
  const file = `${dir}/s\udcfe/AGENTS.md`
  const doc = await agentsmd.parse(file)
  const { block } = agentsmd.block(doc, { cap: 2048 })
  assert.ok(block.includes(`read ${file} for the full instructions`), block)
  assert.deepEqual(bytesOfText(block), cliOk(['structure', file, '--cap', '2048', '--root', dir]))
})
