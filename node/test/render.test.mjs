// Render (SPEC.md §2): PART_ID, the spec's golden example, render and renderBytes of any list of
// (path, content) pairs with a Buffer or a string, and the command line's bytes on a tree whose
// names and contents hold everything render treats specially.

import assert from 'node:assert/strict'
import path from 'node:path'
import { test } from 'node:test'

import { agentsmd, sameAsCli, tempTree } from './support.mjs'

test('PART_ID is agentsmd', () => {
  assert.equal(agentsmd.PART_ID, 'agentsmd')
})

test('the golden example of SPEC.md §2, from Buffers and from strings', () => {
  const expected =
    '<project_context>\n' +
    '<project_instructions path="/r/AGENTS.md">\nroot rules\n</project_instructions>\n' +
    '<project_instructions path="/r/a &quot;b&quot;/AGENTS.md">\nleaf & <x>\n</project_instructions>\n' +
    '</project_context>'
  for (const files of [
    [{ path: '/r/AGENTS.md', content: Buffer.from('root rules\n') }, { path: '/r/a "b"/AGENTS.md', content: Buffer.from('leaf & <x>') }],
    [{ path: '/r/AGENTS.md', content: 'root rules\n' }, { path: '/r/a "b"/AGENTS.md', content: 'leaf & <x>' }],
  ]) {
    assert.equal(agentsmd.render(files), expected)
    const bytes = agentsmd.renderBytes(files)
    assert.ok(Buffer.isBuffer(bytes))
    assert.equal(bytes.toString('utf8'), expected)
  }
})

test('no files render as the empty string', () => {
  assert.equal(agentsmd.render([]), '')
  assert.deepEqual(agentsmd.renderBytes([]), Buffer.alloc(0))
})

test('only & < > " are escaped in a path, and content is verbatim bytes', () => {
  const content = Buffer.from([0x66, 0xff, 0xfe, 0x00, 0x0d, 0x0a, 0x26, 0x3c])
  const bytes = agentsmd.renderBytes([{ path: `&<>"'\t\u00e9`, content }])
  assert.deepEqual(
    bytes,
    Buffer.concat([
      Buffer.from(`<project_context>\n<project_instructions path="&amp;&lt;&gt;&quot;'\t\u00e9">\n`),
      content,
      // The content does not end in a newline: one is added.
      Buffer.from('\n</project_instructions>\n</project_context>'),
    ]),
  )
  assert.equal(
    agentsmd.render([{ path: 'p', content: '' }]),
    '<project_context>\n<project_instructions path="p">\n\n</project_instructions>\n</project_context>',
  )
})

test('a Result\'s files render as they are, their other fields aside', () => {
  const files = [{ path: 'AGENTS.md', content: Buffer.from('x'), source: 'chain', extra: true }]
  assert.equal(
    agentsmd.render(files),
    '<project_context>\n<project_instructions path="AGENTS.md">\nx\n</project_instructions>\n</project_context>',
  )
})

test('the command line\'s bytes on names and contents that render treats specially', async (t) => {
  const dir = tempTree(t, {
    'AGENTS.md': '',
    'a&b/AGENTS.md': 'no newline',
    'a&b/<c>/AGENTS.md': 'crlf\r\n',
    'a&b/<c>/"d\'/AGENTS.md': Buffer.from([0xc3, 0x28, 0x0a, 0xff]),
    'a&b/<c>/"d\'/é ü/AGENTS.md': 'ünïcödé\n',
  })
  const leaf = path.join(dir, 'a&b', '<c>', '"d\'', 'é ü', 'x')
  const result = await sameAsCli(leaf, { root: dir })
  assert.equal(result.files.length, 5)
  assert.deepEqual(result.files[3].content, Buffer.from([0xc3, 0x28, 0x0a, 0xff]))
})
