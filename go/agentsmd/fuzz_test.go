package agentsmd_test

import (
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/agentsmd/agentsmd/go/agentsmd"
)

// The pools a fuzz input picks from. Directory elements include the
// characters render escapes, so the rendered budget counts escaped paths; the
// names in the tree include spellings that differ from the names looked for
// only in case.
var (
	fuzzElements = []string{"a", `q&"<x>"`}
	fuzzNames    = []string{"AGENTS.override.md", "AGENTS.md", "CLAUDE.md", "agents.md"}
	fuzzEntries  = []string{"AGENTS.override.md", "AGENTS.md", "CLAUDE.md", "agents.md", "Agents.md"}
)

// decoder reads a fuzz input a byte at a time; past its end, every byte is 0.
type decoder struct{ data []byte }

func (d *decoder) next() int {
	if len(d.data) == 0 {
		return 0
	}
	b := d.data[0]
	d.data = d.data[1:]
	return int(b)
}

// pick is one of choices.
func (d *decoder) pick(choices []string) string { return choices[d.next()%len(choices)] }

// fuzzCase is one chain decoded from a fuzz input.
type fuzzCase struct {
	m      *model
	path   string
	root   string
	names  []string
	extras []string
}

// decodeCase builds a chain's arguments, then a tree, from spec: the
// arguments first, so that a short input still asks something.
func decodeCase(spec []byte, extraFiles []string, m *model) fuzzCase {
	d := &decoder{data: spec}
	c := fuzzCase{m: m}
	for n := 1 + d.next()%3; n > 0; n-- {
		c.names = append(c.names, d.pick(fuzzNames))
	}
	// The path: up to three directory elements, then the directory itself,
	// a file about to be created, or an entry of the tree.
	var elements []string
	for n := d.next() % 4; n > 0; n-- {
		elements = append(elements, d.pick(fuzzElements))
	}
	switch d.next() % 3 {
	case 1:
		elements = append(elements, "new.go")
	case 2:
		elements = append(elements, d.pick(fuzzEntries))
	}
	c.path, c.root = ".", "."
	if len(elements) > 0 {
		c.path = strings.Join(elements, "/")
	}
	if k := d.next() % (len(elements) + 1); k > 0 {
		c.root = strings.Join(elements[:k], "/")
	}
	for i, mask := 0, d.next(); i < len(extraFiles); i++ {
		if mask&(1<<i) != 0 {
			c.extras = append(c.extras, extraFiles[i])
		}
	}
	// The tree: each directory up to three elements deep holds any of the
	// entries, each a file of some text, a directory or a FIFO.
	dirs := []string{"."}
	for i := 0; i < len(dirs); i++ {
		if dirs[i] == "." || strings.Count(dirs[i], "/") < 2 {
			for _, e := range fuzzElements {
				dirs = append(dirs, join(dirs[i], e))
			}
		}
	}
	for _, dir := range dirs {
		mask := d.next()
		for i, entry := range fuzzEntries {
			if mask&(1<<i) == 0 {
				continue
			}
			name := join(dir, entry)
			switch kind := d.next(); {
			case kind%8 == 6:
				m.addDir(name)
			case kind%8 == 7:
				m.addFIFO(name)
			default:
				text := strings.Repeat(string(rune('a'+kind%26)), d.next()%24)
				if kind&0x80 != 0 {
					text += "\n"
				}
				m.addFile(name, text)
			}
		}
	}
	return c
}

// FuzzChain builds random trees as fstest.MapFS values and holds each chain
// to the model of SPEC.md: the order (extra, then root to start), one file
// per directory, exact names, shadowed files with what shadows them, both
// budgets (the first file over either ends the chain, and everything after it
// is over budget and unread), MaxBytes, the omitted list whole and in order,
// and the rendering.
func FuzzChain(f *testing.F) {
	dir := tempDir(f)
	extraFiles := []string{
		filepath.Join(dir, "user.md"),
		filepath.Join(dir, "missing.md"),
		filepath.Join(dir, "team.md"),
	}
	extraText := map[string]string{extraFiles[0]: "the user's rules\n", extraFiles[2]: "team rules, no newline"}
	for name, text := range extraText {
		if err := os.WriteFile(name, []byte(text), 0o644); err != nil {
			f.Fatal(err)
		}
	}

	// Seeds, in decodeCase's order: names, path, root, extra, then the
	// directories ".", "a", "q&...", "a/a", "a/q&...", ... each a mask of
	// entries and, for each entry, its kind and length.
	//
	// rich: names AGENTS.override.md, AGENTS.md, CLAUDE.md at a/q&.../new.go
	// from ".", with user.md and team.md as extra; "." holds both preferred
	// names, "a" a directory named AGENTS.md, CLAUDE.md, a FIFO named
	// agents.md and an Agents.md, and "a/q&..." a FIFO named
	// AGENTS.override.md, AGENTS.md and CLAUDE.md. 69 bytes in all.
	rich := []byte{
		2, 0, 1, 2, // names
		2, 0, 1, 1, 0, 5, // path, root, extra
		0x03, 0x80, 10, 1, 12, // "."
		0x1e, 6, 0x82, 8, 7, 3, 5, // "a"
		0x04, 0x84, 20, // "q&..."
		0,                      // "a/a"
		0x07, 7, 0x85, 9, 5, 4, // "a/q&..."
	}
	// The path and root are a/AGENTS.md, a file, or a directory.
	rootIsFile := []byte{0, 1, 1, 0, 2, 1, 2, 0, 0, 0x02, 1, 3}
	rootIsDir := []byte{0, 1, 1, 0, 2, 1, 0, 0, 0x02, 2, 5, 0x02, 6}
	for _, seed := range []struct {
		spec                             []byte
		budget, renderedBudget, maxBytes uint16
	}{
		{nil, 0, 0, 0},
		{rich, 0, 0, 0},
		{rich, 45, 0, 0},                    // ends at the root's file
		{rich, 60, 0, 0},                    // ends at the nearest file
		{rich, 0, 400, 0},                   // the rendering ends it
		{rich, 64, 300, 0},                  // both budgets
		{rich, 0, 0, 20},                    // team.md is too large
		{rich, 30, 0, 20},                   // team.md is over budget, so never too large
		{rootIsFile, 0, 0, 0},               // cannot be listed
		{rootIsDir, 0, 0, 0},                // a directory named AGENTS.md is the start
		{rootIsDir, 0, 105, 0},              // AGENTS.md is read, then over by the newline render adds
		{[]byte{1, 1, 1, 1, 0, 1}, 0, 0, 0}, // nothing found, a missing extra
	} {
		f.Add(seed.spec, seed.budget, seed.renderedBudget, seed.maxBytes)
	}

	f.Fuzz(func(t *testing.T, spec []byte, budget, renderedBudget, maxBytes uint16) {
		m := newModel()
		for name, text := range extraText {
			m.extra[name] = text
		}
		c := decodeCase(spec, extraFiles, m)
		fsys := &faultFS{MapFS: m.fs()}
		opts := agentsmd.Options{
			FS:             fsys,
			Names:          c.names,
			Root:           c.root,
			Extra:          c.extras,
			Budget:         int64(budget),
			RenderedBudget: int64(renderedBudget),
			MaxBytes:       int64(maxBytes),
		}
		want := m.chain(c.path, c.root, c.names, c.extras, opts)
		res, err := agentsmd.Chain(c.path, opts)
		context := func() string {
			return "chain at " + c.path + " root " + c.root + " names " + strings.Join(c.names, ",") +
				" extra " + strings.Join(c.extras, ",") + "\nmodel:\n" + describe(want.res) + "library:\n" + describe(res)
		}
		if want.fails() {
			switch {
			case err == nil:
				t.Fatalf("no error, want one (too large %v, listing %v)\n%s", want.tooLarge, want.listing, context())
			case !want.listing && !errors.Is(err, agentsmd.ErrTooLarge):
				t.Fatalf("error %v, want ErrTooLarge\n%s", err, context())
			case !want.tooLarge && errors.Is(err, agentsmd.ErrTooLarge):
				t.Fatalf("error %v, want a listing error\n%s", err, context())
			}
			return
		}
		if err != nil {
			t.Fatalf("error %v\n%s", err, context())
		}
		checkInvariants(t, res, opts, context)
		if !reflect.DeepEqual(res, want.res) {
			t.Fatalf("the library and the model differ\n%s", context())
		}
		if got := fsys.openedFiles(); !reflect.DeepEqual(got, want.read) {
			t.Fatalf("opened %q, want %q\n%s", got, want.read, context())
		}
		if got := agentsmd.Render(res.Files); got != modelRender(res.Files) {
			t.Fatalf("rendering\n%q\nwant\n%q", got, modelRender(res.Files))
		}
	})
}

// checkInvariants holds res to the rules that need no model, so that a
// failure names the rule it breaks.
func checkInvariants(t *testing.T, res agentsmd.Result, opts agentsmd.Options, context func() string) {
	t.Helper()
	// Where a path stands in the walk: extra first, in order, then by depth
	// from the root, one file per directory.
	position := func(p string) int {
		for i, x := range opts.Extra {
			if p == x {
				return i
			}
		}
		return len(opts.Extra) + strings.Count(p, "/")
	}
	var total int64
	last := -1
	for _, f := range res.Files {
		if at := position(f.Path); at <= last {
			t.Fatalf("%s out of order, or a second file of its directory\n%s", f.Path, context())
		} else {
			last = at
		}
		total += int64(len(f.Content))
	}
	if opts.Budget > 0 && total > opts.Budget {
		t.Fatalf("kept %d bytes over a budget of %d\n%s", total, opts.Budget, context())
	}
	if n := int64(len(agentsmd.Render(res.Files))); opts.RenderedBudget > 0 && n > opts.RenderedBudget {
		t.Fatalf("rendering of %d bytes over a budget of %d\n%s", n, opts.RenderedBudget, context())
	}
	for _, o := range res.Omitted {
		if o.Reason == agentsmd.Shadowed && o.By == "" || o.Reason == agentsmd.OverBudget && o.By != "" {
			t.Fatalf("omitted %s %s by %q\n%s", o.Path, o.Reason, o.By, context())
		}
		if o.Reason != agentsmd.OverBudget {
			continue
		}
		if opts.Budget == 0 && opts.RenderedBudget == 0 {
			t.Fatalf("%s over budget without a budget\n%s", o.Path, context())
		}
		// The first file over budget ends the chain: nothing after it is kept.
		if last >= position(o.Path) {
			t.Fatalf("a file kept after %s, which was over budget\n%s", o.Path, context())
		}
	}
}
