// Package agentsmd finds and renders the instruction files of the AGENTS.md
// convention: the files that apply at a path are the ones in its directory
// and every ancestor, one per directory, and the nearest takes precedence.
//
// [Chain] collects them farthest first and nearest last, so that when a
// product includes every file, later text refines earlier text, and says
// which files it found and left out, so a product can record or show exactly
// what the model was given and what it was not. Explicit paths, such as the
// user's own file outside the tree, come before the chain, since the nearest
// file is the one that wins. The walk reads the OS file system, or an
// [fs.FS] a product supplies in [Options.FS] when the project is somewhere
// else, such as a container or a remote workspace. [Render] wraps the files
// the way pi renders project context, one project_instructions element per
// file inside project_context.
//
// # Composition
//
// Off by default, the options of the spec's composition section add files
// and say more about them: [Options.Fragments] (a directory of .md files
// beside each directory's file), [Options.Overlays] (a caller's own
// directory, such as [OverlayDir] builds, read last), [Options.Imports]
// ("@path" lines), [Options.Transform] and [Options.Env] (the content
// changed before the bounds; Env's interpolator never reads the process
// environment), [Options.Nearest] (the nearest file only) and
// [Options.Report] (every place looked at, in [Result.Probes]). Each file
// says where it came from in [File.Source].
//
// # Rules
//
// [Options.Rules] reads the rule directories products keep (SPEC.md §11):
// Claude Code's .claude/rules, Cursor's .cursor/rules, Copilot's
// .github/instructions, Windsurf's .windsurf/rules, Kiro's .kiro/steering and
// Cline's .clinerules, each a [RuleDir] of its [Dialect]. A rule that applies
// always, or whose globs the path matches, is a file of the result of
// [SourceRule]; one that applies on request is listed in [Result.Available];
// what a rule file could not be read as is in [Result.Warnings]. A [Session]
// gives a glob rule at the first touch that matches it.
//
// # The library underneath
//
// The package is a cgo wrapper over the agentsmd C library (a Rust core), so
// that a Go product and a C, Rust or Python one given the same files get the
// same bytes. It imports the standard library alone. An [Options.FS] is
// served to the library through C callbacks that call back into Go; the file
// system, like an [Options.Transform], is handed over as a
// [runtime/cgo.Handle], never as a Go pointer.
//
// # Building
//
// A release of the module, as `go get` downloads it, carries the C library:
// the header and a static library for linux/amd64, linux/arm64, darwin/amd64,
// darwin/arm64 and windows/amd64, which the package links by default, so
// that building needs cgo and a C compiler but no Rust toolchain, and the
// binary needs nothing at run time. In a checkout of the repository, which
// carries no libraries, the package builds against the checkout instead: the
// header in include/ and the static library that `cargo build --release`
// leaves in target/release.
//
// With -tags agentsmd_system it links -lagentsmd from wherever the C
// toolchain finds it instead (on other platforms, such as FreeBSD, this is
// how it builds): the system's paths, or those the cgo flags in
// the environment name, such as pkg-config's:
//
//	CGO_CFLAGS="$(pkg-config --cflags agentsmd)" CGO_LDFLAGS="$(pkg-config --libs agentsmd)" go build -tags agentsmd_system
//
// A directory holding libagentsmd.a and no libagentsmd.so links the library
// statically; a shared library outside the loader's paths needs
// -Wl,-rpath,DIR in CGO_LDFLAGS.
package agentsmd
