// Gemini CLI's own loop over 1,000 touches of a 10,000-directory monorepo (issue 30): what its
// MemoryContextManager.discoverContext does each time a tool reads, edits or lists a path,
// `loadJitSubdirectoryMemory` with the session's sets of loaded paths and identities. System
// calls by `strace -c -f` (the loop minus none), time per touch by the wall clock. The session
// it is compared with is core/benches/walk/sessions.rs, which runs this script on its own tree.
//
//   node session.mjs [--root DIR --touches FILE] [--rounds N] [--keep]
//
// Without --root, it builds the same tree as core/benches/walk/sessions.rs in a temporary
// directory. --touches: the touched paths, one a line. --rounds: timed runs of the whole loop
// (default 5; the time is their median). --for-walk-bench: plain `key value` lines for the Rust
// benchmark. Internal: --probe N runs the loop over the first N touches once, for strace.

import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const script = fileURLToPath(import.meta.url);

const args = { root: null, touches: null, rounds: 5, keep: false, probe: null, forBench: false };
for (let i = 2; i < process.argv.length; i++) {
  const a = process.argv[i];
  if (a === '--root') args.root = process.argv[++i];
  else if (a === '--touches') args.touches = process.argv[++i];
  else if (a === '--rounds') args.rounds = Math.max(1, Number(process.argv[++i]));
  else if (a === '--probe') args.probe = Number(process.argv[++i]);
  else if (a === '--keep') args.keep = true;
  else if (a === '--for-walk-bench') args.forBench = true;
  else {
    console.error('usage: node session.mjs [--root DIR --touches FILE] [--rounds N] [--keep]');
    process.exit(2);
  }
}

// As in bench.mjs: gemini's debug lines are off unless --debug; its names with
// `context.fileName: "AGENTS.md"` are ['AGENTS.md', 'GEMINI.md']; its default boundary marker.
console.debug = () => {};
const gemini = await import('@google/gemini-cli-core');
gemini.setGeminiMdFilename('AGENTS.md');
const MARKERS = ['.git'];
const here = path.dirname(script);
const version = JSON.parse(
  readFileSync(path.join(here, 'node_modules/@google/gemini-cli-core/package.json'), 'utf8'),
).version;

// The tree of core/benches/walk/sessions.rs (`monorepo`): `.git` and AGENTS.md at the root; 100
// packages pkg-NN with an AGENTS.md; 9 modules mod-M each, with an AGENTS.md where (N + M) % 3
// == 0; 10 leaves sub-S each, with an AGENTS.md where (N + M + S) % 7 == 0. Touch i is the file
// index.ts of leaf i × 7,919 mod 9,000.
function rules(label) {
  const line = `- ${label}: keep functions small, name things for what they hold.\n`;
  return line.repeat(Math.floor(1024 / Buffer.byteLength(line)) + 1);
}

function monorepo(base) {
  const root = path.join(base, 'monorepo');
  mkdirSync(path.join(root, '.git'), { recursive: true });
  writeFileSync(path.join(root, 'AGENTS.md'), rules('monorepo'));
  for (let p = 0; p < 100; p++) {
    const pkg = path.join(root, `pkg-${String(p).padStart(2, '0')}`);
    for (let m = 0; m < 9; m++) {
      const mod = path.join(pkg, `mod-${m}`);
      for (let s = 0; s < 10; s++) {
        const leaf = path.join(mod, `sub-${s}`);
        mkdirSync(leaf, { recursive: true });
        if ((p + m + s) % 7 === 0) writeFileSync(path.join(leaf, 'AGENTS.md'), rules('leaf'));
      }
      if ((p + m) % 3 === 0) writeFileSync(path.join(mod, 'AGENTS.md'), rules('module'));
    }
    writeFileSync(path.join(pkg, 'AGENTS.md'), rules('package'));
  }
  const touches = [];
  for (let i = 0; i < 1000; i++) {
    const leaf = (i * 7919) % 9000;
    const [p, m, s] = [Math.floor(leaf / 90), Math.floor(leaf / 10) % 9, leaf % 10];
    const file = path.join(root, `pkg-${String(p).padStart(2, '0')}`, `mod-${m}`, `sub-${s}`, 'index.ts');
    writeFileSync(file, 'export {};\n');
    touches.push(file);
  }
  const list = path.join(base, 'touches.txt');
  writeFileSync(list, touches.join('\n') + '\n');
  return { root, list };
}

// MemoryContextManager.discoverContext (context/memoryContextManager.js), its config checks
// aside: the workspace root as the trusted root, the session's sets, then the new files marked
// loaded and their text concatenated for the tool's output. Returns the files loaded.
async function loop(root, touches) {
  const loadedPaths = new Set();
  const loadedIdentities = new Set();
  let files = 0;
  for (const touch of touches) {
    const result = await gemini.loadJitSubdirectoryMemory(touch, [root], loadedPaths, loadedIdentities, MARKERS);
    if (result.files.length === 0) continue;
    for (const f of result.files) loadedPaths.add(f.path);
    for (const identity of result.fileIdentities ?? []) loadedIdentities.add(identity);
    gemini.concatenateInstructions(result.files.map((f) => ({ filePath: f.path, content: f.content })));
    files += result.files.length;
  }
  return files;
}

function readTouches(list) {
  return readFileSync(list, 'utf8').split('\n').filter((l) => l.length > 0);
}

if (args.probe !== null) {
  const touches = readTouches(args.touches).slice(0, args.probe);
  await loop(args.root, touches);
  process.exit(0);
}

// `strace -c -f` of a probe run over `n` touches: { name: [calls, errors] }.
function strace(root, list, n) {
  const out = path.join(mkdtempSync(path.join(tmpdir(), 'agentsmd-strace-')), 'calls');
  const run = spawnSync(
    'strace',
    ['-f', '-c', '-o', out, '--', process.execPath, script, '--root', root, '--touches', list, '--probe', String(n)],
    { stdio: ['ignore', 'ignore', 'inherit'] },
  );
  if (run.status !== 0) throw new Error(`strace: ${run.error ?? `status ${run.status}`}`);
  const calls = {};
  for (const line of readFileSync(out, 'utf8').split('\n')) {
    const w = line.trim().split(/\s+/);
    // % time, seconds, usecs/call, calls, [errors,] syscall
    if (w.length < 5 || w[0].startsWith('%') || w[0].startsWith('-') || w.at(-1) === 'total') continue;
    calls[w.at(-1)] = [Number(w[3]), w.length === 6 ? Number(w[4]) : 0];
  }
  rmSync(path.dirname(out), { recursive: true, force: true });
  return calls;
}

const base = args.root ? null : realpathSync(mkdtempSync(path.join(tmpdir(), 'agentsmd-session-bench-')));
try {
  const { root, list } = args.root ? { root: args.root, list: args.touches } : monorepo(base);
  const touches = readTouches(list);
  const files = await loop(root, touches); // warm, and what it loads
  const times = [];
  for (let r = 0; r < args.rounds; r++) {
    const t0 = process.hrtime.bigint();
    await loop(root, touches);
    times.push(Number(process.hrtime.bigint() - t0) / 1e3 / touches.length);
  }
  times.sort((a, b) => a - b);
  const usPerTouch = times[times.length >> 1];
  const all = strace(root, list, touches.length);
  const none = strace(root, list, 0);
  const diff = Object.keys({ ...all, ...none })
    .map((name) => {
      const [a, ae] = all[name] ?? [0, 0];
      const [b, be] = none[name] ?? [0, 0];
      return [name, a - b, ae - be];
    })
    .filter(([, made, failed]) => made !== 0 || failed !== 0)
    .sort((x, y) => y[1] - x[1]);
  const total = diff.reduce((sum, [, made]) => sum + made, 0);
  if (args.forBench) {
    for (const [name, made, failed] of diff) console.log(`call ${name} ${made} ${failed}`);
    console.log(`us-per-touch ${usPerTouch}`);
    console.log(`files ${files}`);
  } else {
    console.log(
      `Gemini CLI's loop (@google/gemini-cli-core ${version}, loadJitSubdirectoryMemory) over ` +
        `${touches.length} touches of ${root}; Node ${process.version}; load ${loadavg().map((x) => x.toFixed(2)).join(' ')}`,
    );
    console.log(`files loaded: ${files}`);
    console.log(`time per touch (wall clock, median of ${args.rounds} runs of the loop): ${usPerTouch.toFixed(1)} µs`);
    console.log(`system calls (strace -c -f, the loop minus none): ${total} (${(total / touches.length).toFixed(1)} per touch)`);
    for (const [name, made, failed] of diff) console.log(`  ${name} ${made}${failed ? `, ${failed} failed` : ''}`);
  }
} finally {
  if (base && !args.keep) rmSync(base, { recursive: true, force: true });
}
