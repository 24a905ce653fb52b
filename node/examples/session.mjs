// The session example of docs/node.md, which node/test/sessions.test.mjs runs and holds to the
// output the page shows.
import { posix } from 'node:path';
import { Session } from 'agentsmd';

// A workspace in memory: names are `/`-separated, `.` is its root, and `null` means "not found".
const files = new Map([
  ['AGENTS.md', 'root rules\n'],
  ['api/AGENTS.md', 'api rules\n'],
  ['web/AGENTS.md', 'web rules\n'],
]);
const dirs = new Set(['.', 'api', 'web']);
const fs = {
  list(dir) {
    if (!dirs.has(dir)) return null;
    const names = [...files.keys(), ...dirs].filter((name) => name !== dir && posix.dirname(name) === dir);
    return names.map((name) => posix.basename(name));
  },
  stat(name) {
    if (dirs.has(name)) return { kind: 'dir', size: 0 };
    return files.has(name) ? { kind: 'file', size: files.get(name).length } : null;
  },
  read: (name, limit) => (files.has(name) ? Buffer.from(files.get(name)).subarray(0, limit) : null),
};

// The agent reads two files of api/, then edits one of web/: each touch gives what newly applies.
const session = new Session({ fs });
for (const path of ['api/handler.ts', 'api/routes.ts', 'web/page.tsx']) {
  const delta = await session.touch(path);
  console.log(`${path}: ${delta.files.map((file) => file.path).join(', ') || 'nothing new'}`);
}
