package agentsmd

// #include <agentsmd.h>
import "C"

import "fmt"

// Dialect is how a rule directory's files read (SPEC.md §11's table): the
// product that writes them, which says where the directory is looked up,
// which of its files count, and which front-matter keys make a rule apply
// always, when a touched path matches its globs, or on request. The zero
// Dialect is none, and an error in [Options.Rules].
type Dialect int

const (
	// DialectClaude: Claude Code's .claude/rules, looked up at the root;
	// ".md" files; always without "paths", else when the path matches
	// "paths" (a glob or a list, anchored at the root).
	DialectClaude Dialect = iota + 1
	// DialectCursor: Cursor's .cursor/rules, looked up in each directory
	// of the walk; ".mdc" and ".md" files; always with "alwaysApply: true",
	// by "globs" (a list, or one comma-separated string), else on request.
	DialectCursor
	// DialectCopilot: GitHub Copilot's .github/instructions, looked up at
	// the root; ".instructions.md" files; always for an "applyTo" of "**",
	// "**/*" or "*", by "applyTo" (comma-separated, ignoring ASCII case),
	// on request without it.
	DialectCopilot
	// DialectWindsurf: Windsurf's .windsurf/rules, looked up in each
	// directory of the walk; ".md" files; "trigger: always_on" always,
	// "trigger: glob" by "globs", "model_decision" and "manual" (and no
	// trigger) on request.
	DialectWindsurf
	// DialectKiro: Kiro's .kiro/steering, looked up at the root; ".md"
	// files; "inclusion: always" (or none) always, "inclusion: fileMatch"
	// by "fileMatchPattern", "manual" and "auto" on request.
	DialectKiro
	// DialectCline: Cline's .clinerules, looked up at the root; ".md" and
	// ".txt" files; always without "paths", else by "paths" (a list,
	// anchored at the root; [] never).
	DialectCline
)

// String is the dialect's name in SPEC.md §11 and on the command line
// (--rules DIALECT:DIR): "claude", "cursor", "copilot", "windsurf", "kiro"
// or "cline".
func (d Dialect) String() string {
	switch d {
	case DialectClaude:
		return "claude"
	case DialectCursor:
		return "cursor"
	case DialectCopilot:
		return "copilot"
	case DialectWindsurf:
		return "windsurf"
	case DialectKiro:
		return "kiro"
	case DialectCline:
		return "cline"
	default:
		return fmt.Sprintf("Dialect(%d)", int(d))
	}
}

// cDialects maps Go's dialects to the library's.
var cDialects = map[Dialect]C.uint32_t{
	DialectClaude:   C.AGENTSMD_DIALECT_CLAUDE,
	DialectCursor:   C.AGENTSMD_DIALECT_CURSOR,
	DialectCopilot:  C.AGENTSMD_DIALECT_COPILOT,
	DialectWindsurf: C.AGENTSMD_DIALECT_WINDSURF,
	DialectKiro:     C.AGENTSMD_DIALECT_KIRO,
	DialectCline:    C.AGENTSMD_DIALECT_CLINE,
}

// RuleDir is one rule directory of [Options.Rules] (SPEC.md §11).
type RuleDir struct {
	// Dialect is how its files read, and where it is looked up.
	Dialect Dialect
	// Dir is the directory, relative to the root or to each directory of
	// the walk as Dialect says: one or more "/"-separated elements valid as
	// names are, such as ".cursor/rules". With [Options.FS] it is in the FS.
	Dir string
}

// Available is a rule that applies only on request (SPEC.md §11), listed in
// [Result.Available] and not given, so that a product can offer it to the
// model (as Cursor's "Apply Intelligently" does) or to the user (@Name), and
// give it when asked, such as with [Options.Extra] for a rule on the OS file
// system.
type Available struct {
	// Path is the rule file's path, as [File.Path] is: absolute, or its
	// name in [Options.FS].
	Path string
	// Name is the file's name without the dialect's suffix.
	Name string
	// Description is its front matter's "description", "" when none.
	Description string
}
