package agentsmd

// #include <agentsmd.h>
// #include "fs_bridge.h"
import "C"

import (
	"fmt"
	"io/fs"
	"runtime/cgo"
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
	// [fs.ErrNotExist] means no file. Nil means the OS file system.
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
	// absent, as Codex reads them. Empty means [DefaultNames].
	//
	// A name is found when it equals, byte for byte, the name of an
	// entry the directory lists, whatever the host file system's case
	// rules, so agents.md is not AGENTS.md on macOS either. Each name
	// is one path element; any other is an error.
	Names []string

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

	// Nearest, when set, includes of the directories' files only the
	// nearest one (SPEC.md §5.6); the others are in [Result.Omitted] as
	// [Superseded], unread. Extra files are unaffected.
	// [ParseNearest] sets it.
	Nearest bool

	// Skills, when not nil, are the skill names [Parse] and
	// [ParseNearest] request instead of the front matter's, in order; an
	// empty, non-nil list requests none. Chain does not use it.
	Skills []string
}

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
			return fmt.Errorf("agentsmd: Options.%s is negative (%d)", bound.name, bound.value)
		}
	}
	return nil
}

// cOptions is a C options handle built from Options, and the bridge serving
// Options.FS, if any, for Chain's error and panic.
type cOptions struct {
	handle *C.agentsmd_options
	bridge *fsBridge
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
	if len(names) == 0 {
		// DefaultNames is a variable: honour it, rather than the
		// library's own default, if a product changed it.
		names = DefaultNames
	}
	var cerr *C.agentsmd_error
	array, arena := cBytesList(names)
	status := C.agentsmd_options_set_names(c.handle, array, C.size_t(len(names)), &cerr)
	arena.free()
	if err := errorOf(status, cerr, nil); err != nil {
		return err
	}
	root, rootLen := cBytes(o.Root)
	if err := errorOf(C.agentsmd_options_set_root(c.handle, root, rootLen, &cerr), cerr, nil); err != nil {
		return err
	}
	array, arena = cBytesList(o.Extra)
	status = C.agentsmd_options_set_extra(c.handle, array, C.size_t(len(o.Extra)), &cerr)
	arena.free()
	if err := errorOf(status, cerr, nil); err != nil {
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
	nearest := C.uint32_t(0)
	if o.Nearest {
		nearest = 1
	}
	if err := errorOf(C.agentsmd_options_set_nearest(c.handle, nearest, &cerr), cerr, nil); err != nil {
		return err
	}
	if o.FS != nil {
		bridge := &fsBridge{fsys: o.FS}
		h := cgo.NewHandle(bridge)
		if err := errorOf(C.agentsmdgo_set_fs(c.handle, C.uintptr_t(h), &cerr), cerr, nil); err != nil {
			h.Delete() // the library keeps nothing on failure, and never releases it
			return err
		}
		c.bridge = bridge
	}
	return nil
}

// free frees the handle; the library then releases the file system's handle.
func (c *cOptions) free() {
	C.agentsmd_options_free(c.handle)
}
