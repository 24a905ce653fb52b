// overlayDir (SPEC.md §5.3): seed 003's per-caller overlay path USERS_DIR/IDENTITY/.agents, null
// when either argument is empty, an InvalidArgument naming the caller identity for one that
// could lead out of the users directory; and the overlay it names, used by chain.

import assert from 'node:assert/strict'
import path from 'node:path'
import { test } from 'node:test'

import { agentsmd, sameAsCli, tempTree, throwsKind } from './support.mjs'

test('the overlay path of a caller', () => {
  assert.equal(agentsmd.overlayDir('/srv/users', 'ada'), '/srv/users/ada/.agents')
  assert.equal(agentsmd.overlayDir('/srv/users/', 'ada.b'), '/srv/users/ada.b/.agents')
  assert.equal(agentsmd.overlayDir('/srv/users', 'ädä'), '/srv/users/ädä/.agents')
})

test('either argument empty means no overlay, and is no error', () => {
  assert.equal(agentsmd.overlayDir('', 'ada'), null)
  assert.equal(agentsmd.overlayDir('/srv/users', ''), null)
  assert.equal(agentsmd.overlayDir('', ''), null)
})

test('an identity that could lead out is an InvalidArgument naming the caller identity', () => {
  for (const identity of ['.', '..', 'a/b', 'a\\b', 'a..b', '../etc', 'a\0b']) {
    const err = throwsKind(() => agentsmd.overlayDir('/srv/users', identity), 'InvalidArgument')
    assert.match(err.message, /caller identity/, identity)
    assert.equal(err.errno, null)
  }
})

test('the overlay of a caller comes last in the chain, as the command line reads it', async (t) => {
  const dir = tempTree(t, {
    'repo/AGENTS.md': 'repo\n',
    'users/ada/.agents/AGENTS.md': 'ada\n',
    'users/ada/.agents/README.md': 'shadowed\n',
    'users/ada/.agents/AGENTS.d/z.md': 'z\n',
  })
  const overlay = agentsmd.overlayDir(path.join(dir, 'users'), 'ada')
  const result = await sameAsCli(path.join(dir, 'repo', 'x'), {
    root: path.join(dir, 'repo'),
    names: ['AGENTS.md', 'README.md'],
    fragments: ['AGENTS.d'],
    overlays: [overlay, agentsmd.overlayDir(path.join(dir, 'users'), 'bob')],
  })
  assert.deepEqual(
    result.files.map((f) => [path.relative(dir, f.path), f.source]),
    [
      ['repo/AGENTS.md', 'chain'],
      ['users/ada/.agents/AGENTS.md', 'overlay'],
      ['users/ada/.agents/AGENTS.d/z.md', 'overlay'],
    ],
  )
  assert.deepEqual(result.omitted.map((o) => o.reason), ['shadowed'])
})
