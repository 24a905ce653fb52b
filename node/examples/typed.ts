// The whole API of the package, typed: what a TypeScript product writes to load a repository's
// instructions (a remote workspace's through an asynchronous file system, its own on disk), to
// render them, and to read one file's structure. `npx tsc --noEmit -p examples` checks it
// against ../index.d.ts, which napi build writes from the addon's Rust items (tests/node.rs);
// each `@ts-expect-error` line is a wrong use that the types must refuse, so that the check
// fails if they stop refusing it.

import type { Dirent } from 'node:fs'
import { readFile, readdir, stat } from 'node:fs/promises'
import { join } from 'node:path'

import {
  AgentsmdError,
  PART_ID,
  Session,
  block,
  chain,
  chainSync,
  overlayDir,
  parse,
  parseNearest,
  parseText,
  pathFromBytes,
  pathToBytes,
  render,
  renderBytes,
} from '../index.js'
import type {
  Available,
  Block,
  BlockOptions,
  Dialect,
  Document,
  ErrorKind,
  File,
  FileSystem,
  Import,
  ListedEntry,
  Omitted,
  Options,
  Outcome,
  ParseOptions,
  Preset,
  Probe,
  Reason,
  Result,
  RuleDir,
  Source,
  TouchOptions,
} from '../index.js'

/**
 * A workspace reached through promises, as a product's remote one is: every answer a Promise,
 * and the batched questions answered too, so that a chain costs a few round trips, not one per
 * question.
 */
function remoteWorkspace(top: string): FileSystem {
  // `null` where nothing has the name, or (`codes`) nothing of the kind asked: a batch may ask
  // to list a file, or to read a directory an import names. Any other failure is thrown.
  const none =
    (...codes: string[]) =>
    (err: unknown): null => {
      if (['ENOENT', ...codes].includes((err as NodeJS.ErrnoException).code ?? '')) return null
      throw err
    }
  const notFound = none()
  const listing = async (dir: string): Promise<ListedEntry[] | null> => {
    const entries = await readdir(join(top, dir), { withFileTypes: true }).catch(none('ENOTDIR'))
    if (entries === null) return null
    const entry = async (dirent: Dirent): Promise<ListedEntry> => {
      const name = dirent.name
      if (dirent.isFile()) return { name, kind: 'file', size: (await stat(join(top, dir, name))).size }
      if (dirent.isDirectory()) return { name, kind: 'dir' }
      // A symbolic link: the library asks `stat` of it when it needs to know what it leads to.
      return { name, kind: dirent.isSymbolicLink() ? 'link' : 'other' }
    }
    return Promise.all(entries.map(entry))
  }
  return {
    async list(dir: string): Promise<string[] | null> {
      return readdir(join(top, dir)).catch(notFound)
    },
    async stat(name: string) {
      const info = await stat(join(top, name)).catch(notFound)
      if (info === null) return null
      const kind = info.isFile() ? 'file' : info.isDirectory() ? 'dir' : 'other'
      return { kind, size: info.size } as const
    },
    async read(name: string, limit: number): Promise<Buffer | null> {
      const content = await readFile(join(top, name)).catch(none('EISDIR'))
      return content === null ? null : content.subarray(0, limit)
    },
    async readDirs(names: string[]): Promise<Array<ListedEntry[] | null>> {
      return Promise.all(names.map(listing))
    },
    async readFiles(names: string[], limit: number): Promise<Array<Buffer | null>> {
      // Stat'ed first: a name that is no regular file is not found, and a FIFO, opened, blocks.
      const file = async (name: string) =>
        (await this.stat(name))?.kind === 'file' ? this.read(name, limit) : null
      return Promise.all(names.map(file))
    },
  }
}

/** The same workspace answered synchronously, for chainSync. */
const inMemory: FileSystem = {
  list: (dir) => (dir === '.' ? ['AGENTS.md'] : null),
  stat: (name) => (name === 'AGENTS.md' ? { kind: 'file', size: 5 } : null),
  read: (name, limit) => (name === 'AGENTS.md' ? Buffer.from('root\n').subarray(0, limit) : null),
}

/** What a product logs of a result: every field, by its type. */
function describe(result: Result): string[] {
  const lines: string[] = []
  for (const file of result.files) {
    const { path, content, source }: File = file
    const from: Source = source
    lines.push(`${path} (${content.length} bytes, ${from})`)
  }
  for (const left of result.omitted) {
    const { path, size, reason, by }: Omitted = left
    const why: Reason = reason
    lines.push(`omitted ${path} (${size} bytes): ${why}${by === null ? '' : ` by ${by}`}`)
  }
  for (const imported of result.imports) {
    const { path, by, line, depth, size, duplicate }: Import = imported
    lines.push(`${by}:${line} imports ${path} at depth ${depth} (${size} bytes${duplicate ? ', duplicate' : ''})`)
  }
  for (const probe of result.probes) {
    const { path, source, outcome }: Probe = probe
    const found: Outcome = outcome
    lines.push(`probe ${path} (${source}): ${found}`)
  }
  for (const rule of result.available) {
    const { path, name, description }: Available = rule
    lines.push(`on request: @${name} (${path})${description === '' ? '' : `: ${description}`}`)
  }
  for (const warning of result.warnings) {
    const said: string = warning
    lines.push(`warning: ${said}`)
  }
  const rendered: string | null = result.rendered
  if (rendered !== null) lines.push(`the product's piece: ${rendered.length} characters`)
  return lines
}

/** The kind of a failure, for a product that retries only what may pass next time. */
function retryable(err: unknown): boolean {
  if (!(err instanceof AgentsmdError)) throw err
  const kind: ErrorKind = err.kind
  const where: string | null = err.path
  const errno: string | null = err.errno
  void where
  return kind === 'Io' || kind === 'Fs' || errno === 'EAGAIN'
}

export async function main(repo: string, users: string, caller: string): Promise<string> {
  const id: string = PART_ID

  // The caller's own overlay, when the host has one.
  const overlay: string | null = overlayDir(users, caller)
  const options: Options = {
    names: ['AGENTS.override.md', 'AGENTS.md'],
    root: repo,
    extra: [join(users, caller, 'AGENTS.md')],
    maxBytes: 1 << 20,
    budget: 64 * 1024,
    renderedBudget: 72 * 1024,
    confine: true,
    fragments: ['.agents/AGENTS.d'],
    overlays: overlay === null ? [] : [overlay],
    imports: true,
    importDepth: 5,
    maxImports: 64,
    env: { TEAM: 'payments' },
    nearest: false,
    rules: [
      { dialect: 'cursor', dir: '.cursor/rules' },
      { dialect: 'copilot', dir: '.github/instructions' },
    ],
    report: true,
  }

  let result: Result
  try {
    result = await chain(join(repo, 'src', 'main.ts'), options)
  } catch (err) {
    if (!retryable(err)) throw err
    result = await chain(join(repo, 'src', 'main.ts'), options)
  }
  const prompt: string = render(result.files)
  const bytes: Buffer = renderBytes(result.files)
  console.log(id, prompt.length, bytes.length, describe(result).join('\n'))

  // A remote workspace: FS names, Promises, and a transform that may be asynchronous too.
  const remote = await chain('packages/api/src/index.ts', {
    fs: remoteWorkspace(repo),
    transform: async (path: string, content: Buffer): Promise<string> =>
      `<!-- ${path} -->\n${content.toString('utf8')}`,
  })
  // A product that shows workspace paths renders its own list.
  render(remote.files.map((file) => ({ path: `/workspace/${file.path}`, content: file.content })))

  const sync: Result = chainSync('.', {
    fs: inMemory,
    transform: (_path, content) => Buffer.from(content.toString('utf8').toUpperCase()),
  })
  console.log(describe(sync))

  // A session: what newly applies as the agent reads and edits, each file given once.
  const dialect: Dialect = 'claude'
  const claudeRules: RuleDir = { dialect, dir: '.claude/rules' }
  const session = new Session({ root: repo, budget: 64 * 1024, rules: [claudeRules] })
  const touchOptions: TouchOptions = { signal: AbortSignal.timeout(5000) }
  const start: Result = await session.touch(join(repo, 'src', 'main.ts'), touchOptions)
  const delta: Result = session.touchSync(join(repo, 'packages', 'web', 'index.ts'))
  console.log(describe(start), render(delta.files))
  session.close()

  // What Codex would load here and hand its model (SPEC §12), reading the home given, not the
  // caller's; a file it drops or cuts is in `omitted` as 'empty' or 'truncated'.
  const product: Preset = 'codex'
  const codex: Result = await chain(join(repo, 'src', 'main.ts'), { preset: product, home: users })
  const piece: string | null = codex.rendered
  const cut: Reason[] = codex.omitted.map((left) => left.reason).filter((why) => why === 'truncated' || why === 'empty')
  console.log(piece ?? render(codex.files), cut.join(','))

  // A path that is not UTF-8 keeps its bytes: node:fs takes them as a Buffer.
  for (const file of result.files) {
    const raw: Buffer = pathToBytes(file.path)
    const same: string = pathFromBytes(raw)
    console.log(same === file.path)
  }

  // Structure: the nearest file's document, or one file's, or a text's; then its block.
  const parseOptions: ParseOptions = { root: repo, confine: true, maxBytes: 1 << 20, skills: ['review'] }
  const nearest: Document | null = await parseNearest(join(repo, 'src', 'main.ts'), parseOptions)
  const doc: Document = nearest ?? (await parse(join(repo, 'AGENTS.md'), { root: repo }))
  const fromText: Document = parseText(Buffer.from('# Title\n\ntext\n'), { skills: [] })
  const blockOptions: BlockOptions = {
    cap: 2048,
    heading: '# Repository Agent Instructions (AGENTS.md)',
    preamble: 'Follow these.',
    name: 'AGENTS.md',
    where: 'AGENTS.md',
  }
  const bounded: Block = block(doc, blockOptions)
  for (const { title, bytes: size } of bounded.dropped) console.log(`dropped ${title} (${size} bytes)`)
  for (const skill of doc.skills) {
    const source: 'inline' | 'file' = skill.source
    console.log(skill.name, source)
  }
  console.log(doc.requested.join(','), doc.unknown.join(','), doc.warnings.join('\n'), block(fromText).block)
  return bounded.block
}

/** The wrong uses: each line must fail type-checking. */
export async function wrongUses(result: Result, doc: Document): Promise<void> {
  // @ts-expect-error: a path is a string
  await chain(42)
  // @ts-expect-error: names is a list
  chainSync('.', { names: 'AGENTS.md' })
  // @ts-expect-error: no such option
  chainSync('.', { nmes: ['AGENTS.md'] })
  // @ts-expect-error: env values are strings
  chainSync('.', { env: { TEAM: 1 } })
  // @ts-expect-error: a transform answers a Buffer or a string
  chainSync('.', { transform: () => 42 })
  // @ts-expect-error: stat answers a kind of 'file', 'dir' or 'other'
  chainSync('.', { fs: { ...inMemory, stat: () => ({ kind: 'symlink', size: 0 }) } })
  // @ts-expect-error: read answers a Buffer
  chainSync('.', { fs: { ...inMemory, read: () => 'text' } })
  // @ts-expect-error: a file that readDirs lists has its size
  chainSync('.', { fs: { ...inMemory, readDirs: () => [[{ name: 'AGENTS.md', kind: 'file' }]] } })
  // @ts-expect-error: readFiles answers a Buffer or null per name
  chainSync('.', { fs: { ...inMemory, readFiles: () => ['text'] } })
  // @ts-expect-error: chain's result is a Promise
  chain('.').files
  // @ts-expect-error: content is a Buffer, not a string
  const text: string = result.files[0]!.content
  // @ts-expect-error: by is null where no file took the place
  const by: string = result.omitted[0]!.by
  // @ts-expect-error: no such reason
  const reason: Reason = 'too_large'
  // @ts-expect-error: no such kind
  const kind: ErrorKind = 'Oops'
  // @ts-expect-error: the overlay may be null
  overlayDir('/srv/users', 'ada').length
  // @ts-expect-error: the nearest document may be null
  ;(await parseNearest('.')).requested
  // @ts-expect-error: a cap is a number
  block(doc, { cap: '2048' })
  // @ts-expect-error: a skill's source is 'inline' or 'file'
  const source: 'file' = doc.skills[0]!.source
  // @ts-expect-error: render takes a list of files
  render('AGENTS.md')
  // @ts-expect-error: parse takes a path; parseText takes the text
  parse(Buffer.from('# Title\n'))
  // @ts-expect-error: touch's result is a Promise
  new Session().touch('.').files
  // @ts-expect-error: PART_ID is a string
  const part: number = PART_ID
  // @ts-expect-error: no such dialect
  chainSync('.', { rules: [{ dialect: 'amp', dir: '.amp/rules' }] })
  // @ts-expect-error: a rule directory is { dialect, dir }, not the command line's DIALECT:DIR
  chainSync('.', { rules: ['cursor:.cursor/rules'] })
  // @ts-expect-error: no such probe outcome
  const outcome: Outcome = 'matched'
  // @ts-expect-error: no such preset
  chainSync('.', { preset: 'copilot-x' })
  // @ts-expect-error: rendered is null without a preset
  const piece: string = result.rendered
  void [text, by, reason, kind, source, part, outcome, piece]
}
