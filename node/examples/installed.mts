// What a TypeScript product writes against the installed package (`npm install agentsmd`):
// the instruction files that apply in the current directory, rendered for the prompt, and what
// was left out. tests/install/npm compiles it with `tsc --strict` in a project of its own, with
// the package from a registry, and runs it.
import { AgentsmdError, chain, render } from 'agentsmd'
import type { Options, Result } from 'agentsmd'

const options: Options = { names: ['AGENTS.override.md', 'AGENTS.md'], budget: 64 * 1024 }
try {
  const result: Result = await chain(process.cwd(), options)
  for (const left of result.omitted) console.error(`left out ${left.path}: ${left.reason}`)
  process.stdout.write(render(result.files))
} catch (err) {
  if (!(err instanceof AgentsmdError)) throw err
  console.error(`agentsmd failed (${err.kind}): ${err.message}`)
  process.exitCode = 1
}
