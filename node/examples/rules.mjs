// The rules example of docs/node.md, which node/test/rules.test.mjs runs and holds to the output
// the page shows.
import { posix } from 'node:path';
import { chain } from 'agentsmd';

// A repository in memory: names are `/`-separated, `.` is its root, and `null` means "not found".
const files = new Map([
  ['AGENTS.md', 'Run `make test` before you commit.\n'],
  ['.cursor/rules/go.mdc', '---\nglobs: **/*.go\n---\nWrap errors with %w.\n'],
  ['.cursor/rules/sql.mdc', '---\ndescription: Writing SQL migrations\n---\nOne statement per file.\n'],
  ['.cursor/rules/style.mdc', '---\nalwaysApply: true\n---\nTabs, not spaces.\n'],
]);
const dirs = new Set(['.', '.cursor', '.cursor/rules', 'cmd']);
const fs = {
  list(dir) {
    if (!dirs.has(dir)) return null;
    const names = [...files.keys(), ...dirs].filter((name) => name !== dir && posix.dirname(name) === dir);
    return names.map((name) => posix.basename(name));
  },
  stat(name) {
    if (dirs.has(name)) return { kind: 'dir', size: 0 };
    return files.has(name) ? { kind: 'file', size: Buffer.byteLength(files.get(name)) } : null;
  },
  read: (name, limit) => (files.has(name) ? Buffer.from(files.get(name)).subarray(0, limit) : null),
};

// Cursor's rules: one always, one for Go files (globs), one the model may ask for (description).
const options = { fs, rules: [{ dialect: 'cursor', dir: '.cursor/rules' }] };
for (const path of ['cmd/main.go', 'README.md']) {
  const result = await chain(path, options);
  console.log(`${path}: ${result.files.map((file) => `${file.path} (${file.source})`).join(', ')}`);
  console.log(`  on request: ${result.available.map((rule) => `@${rule.name}: ${rule.description}`).join(', ')}`);
}
