// The Node example of docs/node.md, which node/test/readme.test.mjs runs and holds to the output
// the page shows.
import { chain, renderBytes } from 'agentsmd';

// A workspace that is not on this machine, answered asynchronously: names are `/`-separated,
// `.` is its root, and `null` means "not found".
const workspace = new Map([
  ['AGENTS.md', 'root rules\n'],
  ['services/AGENTS.override.md', 'services: staging only\n'],
  ['services/AGENTS.md', 'services rules\n'],
  ['services/api/AGENTS.md', 'api rules\n'],
]);
const dirs = new Set(['.', 'services', 'services/api']);
const fs = {
  async list(dir) {
    if (!dirs.has(dir)) return null;
    const prefix = dir === '.' ? '' : `${dir}/`;
    const names = [...workspace.keys(), ...dirs]
      .filter((name) => name.startsWith(prefix) && name !== dir)
      .map((name) => name.slice(prefix.length))
      .filter((name) => name !== '' && !name.includes('/'));
    return [...new Set(names)];
  },
  async stat(name) {
    if (dirs.has(name)) return { kind: 'dir', size: 0 };
    const text = workspace.get(name);
    return text === undefined ? null : { kind: 'file', size: Buffer.byteLength(text) };
  },
  async read(name, limit) {
    const text = workspace.get(name);
    return text === undefined ? null : Buffer.from(text).subarray(0, limit);
  },
};

const result = await chain('services/api/handler.ts', {
  fs,
  names: ['AGENTS.override.md', 'AGENTS.md'],
  budget: 40,
});
for (const o of result.omitted) {
  // What the model is not given, and why.
  console.log(`${o.path} (${o.size} bytes): ${o.reason}${o.by ? ` by ${o.by}` : ''}`);
}
process.stdout.write(renderBytes(result.files));
