// docs/node.md's example is node/examples/readme.mjs, word for word, and prints what the page says
// it prints. (README.md's own npm example, under "### npm", is run by tests/install/npm against
// the package installed from a registry.)
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';

const node = dirname(dirname(fileURLToPath(import.meta.url)));
const section = readFileSync(join(node, '..', 'docs', 'node.md'), 'utf8');
const block = (fence) => {
  const start = section.indexOf(`\`\`\`${fence}\n`) + fence.length + 4;
  return section.slice(start, section.indexOf('```\n', start));
};

test('docs/node.md shows node/examples/readme.mjs and exactly what it prints', (t) => {
  const example = readFileSync(join(node, 'examples', 'readme.mjs'), 'utf8');
  assert.equal(block('js'), example);
  // Run as a product would: `agentsmd` resolved from its node_modules.
  const dir = mkdtempSync(join(tmpdir(), 'agentsmd-readme-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  mkdirSync(join(dir, 'node_modules'));
  symlinkSync(node, join(dir, 'node_modules', 'agentsmd'), 'dir');
  cpSync(join(node, 'examples', 'readme.mjs'), join(dir, 'readme.mjs'));
  const printed = execFileSync(process.execPath, [join(dir, 'readme.mjs')], { encoding: 'utf8' });
  assert.equal(`${printed}\n`, block('text'));
});
