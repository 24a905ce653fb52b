package agentsmd_test

import (
	"io/fs"
	"path"
	"sort"
	"strings"
	"testing/fstest"

	"github.com/agentsmd/agentsmd/go/agentsmd"
)

// model is SPEC.md §1 and §2 written again, small and independent of the
// library, for FuzzChain to hold the library to: a tree of regular files,
// FIFOs and directories named by FS names, and the chain those rules give.
type model struct {
	files map[string]string // regular files and their content
	fifos map[string]bool   // entries that are no file and no directory
	dirs  map[string]bool   // every directory, "." included
	extra map[string]string // OS files that exist, by absolute path
}

func newModel() *model {
	return &model{
		files: map[string]string{},
		fifos: map[string]bool{},
		dirs:  map[string]bool{".": true},
		extra: map[string]string{},
	}
}

// addFile, addFIFO and addDir put an entry in the tree, with the directories
// above it.
func (m *model) addFile(name, content string) { m.files[name] = content; m.addParents(name) }
func (m *model) addFIFO(name string)          { m.fifos[name] = true; m.addParents(name) }
func (m *model) addDir(name string)           { m.dirs[name] = true; m.addParents(name) }

func (m *model) addParents(name string) {
	for dir := path.Dir(name); dir != "."; dir = path.Dir(dir) {
		m.dirs[dir] = true
	}
}

// used reports whether name is already an entry of the tree.
func (m *model) used(name string) bool {
	_, file := m.files[name]
	return file || m.fifos[name] || m.dirs[name]
}

// fs is the tree as an fstest.MapFS. A directory that holds nothing gets an
// entry of its own; a FIFO is a MapFS entry with that mode.
func (m *model) fs() fstest.MapFS {
	fsys := fstest.MapFS{}
	for name, content := range m.files {
		fsys[name] = &fstest.MapFile{Data: []byte(content)}
	}
	for name := range m.fifos {
		fsys[name] = &fstest.MapFile{Mode: fs.ModeNamedPipe}
	}
	for name := range m.dirs {
		if name != "." {
			fsys[name] = &fstest.MapFile{Mode: fs.ModeDir | 0o755}
		}
	}
	return fsys
}

// expectation is what the model says Chain returns: a result, or an error
// of one of the kinds it allows.
type expectation struct {
	res agentsmd.Result
	// read is every FS file read, sorted: no other may be opened.
	read []string
	// tooLarge and listing say which errors are expected; when both are,
	// the rules do not say which comes first, and either will do.
	tooLarge, listing bool
}

func (e expectation) fails() bool { return e.tooLarge || e.listing }

// chain is what the rules give at p, for a root, names and extras. p and
// root are valid FS names, root at or above p.
func (m *model) chain(p, root string, names, extras []string, opts agentsmd.Options) expectation {
	var want expectation
	w := walk{opts: opts, exp: &want}
	// Extra first, in order; a missing one is skipped.
	for _, x := range extras {
		if content, ok := m.extra[x]; ok {
			w.consider(x, content, false)
		}
	}
	// The start: p if it is a directory; else its parent, but never above
	// root. A start that exists and is no directory cannot be listed.
	start := p
	if !m.dirs[p] {
		if p != root {
			start = path.Dir(p)
		}
		if m.used(start) && !m.dirs[start] {
			want.listing = true
		}
	}
	// One file per directory from root down to start: the first name, in
	// names order without repeats, that is a regular file there.
	for _, dir := range between(root, start) {
		if !m.dirs[dir] {
			continue // a directory that does not exist lists nothing
		}
		var by string
		seen := map[string]bool{}
		for _, name := range names {
			full := join(dir, name)
			content, ok := m.files[full]
			if seen[name] || !ok {
				continue
			}
			seen[name] = true
			if by == "" {
				by = full
				w.consider(full, content, true)
			} else {
				w.omit(full, int64(len(content)), agentsmd.Shadowed, by)
			}
		}
	}
	sort.Strings(want.read)
	return want
}

// walk spends the bounds as §1 "Bounds" says.
type walk struct {
	opts  agentsmd.Options
	exp   *expectation
	spent int64
	ended bool
}

// consider keeps a file or leaves it out over budget. fromFS says whether
// reading it opens a name in the FS.
func (w *walk) consider(name, content string, fromFS bool) {
	size := int64(len(content))
	maxBytes := w.opts.MaxBytes
	if maxBytes == 0 {
		maxBytes = agentsmd.DefaultMaxBytes
	}
	// Read only if its size could fit; the first that does not ends the
	// chain, and it and every file after it are left out unread.
	if w.ended || !w.fits(name, content, true) {
		w.ended = true
		w.omit(name, size, agentsmd.OverBudget, "")
		return
	}
	if fromFS {
		w.exp.read = append(w.exp.read, name)
	}
	if size > maxBytes {
		w.exp.tooLarge = true
		w.ended = true // the chain has failed: nothing after it matters
		return
	}
	if !w.fits(name, content, false) {
		w.ended = true
		w.omit(name, size, agentsmd.OverBudget, "")
		return
	}
	w.spent += size
	source := agentsmd.SourceChain
	if !fromFS {
		source = agentsmd.SourceExtra
	}
	w.exp.res.Files = append(w.exp.res.Files, agentsmd.File{Path: name, Content: content, Source: source})
}

func (w *walk) omit(name string, size int64, reason agentsmd.Reason, by string) {
	w.exp.res.Omitted = append(w.exp.res.Omitted, agentsmd.Omitted{Path: name, Size: size, Reason: reason, By: by})
}

// fits says whether the file fits both budgets beside the files kept so far.
// beforeRead, the rendering counts no newline the file may need added, since
// its last byte is not known yet.
func (w *walk) fits(name, content string, beforeRead bool) bool {
	if w.opts.Budget > 0 && w.spent+int64(len(content)) > w.opts.Budget {
		return false
	}
	if w.opts.RenderedBudget > 0 {
		with := append(append([]agentsmd.File(nil), w.exp.res.Files...), agentsmd.File{Path: name, Content: content})
		size := int64(len(modelRender(with)))
		if beforeRead && !strings.HasSuffix(content, "\n") {
			size--
		}
		if size > w.opts.RenderedBudget {
			return false
		}
	}
	return true
}

// modelRender is §2's rendering.
func modelRender(files []agentsmd.File) string {
	if len(files) == 0 {
		return ""
	}
	escape := strings.NewReplacer("&", "&amp;", "<", "&lt;", ">", "&gt;", `"`, "&quot;")
	s := "<project_context>\n"
	for _, f := range files {
		s += `<project_instructions path="` + escape.Replace(f.Path) + "\">\n" + f.Content
		if !strings.HasSuffix(f.Content, "\n") {
			s += "\n"
		}
		s += "</project_instructions>\n"
	}
	return s + "</project_context>"
}

// between is every directory from root down to dir, both included.
func between(root, dir string) []string {
	dirs := []string{dir}
	for dir != root {
		if dir == "." {
			panic(root + " is not above " + dirs[0])
		}
		dir = path.Dir(dir)
		dirs = append(dirs, dir)
	}
	for i, j := 0, len(dirs)-1; i < j; i, j = i+1, j-1 {
		dirs[i], dirs[j] = dirs[j], dirs[i]
	}
	return dirs
}

// join is an FS name below dir.
func join(dir, name string) string {
	if dir == "." {
		return name
	}
	return dir + "/" + name
}
