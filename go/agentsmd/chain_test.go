package agentsmd_test

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"reflect"
	"runtime"
	"strings"
	"syscall"
	"testing"
	"testing/fstest"

	"github.com/agentsmd/agentsmd/go/agentsmd"
)

// workspace is a tree with one of each case the names meet: a preferred
// name, a stand-in where it is absent, a lower-case spelling, and a
// directory and a FIFO under a name looked for.
func workspace() fstest.MapFS {
	return fstest.MapFS{
		"AGENTS.md":                {Data: []byte("root\n")},
		"CLAUDE.md":                {Data: []byte("root claude\n")},
		"a/agents.md":              {Data: []byte("lower case: never AGENTS.md\n")},
		"a/AGENTS.md/keep":         {Data: []byte("a directory named AGENTS.md\n")},
		"a/CLAUDE.md":              {Data: []byte("a claude\n")},
		"a/b/AGENTS.override.md":   {Data: []byte("b override\n")},
		"a/b/AGENTS.md":            {Data: []byte("b\n")},
		"a/b/CLAUDE.md":            {Data: []byte("b claude\n")},
		"a/b/c/AGENTS.override.md": {Mode: fs.ModeNamedPipe},
		"a/b/c/AGENTS.md":          {Data: []byte("c\n")},
	}
}

var workspaceNames = []string{"AGENTS.override.md", "AGENTS.md", "CLAUDE.md"}

func TestMapFSGivesTheChainItsNamesDescribe(t *testing.T) {
	fsys := &faultFS{MapFS: workspace()}
	// A file about to be created in a directory about to be created: its
	// ancestors' files still apply.
	res := mustChain(t, "a/b/c/d/new.go", agentsmd.Options{FS: fsys, Names: workspaceNames})
	checkResult(t, res, agentsmd.Result{
		Files: []agentsmd.File{
			{Path: "AGENTS.md", Content: "root\n"},
			{Path: "a/CLAUDE.md", Content: "a claude\n"},
			{Path: "a/b/AGENTS.override.md", Content: "b override\n"},
			{Path: "a/b/c/AGENTS.md", Content: "c\n"},
		},
		Omitted: []agentsmd.Omitted{
			{Path: "CLAUDE.md", Size: 12, Reason: agentsmd.Shadowed, By: "AGENTS.md"},
			{Path: "a/b/AGENTS.md", Size: 2, Reason: agentsmd.Shadowed, By: "a/b/AGENTS.override.md"},
			{Path: "a/b/CLAUDE.md", Size: 9, Reason: agentsmd.Shadowed, By: "a/b/AGENTS.override.md"},
		},
	})
	// Shadowed files are found, not read; the FIFO is never opened.
	want := []string{"AGENTS.md", "a/CLAUDE.md", "a/b/AGENTS.override.md", "a/b/c/AGENTS.md"}
	if got := fsys.openedFiles(); !reflect.DeepEqual(got, want) {
		t.Errorf("opened %q, want %q", got, want)
	}
}

func TestBudgetEndsTheChainAtTheFirstFileOverIt(t *testing.T) {
	fsys := &faultFS{MapFS: workspace()}
	// root (5) and a/CLAUDE.md (9) fit in 20; a/b's file (11) does not.
	res := mustChain(t, "a/b/c", agentsmd.Options{FS: fsys, Names: workspaceNames, Budget: 20})
	checkResult(t, res, agentsmd.Result{
		Files: []agentsmd.File{
			{Path: "AGENTS.md", Content: "root\n"},
			{Path: "a/CLAUDE.md", Content: "a claude\n"},
		},
		Omitted: []agentsmd.Omitted{
			{Path: "CLAUDE.md", Size: 12, Reason: agentsmd.Shadowed, By: "AGENTS.md"},
			{Path: "a/b/AGENTS.override.md", Size: 11, Reason: agentsmd.OverBudget},
			// A shadowed file stays shadowed after the budget ran out.
			{Path: "a/b/AGENTS.md", Size: 2, Reason: agentsmd.Shadowed, By: "a/b/AGENTS.override.md"},
			{Path: "a/b/CLAUDE.md", Size: 9, Reason: agentsmd.Shadowed, By: "a/b/AGENTS.override.md"},
			// It would fit, but the chain has ended.
			{Path: "a/b/c/AGENTS.md", Size: 2, Reason: agentsmd.OverBudget},
		},
	})
	// Files over budget are left out unread.
	want := []string{"AGENTS.md", "a/CLAUDE.md"}
	if got := fsys.openedFiles(); !reflect.DeepEqual(got, want) {
		t.Errorf("opened %q, want %q", got, want)
	}
}

func TestRenderedBudgetCountsTheRenderingsBytes(t *testing.T) {
	fsys := workspace()
	all := mustChain(t, "a/b/c", agentsmd.Options{FS: fsys, Names: workspaceNames})
	two := agentsmd.Render(all.Files[:2])
	for _, tc := range []struct {
		budget int64
		kept   int
	}{
		{int64(len(two)), 2},     // exactly the rendering of two files
		{int64(len(two)) - 1, 1}, // one byte short of it
		{1, 0},                   // not even the wrapper
	} {
		res := mustChain(t, "a/b/c", agentsmd.Options{FS: fsys, Names: workspaceNames, RenderedBudget: tc.budget})
		if len(res.Files) != tc.kept || tc.kept > 0 && !reflect.DeepEqual(res.Files, all.Files[:tc.kept]) {
			t.Errorf("RenderedBudget %d kept %d files, want %d", tc.budget, len(res.Files), tc.kept)
		}
		if got := int64(len(agentsmd.Render(res.Files))); got > tc.budget {
			t.Errorf("RenderedBudget %d: rendering is %d bytes", tc.budget, got)
		}
		if len(res.Omitted) == 0 || res.Omitted[len(res.Omitted)-1].Reason != agentsmd.OverBudget {
			t.Errorf("RenderedBudget %d: the nearest file is not over budget:\n%s", tc.budget, describe(res))
		}
	}
}

func TestDefaultsAndStartDirectory(t *testing.T) {
	fsys := workspace()
	for _, tc := range []struct {
		path  string
		opts  agentsmd.Options
		files []string
	}{
		// Default names and the FS's root: AGENTS.md only.
		{".", agentsmd.Options{}, []string{"AGENTS.md"}},
		{"a/b/c", agentsmd.Options{}, []string{"AGENTS.md", "a/b/AGENTS.md", "a/b/c/AGENTS.md"}},
		// An existing file: its directory is the start.
		{"a/b/AGENTS.md", agentsmd.Options{}, []string{"AGENTS.md", "a/b/AGENTS.md"}},
		// Root stops the walk.
		{"a/b/c", agentsmd.Options{Root: "a/b"}, []string{"a/b/AGENTS.md", "a/b/c/AGENTS.md"}},
		{"a/b/c", agentsmd.Options{Names: []string{"CLAUDE.md"}}, []string{"CLAUDE.md", "a/CLAUDE.md", "a/b/CLAUDE.md"}},
	} {
		tc.opts.FS = fsys
		res := mustChain(t, tc.path, tc.opts)
		var got []string
		for _, f := range res.Files {
			got = append(got, f.Path)
		}
		if !reflect.DeepEqual(got, tc.files) {
			t.Errorf("Chain(%q, %+v) = %q, want %q", tc.path, tc.opts, got, tc.files)
		}
	}
}

func TestContentIsVerbatimBytes(t *testing.T) {
	content := "\x00\xff\xfe not UTF-8, a NUL, no newline"
	fsys := fstest.MapFS{"AGENTS.md": {Data: []byte(content)}, "a/AGENTS.md": {Data: nil}}
	res := mustChain(t, "a", agentsmd.Options{FS: fsys})
	checkResult(t, res, agentsmd.Result{Files: []agentsmd.File{
		{Path: "AGENTS.md", Content: content},
		// An empty file is a file.
		{Path: "a/AGENTS.md", Content: ""},
	}})
	want := "<project_context>\n" +
		"<project_instructions path=\"AGENTS.md\">\n" + content + "\n</project_instructions>\n" +
		"<project_instructions path=\"a/AGENTS.md\">\n\n</project_instructions>\n" +
		"</project_context>"
	if got := agentsmd.Render(res.Files); got != want {
		t.Errorf("Render = %q, want %q", got, want)
	}
}

func TestRenderOfNoFilesIsEmpty(t *testing.T) {
	if got := agentsmd.Render(nil); got != "" {
		t.Errorf("Render(nil) = %q", got)
	}
}

func TestInvalidArguments(t *testing.T) {
	fsys := workspace()
	for _, tc := range []struct {
		name string
		path string
		opts agentsmd.Options
		text string
	}{
		{"name with an empty element", ".", agentsmd.Options{FS: fsys, Names: []string{"a//AGENTS.md"}}, "a//AGENTS.md"},
		{"name ..", ".", agentsmd.Options{FS: fsys, Names: []string{".."}}, `".."`},
		{"empty name", ".", agentsmd.Options{FS: fsys, Names: []string{"AGENTS.md", ""}}, `""`},
		{"rooted FS path", "/a", agentsmd.Options{FS: fsys}, "/a"},
		{"FS path with ..", "a/../b", agentsmd.Options{FS: fsys}, "a/../b"},
		{"invalid FS root", "a", agentsmd.Options{FS: fsys, Root: "./a"}, "./a"},
		{"FS path outside root", "a", agentsmd.Options{FS: fsys, Root: "a/b"}, "outside root"},
		{"OS path outside root", "/tmp", agentsmd.Options{Root: "/usr"}, "outside root"},
		{"negative MaxBytes", ".", agentsmd.Options{FS: fsys, MaxBytes: -1}, "MaxBytes is negative"},
		{"negative Budget", ".", agentsmd.Options{FS: fsys, Budget: -1}, "Budget is negative"},
		{"negative RenderedBudget", ".", agentsmd.Options{FS: fsys, RenderedBudget: -2}, "RenderedBudget is negative (-2)"},
	} {
		_, err := agentsmd.Chain(tc.path, tc.opts)
		if err == nil || !strings.Contains(err.Error(), tc.text) || !strings.HasPrefix(err.Error(), "agentsmd: ") {
			t.Errorf("%s: Chain(%q) error = %v, want one mentioning %q", tc.name, tc.path, err, tc.text)
		}
	}
}

func TestErrTooLarge(t *testing.T) {
	fsys := fstest.MapFS{"AGENTS.md": file("12345678")}
	_, err := agentsmd.Chain(".", agentsmd.Options{FS: fsys, MaxBytes: 7})
	if !errors.Is(err, agentsmd.ErrTooLarge) || !strings.Contains(err.Error(), "AGENTS.md") {
		t.Errorf("over MaxBytes: %v, want ErrTooLarge naming AGENTS.md", err)
	}
	if res := mustChain(t, ".", agentsmd.Options{FS: fsys, MaxBytes: 8}); len(res.Files) != 1 {
		t.Errorf("a file of exactly MaxBytes is not returned: %s", describe(res))
	}

	// On the OS file system, and by default 1 MiB.
	dir := tempDir(t)
	big := filepath.Join(dir, "AGENTS.md")
	if err := os.WriteFile(big, make([]byte, agentsmd.DefaultMaxBytes+1), 0o644); err != nil {
		t.Fatal(err)
	}
	_, err = agentsmd.Chain(dir, agentsmd.Options{Root: dir})
	if !errors.Is(err, agentsmd.ErrTooLarge) || !strings.Contains(err.Error(), big) {
		t.Errorf("over DefaultMaxBytes: %v, want ErrTooLarge naming %s", err, big)
	}
	// A file over budget is not read, so it is not too large either.
	res, err := agentsmd.Chain(dir, agentsmd.Options{Root: dir, Budget: 10})
	if err != nil || len(res.Omitted) != 1 || res.Omitted[0].Reason != agentsmd.OverBudget {
		t.Errorf("over budget and MaxBytes: %v\n%s", err, describe(res))
	}
}

// growingFS reports the size in its map but reads sizes[name] bytes, as an FS
// that expands a file as it reads it does.
type growingFS struct {
	fstest.MapFS
	reads map[string]string
}

func (g growingFS) Open(name string) (fs.File, error) {
	if text, ok := g.reads[name]; ok {
		return fstest.MapFS{"f": file(text)}.Open("f")
	}
	return g.MapFS.Open(name)
}

func TestBoundsCountTheBytesRead(t *testing.T) {
	fsys := growingFS{
		MapFS: fstest.MapFS{"AGENTS.md": file("1"), "a/AGENTS.md": file("2")},
		reads: map[string]string{"AGENTS.md": "expanded to 20 bytes"},
	}
	_, err := agentsmd.Chain("a", agentsmd.Options{FS: fsys, MaxBytes: 10})
	if !errors.Is(err, agentsmd.ErrTooLarge) {
		t.Errorf("a file whose stat fits MaxBytes but whose read does not: %v, want ErrTooLarge", err)
	}
	res := mustChain(t, "a", agentsmd.Options{FS: fsys, Budget: 10})
	checkResult(t, res, agentsmd.Result{Omitted: []agentsmd.Omitted{
		// Left out with the size it read, and the chain ends there.
		{Path: "AGENTS.md", Size: 20, Reason: agentsmd.OverBudget},
		{Path: "a/AGENTS.md", Size: 1, Reason: agentsmd.OverBudget},
	}})
}

// TestConfine: a link out of the root is followed by default, and with
// Confine is reported as Escapes and never read, while a link that stays
// inside is still followed.
func TestConfine(t *testing.T) {
	base := tempDir(t)
	root := filepath.Join(base, "root")
	if err := os.MkdirAll(root, 0o755); err != nil {
		t.Fatal(err)
	}
	for dir, content := range map[string]string{base: "secret\n", root: "root\n"} {
		if err := os.WriteFile(filepath.Join(dir, "AGENTS.md"), []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	for link, target := range map[string]string{
		"out/AGENTS.md": "../../AGENTS.md",
		"in/AGENTS.md":  "../AGENTS.md",
	} {
		if err := os.MkdirAll(filepath.Dir(filepath.Join(root, link)), 0o755); err != nil {
			t.Fatal(err)
		}
		if !symlink(t, target, filepath.Join(root, link)) {
			t.Skip("no symbolic link to follow")
		}
	}
	res := mustChain(t, filepath.Join(root, "out/x"), agentsmd.Options{Root: root})
	if len(res.Files) != 2 || res.Files[1].Content != "secret\n" {
		t.Fatalf("unconfined, the link out is followed:\n%s", describe(res))
	}
	res = mustChain(t, filepath.Join(root, "out/x"), agentsmd.Options{Root: root, Confine: true})
	checkResult(t, res, agentsmd.Result{
		Files:   []agentsmd.File{{Path: filepath.Join(root, "AGENTS.md"), Content: "root\n"}},
		Omitted: []agentsmd.Omitted{{Path: filepath.Join(root, "out/AGENTS.md"), Reason: agentsmd.Escapes}},
	})
	res = mustChain(t, filepath.Join(root, "in/x"), agentsmd.Options{Root: root, Confine: true})
	checkResult(t, res, agentsmd.Result{Files: []agentsmd.File{
		{Path: filepath.Join(root, "AGENTS.md"), Content: "root\n"},
		{Path: filepath.Join(root, "in/AGENTS.md"), Content: "root\n"},
	}})
}

func TestReasonString(t *testing.T) {
	for reason, want := range map[agentsmd.Reason]string{
		agentsmd.OverBudget: "over budget",
		agentsmd.Shadowed:   "shadowed",
		agentsmd.Escapes:    "escapes root",
		agentsmd.Reason(7):  "Reason(7)",
	} {
		if got := reason.String(); got != want {
			t.Errorf("Reason(%d).String() = %q, want %q", int(reason), got, want)
		}
	}
}

func TestConstants(t *testing.T) {
	if agentsmd.PartID != "agentsmd" || agentsmd.DefaultMaxBytes != 1<<20 ||
		!reflect.DeepEqual(agentsmd.DefaultNames, []string{"AGENTS.md"}) {
		t.Errorf("PartID %q, DefaultMaxBytes %d, DefaultNames %q", agentsmd.PartID, agentsmd.DefaultMaxBytes, agentsmd.DefaultNames)
	}
}

func TestOSErrorWrapsTheErrno(t *testing.T) {
	file := filepath.Join(tempDir(t), "file")
	if err := os.WriteFile(file, []byte("x"), 0o644); err != nil {
		t.Fatal(err)
	}
	// The root is a file: listing it fails, and not as "not found": ENOTDIR,
	// and on Windows ERROR_DIRECTORY (267, "the directory name is invalid").
	notDir := syscall.ENOTDIR
	if runtime.GOOS == "windows" {
		notDir = syscall.Errno(267)
	}
	_, err := agentsmd.Chain(file, agentsmd.Options{Root: file})
	var errno syscall.Errno
	if !errors.Is(err, notDir) || !errors.As(err, &errno) || !strings.Contains(err.Error(), file) {
		t.Errorf("listing a file: %v, want %v naming %s", err, notDir, file)
	}
}

func TestConfineToTheFileSystemRootIsAnError(t *testing.T) {
	// Confined to "/", every link stays inside: confinement would confine
	// nothing. On Windows the file system's root is the path's drive's (C:\).
	dir := tempDir(t)
	fsRoot := "/"
	if runtime.GOOS == "windows" {
		fsRoot = filepath.VolumeName(dir) + `\`
	}
	for _, root := range []string{"", fsRoot} {
		_, err := agentsmd.Chain(dir, agentsmd.Options{Root: root, Confine: true})
		if err == nil || !strings.Contains(err.Error(), "root") {
			t.Errorf("Confine with Root %q: %v, want an error about the root", root, err)
		}
	}
}
