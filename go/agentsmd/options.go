package agentsmd

// #include <agentsmd.h>
// #include "fs_bridge.h"
import "C"

import (
	"context"
	"fmt"
	"io/fs"
	"math"
	"runtime/cgo"
	"sort"
)

// DefaultMaxBytes is the size above which a file is an error.
const DefaultMaxBytes = 1 << 20

// DefaultNames is the file name Chain looks for when Options.Names is empty.
var DefaultNames = []string{"AGENTS.md"}

// Options configure Chain.
type Options struct {
	// FS, when set, is the file system the walk reads: the path given
	// to Chain, Root and every directory of the chain are names in it,
	// valid by [fs.ValidPath] ("." is its root), directories are
	// listed with [fs.ReadDir], and files are stat'd with [fs.Stat]
	// and read through Open. The walk never leaves FS: it only asks
	// FS for names it builds below "." and does not resolve links
	// itself, so an FS that confines, such as
	// [os.Root.FS], keeps its confinement, and an error it returns,
	// such as a link refused for leaving it, is Chain's error. Only an
	// [fs.ErrNotExist] means no file. Nil means the OS file system. An
	// FS that is a [BatchFS] is asked in batches: a chain in a few
	// calls, for a file system across a network.
	//
	// Extra are OS paths either way: the user's own file in their home
	// directory is not part of the project.
	//
	// The bounds, MaxBytes and Budget, apply to the bytes a file
	// reads, which an FS that changes a file's text, such as one that
	// expands imports, may make larger than its Stat says.
	//
	// The library calls FS from the goroutine running Chain. A panic in
	// FS is raised again by Chain once the library has returned; FS
	// must not call [runtime.Goexit], which cannot be stopped before it
	// unwinds through the library.
	FS fs.FS

	// Names are the file names looked for in each directory, in order
	// of preference: the first one found is that directory's file and
	// the rest are not read, so a product can let AGENTS.override.md
	// shadow AGENTS.md, or CLAUDE.md stand in where AGENTS.md is
	// absent, as Codex reads them. Empty means [DefaultNames], or with a
	// Preset the product's names.
	//
	// A name is found when it equals, byte for byte, the name of an
	// entry the directory lists, whatever the host file system's case
	// rules, so agents.md is not AGENTS.md on macOS either. A name may
	// be several "/"-separated elements (".claude/CLAUDE.md",
	// SPEC.md §9): in directory D it names D/.claude/CLAUDE.md, found
	// when D/.claude is a directory that lists CLAUDE.md. A name with an
	// empty, "." or ".." element, a leading or trailing "/" or a NUL is
	// an error.
	Names []string

	// AllNames, when set, includes every name of Names a directory has,
	// in Names order, none shadowing another (SPEC.md §9), as Claude
	// Code reads both CLAUDE.md and CLAUDE.local.md.
	AllNames bool

	// Root is the directory the walk stops after. Empty means the
	// file system root, which with FS is ".". A path outside Root is
	// an error.
	Root string

	// Extra are explicit OS paths included before the chain, in order,
	// such as the user's own file in their home directory, which the
	// repository's files then refine. Missing ones are skipped.
	//
	// They come first because the convention is that the nearest file
	// wins, and a file that is not in the tree at all is the farthest
	// of the lot: Codex reads ~/.codex/AGENTS.md first for that
	// reason. They are also the first charge on Budget, as they are
	// there.
	Extra []string

	// MaxBytes bounds one file; zero means [DefaultMaxBytes]. A file
	// that reads larger is an error, because a truncated instruction
	// file would silently change what the model is told. Chain reads
	// no more than one byte past it to find that out. Negative is an
	// error.
	MaxBytes int64

	// Budget bounds the total bytes of every file returned. The first
	// file that would take the total over it, and every file after
	// it, is left out and reported in [Result.Omitted], and Chain
	// returns what fits without error, so a large file deep in a tree
	// degrades the prompt rather than failing the run. No file is cut
	// short. Zero means no budget; negative is an error.
	//
	// The bytes charged are the bytes read. The size the file system
	// reports decides only whether a file is read: one whose reported
	// size does not fit is left out unread, and one that reads more
	// than fits is left out with the size it read.
	Budget int64

	// RenderedBudget bounds the bytes of [Render]'s output rather than
	// of the files, so a product bounding its prompt sets the number
	// the model pays: the files, the project_context element around
	// them and one project_instructions element per file, with its
	// path. It is spent as Budget is, in the same order, on the bytes
	// read, and the first file that would take the rendering over it
	// ends the chain. Zero means no rendered budget; Budget, when also
	// set, still bounds the files, and the first file over either ends
	// the chain. Negative is an error.
	//
	// The paths counted are the ones Chain returns. A product that
	// rewrites [File.Path] before Render, such as to show a name in
	// Options.FS as a workspace path, changes the rendered size, and
	// must bound the rewritten rendering itself.
	RenderedBudget int64

	// Confine, when set, opens and reads nothing outside Root on the OS
	// file system: a symbolic link below Root that leads out of it (an
	// instruction file's, a directory's on the way, or the path's own,
	// at any depth) is not followed, and is reported in [Result.Omitted]
	// as [Escapes]; the next name stands for its directory. Relative
	// links that stay inside Root are followed; absolute ones are
	// refused. Root itself is taken as given, and Extra files are read
	// as given. Confine with Root "" or "/" is an error: confined to the
	// file system's root, nothing leads out, so a link to any file of the
	// machine would be read. With [Options.FS] it changes nothing: the
	// FS is its own confinement (os.Root.FS() is one). Set it for
	// repositories you did not write; SECURITY.md in the repository has
	// the details.
	Confine bool

	// The options below compose instructions from more than one file per
	// directory (SPEC.md §5). Each is off when zero, and with all of them
	// off Chain is as the fields above say, byte for byte.

	// Fragments are directory names relative to each directory of the
	// walk, each one or more "/"-separated elements valid as names are,
	// such as ".agents/AGENTS.d". After each directory's own file (whether
	// or not it has one), the regular files of each fragment directory
	// whose names end in ".md" and do not begin with "." are files of the
	// result, of [SourceFragment], in ascending byte order of name;
	// subdirectories are not entered. A fragment directory that does not
	// exist or is no directory adds nothing. With FS they are FS names.
	Fragments []string

	// Overlays are OS directories looked up after the whole walk, in
	// order, each as one more directory of the walk: the first of Names it
	// holds is its file, the others are [Shadowed], then come its
	// fragments, all of [SourceOverlay]. Their text is the last the model
	// reads, so it wins over the repository's. They are made absolute and
	// cleaned as Extra is and read from the OS even with FS. One outside
	// Root is not confined (the host's choice); with Confine, one inside
	// Root is confined as the walk is. A missing one is skipped; one that
	// is not a directory is an error. [OverlayDir] builds a per-caller
	// overlay directory.
	Overlays []string

	// Imports turns on import directives (SPEC.md §5.4): a line, outside
	// code blocks and HTML comments, that is "@include PATH", or "@PATH"
	// where PATH holds a "." or a "/" and no space, is replaced by the
	// content of PATH, relative to the including file's directory and
	// itself expanded. A target already in the result expands to nothing
	// and is reported as a duplicate; a top-level file already imported is
	// omitted as [Duplicate]. Every import is listed in [Result.Imports].
	// A directive that cannot be expanded is an error wrapping
	// [ErrImport] (or [ErrTooLarge] for a target over MaxBytes). The
	// bounds apply to the expanded content.
	Imports bool

	// ImportDepth is how deep imports may nest, a file of the result being
	// depth 0; zero means [DefaultImportDepth]. Negative is an error. It
	// changes nothing without Imports.
	ImportDepth int

	// MaxImports is the most import reads of one Chain; zero means
	// [DefaultMaxImports]. Negative is an error. It changes nothing
	// without Imports.
	MaxImports int

	// Transform, when set, is called with each file of the result that is
	// read, with its path and its content after imports are expanded, and
	// returns the content to use. It runs before the bounds, so MaxBytes
	// and the budgets count what it returns, which is never scanned for
	// import directives. An error it returns is Chain's error, naming the
	// file, with its message, and errors.Is finds it. It is called from
	// the goroutine running Chain; Chains on several goroutines call it
	// at once. A panic in it is raised again by Chain once the library has
	// returned; it must not call [runtime.Goexit]. Transform and Env are
	// one option of the library: setting both is an error.
	Transform func(path, content string) (string, error)

	// Env, when not empty, turns on the library's interpolator, a
	// built-in Transform: each "${env:NAME}" whose NAME is a key of Env is
	// replaced by its value, and every other "${...}" is left as it is.
	// It reads only this map, never the process environment, so that a
	// repository's text cannot pull a secret into a prompt: a product
	// passes the names it means to share. Each key must match
	// [A-Za-z_][A-Za-z0-9_]*.
	Env map[string]string

	// Nearest, when set, includes of the directories' files only the
	// nearest one (the last of the walk's): every other directory's file
	// is omitted unread as [Superseded], By the nearest one. Extra,
	// fragments and overlays are unaffected.
	Nearest bool

	// Report, when set, lists in [Result.Probes] every place Chain looked
	// at, in order, with what was there, so that a product can say "no
	// AGENTS.md found, checked ..." (the spec's option "report", the
	// command line's --explain).
	Report bool

	// Rules are rule directories (SPEC.md §11), such as
	// {DialectCursor, ".cursor/rules"}: directories of instruction files
	// that apply always, when the path matches their globs, or on request,
	// each read as its [Dialect] says and looked up where it says, at the
	// root or in each directory of the walk. Their files are read
	// recursively, 8 directory levels deep, in byte order of their path
	// below the rule directory. A directory's rules that apply come after
	// its file and fragments, in the order of Rules, of [SourceRule], their
	// content the text after the front matter, verbatim; the budgets,
	// MaxBytes, Omitted and Probes count them as files. Rules that apply on
	// request are not given but listed in [Result.Available], and what a
	// rule file could not be read as is in [Result.Warnings] (a rule whose
	// front matter cannot be read applies always: a rule is never dropped in
	// silence). A rule directory that does not exist has none; one that is
	// a regular file is an error when its directory is looked up. A Dialect
	// that is none of the package's, or a Dir that is not one or more
	// elements valid as names are, is an error.
	Rules []RuleDir

	// Preset, when not "", is the name of a product ("codex", "claude",
	// ... as `agentsmd --as list` lists them) whose loading Chain
	// reproduces at its pinned version (SPEC.md §12): the files it loads,
	// in its order and with its text, every file it drops, cuts or leaves
	// unread in [Result.Omitted], and in [Result.Rendered] the piece of
	// what it sends its model that holds them. The product finds its own
	// project root; Root, when set, is that root. An unknown name is an
	// invalid-argument error naming the presets. A [Session] of a preset
	// is the product at work: its first touch the product starting there,
	// each later one its agent reading a file (SPEC.md §12 with §10).
	Preset string

	// Home is the home directory a preset reads the product's global
	// files in (~/.codex/AGENTS.md, ~/.claude/CLAUDE.md, ...); with it, no
	// environment variable (HOME, CODEX_HOME, ...) is read, so that a test
	// or a server never reads its own user's files. "" means the caller's
	// home and the product's environment variables.
	Home string

	// Skills, when not nil, are the skill names [Parse] and
	// [ParseNearest] request instead of the front matter's, in order; an
	// empty, non-nil list requests none. Chain does not use it.
	Skills []string
}

// DefaultImportDepth is how deep imports nest when Options.ImportDepth is 0.
const DefaultImportDepth = 5

// DefaultMaxImports is the most import reads of one Chain when
// Options.MaxImports is 0.
const DefaultMaxImports = 64

// check refuses what the library's unsigned bounds cannot express. A
// negative bound is a caller's mistake, and taking it as "none" or as a huge
// number would hide it.
func (o *Options) check() error {
	for _, bound := range []struct {
		name  string
		value int64
	}{
		{"MaxBytes", o.MaxBytes},
		{"Budget", o.Budget},
		{"RenderedBudget", o.RenderedBudget},
	} {
		if bound.value < 0 {
			return invalidArgument("Options.%s is negative (%d)", bound.name, bound.value)
		}
	}
	for _, count := range []struct {
		name  string
		value int
	}{
		{"ImportDepth", o.ImportDepth},
		{"MaxImports", o.MaxImports},
	} {
		if count.value < 0 {
			return invalidArgument("Options.%s is negative (%d)", count.name, count.value)
		}
		if uint64(count.value) > math.MaxUint32 {
			return invalidArgument("Options.%s is too large (%d)", count.name, count.value)
		}
	}
	if o.Transform != nil && len(o.Env) > 0 {
		return invalidArgument("Options.Transform and Options.Env are both set; they are one option, set one")
	}
	return nil
}

// cOptions is a C options handle built from Options, and the bridge serving
// Options.FS, if any, for Chain's error and panic.
type cOptions struct {
	handle    *C.agentsmd_options
	bridge    *fsBridge
	transform *transformBridge
}

// states are the callback states of the options' FS and transform, the FS's
// first, nil for one not set.
func (c *cOptions) states() []*callbackState {
	var states []*callbackState
	if c.bridge != nil {
		states = append(states, &c.bridge.callbackState)
	}
	if c.transform != nil {
		states = append(states, &c.transform.callbackState)
	}
	return states
}

// newCOptions copies o into a new C options handle, which the caller frees.
func newCOptions(o *Options) (*cOptions, error) {
	if err := o.check(); err != nil {
		return nil, err
	}
	handle := C.agentsmd_options_new()
	if handle == nil {
		return nil, fmt.Errorf("agentsmd: the library failed to allocate options")
	}
	c := &cOptions{handle: handle}
	if err := c.set(o); err != nil {
		c.free()
		return nil, err
	}
	return c, nil
}

// set copies every option into the handle.
func (c *cOptions) set(o *Options) error {
	names := o.Names
	if len(names) == 0 && o.Preset == "" {
		// DefaultNames is a variable: honour it, rather than the
		// library's own default, if a product changed it. A preset
		// has its product's names, which names given would override.
		names = DefaultNames
	}
	if len(names) > 0 {
		if err := setList(names, func(array *C.agentsmd_bytes, n C.size_t, cerr **C.agentsmd_error) C.agentsmd_status {
			return C.agentsmd_options_set_names(c.handle, array, n, cerr)
		}); err != nil {
			return err
		}
	}
	var cerr *C.agentsmd_error
	root, rootLen := cBytes(o.Root)
	if err := errorOf(C.agentsmd_options_set_root(c.handle, root, rootLen, &cerr), cerr, nil); err != nil {
		return err
	}
	if err := setList(o.Extra, func(array *C.agentsmd_bytes, n C.size_t, cerr **C.agentsmd_error) C.agentsmd_status {
		return C.agentsmd_options_set_extra(c.handle, array, n, cerr)
	}); err != nil {
		return err
	}
	if err := errorOf(C.agentsmd_options_set_max_bytes(c.handle, C.uint64_t(o.MaxBytes), &cerr), cerr, nil); err != nil {
		return err
	}
	if err := errorOf(C.agentsmd_options_set_budget(c.handle, C.uint64_t(o.Budget), &cerr), cerr, nil); err != nil {
		return err
	}
	if err := errorOf(C.agentsmd_options_set_rendered_budget(c.handle, C.uint64_t(o.RenderedBudget), &cerr), cerr, nil); err != nil {
		return err
	}
	confine := C.uint32_t(0)
	if o.Confine {
		confine = 1
	}
	if err := errorOf(C.agentsmd_options_set_confine(c.handle, confine, &cerr), cerr, nil); err != nil {
		return err
	}
	if o.FS != nil {
		bridge := &fsBridge{fsys: o.FS, ctx: context.Background()}
		_, batched := o.FS.(BatchFS)
		if err := c.setHandle(bridge, func(h C.uintptr_t, cerr **C.agentsmd_error) C.agentsmd_status {
			return C.agentsmdgo_set_fs(c.handle, h, C.int(cFlag(batched)), cerr)
		}); err != nil {
			return err
		}
		c.bridge = bridge
	}
	if err := c.setComposition(o); err != nil {
		return err
	}
	if err := c.setRules(o.Rules); err != nil {
		return err
	}
	return c.setPreset(o)
}

// setPreset copies the preset and its home directory (SPEC.md §12) into the
// handle.
func (c *cOptions) setPreset(o *Options) error {
	var cerr *C.agentsmd_error
	preset, presetLen := cBytes(o.Preset)
	if err := errorOf(C.agentsmd_options_set_preset(c.handle, preset, presetLen, &cerr), cerr, nil); err != nil {
		return err
	}
	home, homeLen := cBytes(o.Home)
	return errorOf(C.agentsmd_options_set_home(c.handle, home, homeLen, &cerr), cerr, nil)
}

// setComposition copies the options of SPEC.md §5 into the handle.
func (c *cOptions) setComposition(o *Options) error {
	var cerr *C.agentsmd_error
	if err := setList(o.Fragments, func(array *C.agentsmd_bytes, n C.size_t, cerr **C.agentsmd_error) C.agentsmd_status {
		return C.agentsmd_options_set_fragments(c.handle, array, n, cerr)
	}); err != nil {
		return err
	}
	if err := setList(o.Overlays, func(array *C.agentsmd_bytes, n C.size_t, cerr **C.agentsmd_error) C.agentsmd_status {
		return C.agentsmd_options_set_overlays(c.handle, array, n, cerr)
	}); err != nil {
		return err
	}
	if err := errorOf(C.agentsmd_options_set_imports(c.handle, cFlag(o.Imports), &cerr), cerr, nil); err != nil {
		return err
	}
	if err := errorOf(C.agentsmd_options_set_import_depth(c.handle, C.uint32_t(o.ImportDepth), &cerr), cerr, nil); err != nil {
		return err
	}
	if err := errorOf(C.agentsmd_options_set_max_imports(c.handle, C.uint32_t(o.MaxImports), &cerr), cerr, nil); err != nil {
		return err
	}
	if err := errorOf(C.agentsmd_options_set_nearest(c.handle, cFlag(o.Nearest), &cerr), cerr, nil); err != nil {
		return err
	}
	if err := errorOf(C.agentsmd_options_set_all_names(c.handle, cFlag(o.AllNames), &cerr), cerr, nil); err != nil {
		return err
	}
	if err := errorOf(C.agentsmd_options_set_report(c.handle, cFlag(o.Report), &cerr), cerr, nil); err != nil {
		return err
	}
	if len(o.Env) > 0 {
		// In name order, so that the library gets the same map whatever
		// Go's map order.
		names := make([]string, 0, len(o.Env))
		for name := range o.Env {
			names = append(names, name)
		}
		sort.Strings(names)
		values := make([]string, len(names))
		for i, name := range names {
			values[i] = o.Env[name]
		}
		cnames, namesArena := cBytesList(names)
		cvalues, valuesArena := cBytesList(values)
		status := C.agentsmd_options_set_interpolator(c.handle, cnames, cvalues, C.size_t(len(names)), &cerr)
		namesArena.free()
		valuesArena.free()
		if err := errorOf(status, cerr, nil); err != nil {
			return err
		}
	}
	if o.Transform != nil {
		transform := &transformBridge{fn: o.Transform}
		if err := c.setHandle(transform, func(h C.uintptr_t, cerr **C.agentsmd_error) C.agentsmd_status {
			return C.agentsmdgo_set_transform(c.handle, h, cerr)
		}); err != nil {
			return err
		}
		c.transform = transform
	}
	return nil
}

// setRules copies the rule directories of SPEC.md §11 into the handle.
func (c *cOptions) setRules(rules []RuleDir) error {
	dialects := make([]C.uint32_t, len(rules))
	for i, rule := range rules {
		dialect, ok := cDialects[rule.Dialect]
		if !ok {
			return invalidArgument("Options.Rules[%d]: dialect %d is none of claude, cursor, copilot, windsurf, kiro, cline", i, int(rule.Dialect))
		}
		dialects[i] = dialect
	}
	array, arena := cRuleDirs(rules, dialects)
	defer arena.free()
	var cerr *C.agentsmd_error
	return errorOf(C.agentsmd_options_set_rules(c.handle, array, C.size_t(len(rules)), &cerr), cerr, nil)
}

// setHandle hands the library a cgo.Handle to value with set, which the
// library releases; no Go pointer is ever stored in C memory.
func (c *cOptions) setHandle(value any, set func(C.uintptr_t, **C.agentsmd_error) C.agentsmd_status) error {
	h := cgo.NewHandle(value)
	var cerr *C.agentsmd_error
	if err := errorOf(set(C.uintptr_t(h), &cerr), cerr, nil); err != nil {
		h.Delete() // the library keeps nothing on failure, and never releases it
		return err
	}
	return nil
}

// setList hands the library list with set, through C memory the call borrows.
func setList(list []string, set func(*C.agentsmd_bytes, C.size_t, **C.agentsmd_error) C.agentsmd_status) error {
	array, arena := cBytesList(list)
	defer arena.free()
	var cerr *C.agentsmd_error
	return errorOf(set(array, C.size_t(len(list)), &cerr), cerr, nil)
}

// cFlag is the library's 1 or 0 for b.
func cFlag(b bool) C.uint32_t {
	if b {
		return 1
	}
	return 0
}

// free frees the handle; the library then releases the file system's handle.
func (c *cOptions) free() {
	C.agentsmd_options_free(c.handle)
}
