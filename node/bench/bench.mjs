// agentsmd's `chain` against the peers' own loaders, per call, in one Node process, on the same
// generated trees. See README.md for what each tree is and where the peers' semantics differ.
//
//   node bench.mjs [--rounds N] [--ms N] [--tree NAME]... [--keep]
//
// --rounds: rounds per row (default 7); --ms: time each side spends per round (default 100);
// --tree: run only the named trees (deep32, monorepo, chain1000, imports); --keep: leave the
// temporary directory in place. AGENTSMD_PACKAGE names the package to load (default: `..`).

import { mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));

// ---------------------------------------------------------------------------------------------
// Arguments

const args = { rounds: 7, ms: 100, trees: [], keep: false };
for (let i = 2; i < process.argv.length; i++) {
  const a = process.argv[i];
  if (a === '--rounds') args.rounds = Math.max(1, Number(process.argv[++i]));
  else if (a === '--ms') args.ms = Math.max(1, Number(process.argv[++i]));
  else if (a === '--tree') args.trees.push(process.argv[++i]);
  else if (a === '--keep') args.keep = true;
  else {
    console.error(`usage: node bench.mjs [--rounds N] [--ms N] [--tree NAME]... [--keep]`);
    process.exit(2);
  }
}

// ---------------------------------------------------------------------------------------------
// The peers, loaded as their products load them.

// gemini-cli logs through `debugLogger.debug`, i.e. `console.debug`; the CLI's ConsolePatcher
// turns `console.debug` into a no-op unless --debug is on. Do the same, so that the peer is
// timed as it runs for a user and not while printing its debug lines.
console.debug = () => {};

const gemini = await import('@google/gemini-cli-core');
// Not re-exported by the package's index: the module memoryDiscovery itself imports.
const { processImports } = await import(
  '@google/gemini-cli-core/dist/src/utils/memoryImportProcessor.js'
);
const pi = await import('@mariozechner/pi-coding-agent');

// gemini-cli: `new Config({ contextFileName: 'AGENTS.md' })` (settings.json
// `context.fileName: "AGENTS.md"`) calls `setGeminiMdFilename('AGENTS.md')`, which ADDS the name
// in front of the default: the names become ['AGENTS.md', 'GEMINI.md'].
gemini.setGeminiMdFilename('AGENTS.md');
const GEMINI_NAMES = gemini.getAllGeminiMdFilenames();
// gemini's Config default for `memoryBoundaryMarkers`.
const GEMINI_MARKERS = ['.git'];
// pi: fixed in loadContextFileFromDir (dist/core/resource-loader.js), first found wins.
const PI_NAMES = ['AGENTS.md', 'AGENTS.MD', 'CLAUDE.md', 'CLAUDE.MD'];

// ---------------------------------------------------------------------------------------------
// Our package.

const packageDir = path.resolve(process.env.AGENTSMD_PACKAGE ?? path.join(here, '..'));
let agentsmd = null;
let agentsmdWhy = '';
try {
  const entry = createRequire(import.meta.url).resolve(packageDir);
  const mod = await import(pathToFileURL(entry).href);
  agentsmd = typeof mod.chain === 'function' ? mod : mod.default;
  if (typeof agentsmd?.chain !== 'function') throw new Error(`${entry} exports no chain`);
} catch (e) {
  agentsmd = null;
  agentsmdWhy = e.message.split('\n')[0];
}

// ---------------------------------------------------------------------------------------------
// The trees.

const base = realpathSync(mkdtempSync(path.join(tmpdir(), 'agentsmd-peer-bench-')));

// Text without `@`: gemini imports any `@word` that follows whitespace, even mid-sentence.
function instructions(label) {
  return (
    `# ${label}\n\n` +
    `These instructions apply to everything below this directory.\n\n` +
    `- Run the tests before every commit; keep them fast and deterministic.\n` +
    `- Prefer small functions named for what they do; comments say why, not what.\n` +
    `- Errors name the path they concern. No panics across the boundary.\n` +
    `- Format with the project's formatter; lint with warnings as errors.\n`
  );
}

function dir(...parts) {
  const d = path.join(...parts);
  mkdirSync(d, { recursive: true });
  return d;
}

function file(p, text) {
  writeFileSync(p, text);
  return p;
}

// A repository: `.git` marks it for gemini (its traversal ceiling and its import scope).
function repository(name) {
  const root = dir(base, name);
  dir(root, '.git');
  return root;
}

// Every tree: `root` (the repository, gemini's trusted root and agentsmd's `root`), `target`
// (the file a tool touches: gemini's argument), `cwd` (its directory: pi's argument).
const trees = {
  // A 32-deep path, AGENTS.md at the root and every 8 levels: 5 files.
  deep32() {
    const root = repository('deep32');
    let d = root;
    file(path.join(d, 'AGENTS.md'), instructions('level 0'));
    for (let level = 1; level <= 32; level++) {
      d = dir(d, `level${String(level).padStart(2, '0')}`);
      if (level % 8 === 0) file(path.join(d, 'AGENTS.md'), instructions(`level ${level}`));
    }
    const target = file(path.join(d, 'main.ts'), 'export {};\n');
    return { title: 'a 32-deep path (AGENTS.md every 8 levels)', root, target, cwd: d };
  },

  // A monorepo root holding 10,000 entries (.git, AGENTS.md, 9,998 package directories); the
  // target is a source file of one package that has its own AGENTS.md: 2 files.
  monorepo() {
    const root = repository('monorepo');
    file(path.join(root, 'AGENTS.md'), instructions('monorepo'));
    for (let i = 0; i < 9998; i++) mkdirSync(path.join(root, `pkg-${String(i).padStart(4, '0')}`));
    const pkg = path.join(root, 'pkg-4999');
    file(path.join(pkg, 'AGENTS.md'), instructions('pkg-4999'));
    const src = dir(pkg, 'src');
    const target = file(path.join(src, 'index.ts'), 'export {};\n');
    return { title: 'a monorepo root with 10,000 entries', root, target, cwd: src };
  },

  // 1,000 files one after another: a chain of 1,000 nested directories (the root and 999 below
  // it), each with an AGENTS.md; the target is in the deepest: 1,000 files, nearest last.
  chain1000() {
    const root = repository('chain1000');
    let d = root;
    for (let level = 0; level < 1000; level++) {
      if (level > 0) d = dir(d, 'd');
      file(path.join(d, 'AGENTS.md'), instructions(`level ${level}`));
    }
    const target = file(path.join(d, 'main.ts'), 'export {};\n');
    return { title: '1,000 files one after another (1,000 nested directories)', root, target, cwd: d };
  },

  // A file with imports: the root AGENTS.md imports 4 files on lines of their own, each of which
  // imports 1 more (8 imports, depth 2); the target's own directory has no AGENTS.md: 1 file.
  imports() {
    const root = repository('imports');
    const topics = ['build', 'style', 'testing', 'review'];
    const docs = dir(root, 'docs');
    const details = dir(docs, 'details');
    for (const t of topics) {
      file(path.join(details, `${t}.md`), instructions(`${t} in detail`));
      file(path.join(docs, `${t}.md`), `${instructions(t)}\n@details/${t}.md\n\nEnd of ${t}.\n`);
    }
    file(
      path.join(root, 'AGENTS.md'),
      `${instructions('imports')}\n` + topics.map((t) => `@docs/${t}.md\n`).join('') + '\nThe end.\n',
    );
    const src = dir(root, 'src');
    const target = file(path.join(src, 'main.ts'), 'export {};\n');
    return { title: 'a file with 8 imports (4, each importing 1)', root, target, cwd: src };
  },
};

// pi's global directory (~/.pi/agent): an empty one, so that no user's file is read.
const piAgentDir = dir(base, 'pi-agent');

// ---------------------------------------------------------------------------------------------
// The calls compared. Each returns what it found, as { files: [{path, text}], imports: [path] }
// (imports: the imported files, where the caller can tell).

const gem = {
  // As MemoryContextManager.discoverContext calls it (tools/jit-context.js): the path a tool
  // touched, the workspace directories as trusted roots, the session's loaded paths and
  // identities (fresh: nothing loaded yet), the boundary markers.
  jit: (t) => () =>
    gemini.loadJitSubdirectoryMemory(t.target, [t.root], new Set(), new Set(), GEMINI_MARKERS),
  // As readGeminiMdFiles calls it for each file found (utils/memoryDiscovery.js): the file read
  // as UTF-8, its directory, no debug, a fresh import state, no project root (found from `.git`),
  // the 'tree' format (Config's default), the boundary markers.
  imports: (file) => async () => {
    const content = await readFile(file, 'utf-8');
    return processImports(content, path.dirname(file), false, undefined, undefined, 'tree', GEMINI_MARKERS);
  },
};

// As DefaultResourceLoader.reload calls it (dist/core/resource-loader.js): the session's cwd and
// the agent directory.
const piCall = (t) => () => pi.loadProjectContextFiles({ cwd: t.cwd, agentDir: piAgentDir });

// agentsmd with the options that give the same files as the peer it is compared with.
function chainOptionsFor(peer, t, top) {
  if (peer === 'pi') {
    // pi walks to `/` (the default root), looks for its four names, and first reads the agent
    // directory's file: `extra` probes the same four paths there (none exists).
    return { names: PI_NAMES, extra: PI_NAMES.map((n) => path.join(piAgentDir, n)) };
  }
  // gemini: stops at the `.git` directory found from the trusted root, and always expands
  // imports (scope: that same root, depth 5).
  return { names: GEMINI_NAMES, root: top ?? t.root, imports: true };
}

// ---------------------------------------------------------------------------------------------
// What each call found, and whether both found the same.

function fromGeminiJit(r) {
  return { files: r.files.map((f) => ({ path: f.path, text: f.content })), imports: null };
}

function fromGeminiImports(file) {
  return (r) => {
    const imports = [];
    const walk = (node) => {
      for (const child of node.imports ?? []) {
        imports.push(child.path);
        walk(child);
      }
    };
    walk(r.importTree);
    return { files: [{ path: file, text: r.content }], imports };
  };
}

function fromPi(r) {
  return { files: r.map((f) => ({ path: f.path, text: f.content })), imports: null };
}

function fromChain(r) {
  return {
    files: r.files.map((f) => ({ path: f.path, text: f.content.toString('utf8') })),
    imports: (r.imports ?? []).filter((i) => !i.duplicate).map((i) => i.path),
  };
}

// gemini wraps each import in comment lines where agentsmd replaces the directive line with the
// text: drop the wrappers, and compare both texts with runs of newlines as one.
function normalizeGemini(text) {
  return text
    .replace(/<!-- Imported from: [^\n]*? -->\n/g, '')
    .replace(/\n<!-- End of import from: [^\n]*? -->/g, '\n');
}
const squeeze = (text) => text.replace(/\n+/g, '\n');

function same(peerName, peer, ours) {
  const pp = peer.files.map((f) => f.path);
  const op = ours.files.map((f) => f.path);
  if (pp.length !== op.length || pp.some((p, i) => p !== op[i])) {
    return `no: files differ\n  peer:  ${JSON.stringify(pp)}\n  chain: ${JSON.stringify(op)}`;
  }
  for (let i = 0; i < pp.length; i++) {
    const a = peer.files[i].text;
    const b = ours.files[i].text;
    if (a === b) continue;
    if (peerName.startsWith('gemini') && squeeze(normalizeGemini(a)) === squeeze(b)) continue;
    return `no: the text of ${pp[i]} differs`;
  }
  if (peer.imports) {
    const a = [...peer.imports].sort();
    const b = [...ours.imports].sort();
    if (a.length !== b.length || a.some((p, i) => p !== b[i])) {
      return `no: imports differ\n  peer:  ${JSON.stringify(a)}\n  chain: ${JSON.stringify(b)}`;
    }
  }
  const count = pp.length.toLocaleString('en-US');
  return `yes (${count} file${pp.length === 1 ? '' : 's'}${ours.imports.length ? `, ${ours.imports.length} imports` : ''})`;
}

// ---------------------------------------------------------------------------------------------
// Timing: the calls compared take turns in each round (the order rotating); each turn runs one
// call as many times as fill --ms, timed with process.hrtime.bigint. A time per call is the
// median over the rounds, a ratio the median of the per-round ratios. Before the rounds each
// call is warmed up for --ms/2 (its first call, which gave the files compared, included). A row
// where one call takes over a second (gemini on 1,000 files) runs at most 3 rounds.

const now = () => process.hrtime.bigint();

async function timed(fn) {
  const t0 = now();
  const value = await fn();
  return { value, us: Number(now() - t0) / 1e3 };
}

async function turn(fn, n) {
  const t0 = now();
  for (let i = 0; i < n; i++) await fn();
  return Number(now() - t0) / 1e3 / n;
}

const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
};

// `firsts`: the time of each call's first call, made by the caller to get what it found.
async function compare(fns, firsts) {
  const perCall = [];
  for (let i = 0; i < fns.length; i++) {
    let spent = firsts[i];
    let calls = 1;
    while (spent < args.ms * 500) {
      spent += (await timed(fns[i])).us;
      calls++;
    }
    perCall.push(spent / calls);
  }
  const counts = perCall.map((us) => Math.max(1, Math.min(100000, Math.round((args.ms * 1000) / us))));
  const rounds = perCall.some((us) => us > 1e6) ? Math.min(args.rounds, 3) : args.rounds;
  const perRound = fns.map(() => []);
  for (let r = 0; r < rounds; r++) {
    for (let k = 0; k < fns.length; k++) {
      const i = (k + r) % fns.length;
      perRound[i].push(await turn(fns[i], counts[i]));
    }
  }
  const ratio = (i) => median(perRound[0].map((peer, r) => peer / perRound[i][r]));
  return {
    times: perRound.map(median),
    ratios: fns.map((_, i) => (i === 0 ? 1 : ratio(i))),
    counts,
    rounds,
  };
}

// ---------------------------------------------------------------------------------------------
// The rows.

function rowsFor(name, t) {
  const rows = [
    { peer: 'gemini `loadJitSubdirectoryMemory`', key: 'gemini', call: gem.jit(t), found: fromGeminiJit, path: t.target },
    { peer: 'pi `loadProjectContextFiles`', key: 'pi', call: piCall(t), found: fromPi, path: t.cwd },
  ];
  if (name === 'imports') {
    const top = path.join(t.root, 'AGENTS.md');
    rows.push({
      peer: 'gemini `processImports` (one file)',
      key: 'gemini-imports',
      call: gem.imports(top),
      found: fromGeminiImports(top),
      // The file's own directory, as its root: one file, imports scoped to the repository.
      path: t.root,
      top: t.root,
    });
  }
  return rows;
}

const fmt = (us) => (us >= 1000 ? `${(us / 1000).toFixed(us >= 100000 ? 0 : 1)} ms` : `${us.toFixed(1)} µs`);
const fmtRatio = (x) => (x >= 100 ? `${x.toFixed(0)}×` : x >= 10 ? `${x.toFixed(1)}×` : `${x.toFixed(2)}×`);

const names = args.trees.length ? args.trees : Object.keys(trees);
for (const n of names) {
  if (!trees[n]) {
    console.error(`unknown tree ${n}; trees: ${Object.keys(trees).join(', ')}`);
    process.exit(2);
  }
}

console.log(`# agentsmd \`chain\` against the peers' own loaders`);
console.log();
console.log(
  `Node ${process.version}, ${process.platform}/${process.arch}; @google/gemini-cli-core ` +
    `${pkgVersion('@google/gemini-cli-core')}, @mariozechner/pi-coding-agent ` +
    `${pkgVersion('@mariozechner/pi-coding-agent')}; trees in ${base}; ${args.rounds} rounds, ` +
    `~${args.ms} ms per call per round; load average ${loadavg().map((x) => x.toFixed(2)).join(' ')}.`,
);
if (!agentsmd) {
  console.log();
  console.log(`agentsmd: not loaded from ${packageDir} (${agentsmdWhy}): peers only. Build it:`);
  console.log('`cd node && npm install && npm run build`, then run this again.');
}
console.log();

const table = [];
const details = [];
try {
  for (const n of names) {
    const t0 = now();
    const t = trees[n]();
    console.error(`tree ${n}: generated in ${fmt(Number(now() - t0) / 1e3)}`);
    for (const row of rowsFor(n, t)) {
      const opts = chainOptionsFor(row.key === 'pi' ? 'pi' : 'gemini', t, row.top);
      const fns = [row.call];
      if (agentsmd) fns.push(() => agentsmd.chain(row.path, opts), () => agentsmd.chainSync(row.path, opts));
      const firsts = [];
      const found = [];
      for (const fn of fns) {
        const { value, us } = await timed(fn);
        firsts.push(us);
        found.push(value);
      }
      const peerFound = row.found(found[0]);
      let verdict = 'n/a';
      if (agentsmd) {
        verdict = same(row.peer, peerFound, fromChain(found[1]));
        const syncVerdict = same(row.peer, peerFound, fromChain(found[2]));
        if (syncVerdict !== verdict) verdict += `; chainSync: ${syncVerdict}`;
      }
      if (verdict.includes('\n')) {
        details.push(`${n} / ${row.peer}: ${verdict}`);
        verdict = verdict.split('\n')[0];
      }
      const { times, ratios, counts, rounds } = await compare(fns, firsts);
      const [peer, ours, oursSync] = times;
      table.push({ tree: t.title, peer: row.peer, peerUs: peer, chainUs: ours, syncUs: oursSync, ratio: ratios[1], syncRatio: ratios[2], verdict });
      console.error(
        `  ${row.peer}: ${fmt(peer)}` +
          (agentsmd ? `, chain ${fmt(ours)}, chainSync ${fmt(oursSync)}` : '') +
          ` (${rounds} rounds, calls per turn: ${counts.join('/')}) — ${verdict}`,
      );
    }
  }
} finally {
  if (!args.keep) rmSync(base, { recursive: true, force: true });
}

console.log('| tree | peer | peer µs/call | chain µs/call | ratio | same files? |');
console.log('|---|---|---:|---:|---:|---|');
for (const r of table) {
  const chainCell = agentsmd ? fmtUs(r.chainUs) : 'n/a';
  const ratio = agentsmd ? fmtRatio(r.ratio) : 'n/a';
  console.log(`| ${r.tree} | ${r.peer} | ${fmtUs(r.peerUs)} | ${chainCell} | ${ratio} | ${r.verdict} |`);
}
if (agentsmd) {
  console.log();
  console.log('The same calls against `chainSync` (pi calls its loader synchronously):');
  console.log();
  console.log('| tree | peer | peer µs/call | chainSync µs/call | ratio |');
  console.log('|---|---|---:|---:|---:|');
  for (const r of table) {
    console.log(`| ${r.tree} | ${r.peer} | ${fmtUs(r.peerUs)} | ${fmtUs(r.syncUs)} | ${fmtRatio(r.syncRatio)} |`);
  }
  const goal = table.every((r) => r.ratio >= 10);
  const sameAll = table.every((r) => r.verdict.startsWith('yes'));
  console.log();
  const short = table.filter((r) => r.ratio < 10).map((r) => `${r.tree} / ${r.peer}: ${fmtRatio(r.ratio)}`);
  console.log(
    `Goal \`chain\` ≥ 10× faster than each peer per call on every tree: ` +
      (goal ? 'met.' : `NOT met on ${short.length} of ${table.length} rows (${short.join('; ')}).`),
  );
  console.log(`The same files found on every row: ${sameAll ? 'yes' : 'NO'}.`);
}
for (const d of details) console.log(`\n${d}`);

function fmtUs(us) {
  return us >= 100 ? Math.round(us).toLocaleString('en-US') : us.toFixed(1);
}

function pkgVersion(name) {
  return JSON.parse(readFileSync(path.join(here, 'node_modules', name, 'package.json'), 'utf8')).version;
}
