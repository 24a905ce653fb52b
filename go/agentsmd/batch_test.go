package agentsmd_test

import (
	"errors"
	"fmt"
	"io/fs"
	"path"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/agentsmd/agentsmd/go/agentsmd"
)

// countingFS counts the questions a chain asks: each batch, and each Open,
// which every single question (fs.ReadDir, fs.Stat, a read) goes through.
type countingFS struct {
	files                      fstest.MapFS
	opens, readDirs, readFiles int
	// fail, when set, is the error of every batch.
	fail error
}

func (c *countingFS) Open(name string) (fs.File, error) {
	c.opens++
	return c.files.Open(name)
}

// ReadDirs lists each directory; anything that cannot be listed as one
// (nothing, or a file) is nil.
func (c *countingFS) ReadDirs(names []string) ([][]fs.DirEntry, error) {
	c.readDirs++
	if c.fail != nil {
		return nil, c.fail
	}
	out := make([][]fs.DirEntry, len(names))
	for i, name := range names {
		if entries, err := fs.ReadDir(c.files, name); err == nil {
			out[i] = append([]fs.DirEntry{}, entries...)
		}
	}
	return out, nil
}

func (c *countingFS) ReadFiles(names []string, limit int64) ([][]byte, error) {
	c.readFiles++
	if c.fail != nil {
		return nil, c.fail
	}
	out := make([][]byte, len(names))
	for i, name := range names {
		if content, err := fs.ReadFile(c.files, name); err == nil {
			out[i] = content[:min(int64(len(content)), limit)]
		}
	}
	return out, nil
}

// singleFS is the same files asked one question at a time.
type singleFS struct{ files fstest.MapFS }

func (s singleFS) Open(name string) (fs.File, error) { return s.files.Open(name) }

// deepTree is a root and the 32 directories d1/…/d32 below it, each with an
// AGENTS.md that, with imports, imports one.md, which imports two.md. It
// returns the deepest directory.
func deepTree(imports bool) (fstest.MapFS, string) {
	files := fstest.MapFS{}
	dir := "."
	for depth := 0; depth <= 32; depth++ {
		if depth > 0 {
			dir = path.Join(dir, fmt.Sprintf("d%d", depth))
		}
		text := fmt.Sprintf("level %d\n", depth)
		if imports {
			text += "@one.md\n"
			files[path.Join(dir, "one.md")] = &fstest.MapFile{Data: []byte("one\n@two.md\n")}
			files[path.Join(dir, "two.md")] = &fstest.MapFile{Data: []byte("two\n")}
		}
		files[path.Join(dir, "AGENTS.md")] = &fstest.MapFile{Data: []byte(text)}
	}
	files[path.Join(dir, "main.go")] = &fstest.MapFile{Data: []byte("package main\n")}
	return files, dir
}

// inBatches checks that the chain of at over files costs readDirs and
// readFiles batches and no other question, with the result of the same files
// asked one question at a time.
func inBatches(t *testing.T, files fstest.MapFS, at string, opts agentsmd.Options, readDirs, readFiles int) agentsmd.Result {
	t.Helper()
	counting := &countingFS{files: files}
	opts.FS = counting
	got, err := agentsmd.Chain(at, opts)
	if err != nil {
		t.Fatalf("Chain(%q) in batches: %v", at, err)
	}
	opts.FS = singleFS{files}
	want, err := agentsmd.Chain(at, opts)
	if err != nil {
		t.Fatalf("Chain(%q): %v", at, err)
	}
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("Chain(%q) in batches = %+v, one question at a time %+v", at, got, want)
	}
	if counting.readDirs != readDirs || counting.readFiles != readFiles || counting.opens != 0 {
		t.Errorf("Chain(%q): %d ReadDirs, %d ReadFiles, %d Open; want %d, %d, 0",
			at, counting.readDirs, counting.readFiles, counting.opens, readDirs, readFiles)
	}
	return got
}

func TestABatchFSGetsA32DeepChainInOneListingAndOneRead(t *testing.T) {
	files, deepest := deepTree(false)
	for _, at := range []string{deepest, deepest + "/main.go", deepest + "/new.go"} {
		if res := inBatches(t, files, at, agentsmd.Options{}, 1, 1); len(res.Files) != 33 {
			t.Errorf("Chain(%q) = %d files, want 33", at, len(res.Files))
		}
	}
}

func TestFragmentsCostABatchFSNoMoreCalls(t *testing.T) {
	files, deepest := deepTree(false)
	for _, dir := range []string{".", "d1/d2", deepest} {
		files[path.Join(dir, "AGENTS.d/b.md")] = &fstest.MapFile{Data: []byte("b\n")}
		files[path.Join(dir, "AGENTS.d/a.md")] = &fstest.MapFile{Data: []byte("a\n")}
	}
	opts := agentsmd.Options{Fragments: []string{"AGENTS.d", ".agents/AGENTS.d"}}
	if res := inBatches(t, files, deepest, opts, 1, 1); len(res.Files) != 33+6 {
		t.Errorf("Chain = %d files, want 39", len(res.Files))
	}
}

// A directory whose fragment directory's parent is a file is answered nil by
// the listing batch, which is all the chain needs: still one batch of each,
// and no Stat (SPEC.md §3.1).
func TestANameThatIsNoDirectoryCostsNoMoreCalls(t *testing.T) {
	files, deepest := deepTree(false)
	dir := "d1/d2/d3/d4/d5/d6/d7/d8/d9/d10/d11/d12"
	files[path.Join(dir, ".agents")] = &fstest.MapFile{Data: []byte("not a directory\n")}
	files["d1/.agents/AGENTS.d/a.md"] = &fstest.MapFile{Data: []byte("a\n")}
	opts := agentsmd.Options{Fragments: []string{".agents/AGENTS.d"}}
	if res := inBatches(t, files, deepest, opts, 1, 1); len(res.Files) != 33+1 {
		t.Errorf("Chain = %d files, want 34", len(res.Files))
	}
}

func TestEachLevelOfImportsIsOneMoreRead(t *testing.T) {
	files, deepest := deepTree(true)
	opts := agentsmd.Options{Imports: true, MaxImports: 100}
	if res := inBatches(t, files, deepest, opts, 1, 3); len(res.Imports) != 66 {
		t.Errorf("Chain = %d imports, want 66", len(res.Imports))
	}
}

// linkEntry is a DirEntry that says only that it is a symbolic link.
type linkEntry struct{ fs.DirEntry }

func (linkEntry) Type() fs.FileMode { return fs.ModeSymlink }

// linkingFS lists d1/AGENTS.md as a symbolic link.
type linkingFS struct{ *countingFS }

func (l linkingFS) ReadDirs(names []string) ([][]fs.DirEntry, error) {
	listed, err := l.countingFS.ReadDirs(names)
	for i, name := range names {
		for j, entry := range listed[i] {
			if name == "d1" && entry.Name() == "AGENTS.md" {
				listed[i][j] = linkEntry{entry}
			}
		}
	}
	return listed, err
}

func TestALinkListedCostsOneStat(t *testing.T) {
	files, deepest := deepTree(false)
	counting := &countingFS{files: files}
	res, err := agentsmd.Chain(deepest, agentsmd.Options{FS: linkingFS{counting}})
	if err != nil {
		t.Fatal(err)
	}
	// fs.Stat is an Open and a Stat of the file.
	if len(res.Files) != 33 || counting.opens != 1 || counting.readDirs != 1 || counting.readFiles != 1 {
		t.Errorf("Chain = %d files, %d Open, %d ReadDirs, %d ReadFiles; want 33, 1, 1, 1",
			len(res.Files), counting.opens, counting.readDirs, counting.readFiles)
	}
}

// wrongFS answers the wrong number of listings.
type wrongFS struct{ *countingFS }

func (w wrongFS) ReadDirs(names []string) ([][]fs.DirEntry, error) {
	return make([][]fs.DirEntry, len(names)+1), nil
}

// panickingFS panics in ReadFiles.
type panickingFS struct{ *countingFS }

func (panickingFS) ReadFiles([]string, int64) ([][]byte, error) { panic("no reads today") }

func TestAFailedBatchIsTheChainsError(t *testing.T) {
	files, deepest := deepTree(false)
	gone := errors.New("the server is gone")
	failing := &countingFS{files: files, fail: gone}
	_, err := agentsmd.Chain(deepest, agentsmd.Options{FS: failing})
	if !errors.Is(err, gone) || !strings.Contains(err.Error(), "the server is gone") {
		t.Errorf("Chain = %v, want an error wrapping %v", err, gone)
	}
	// The batch's error is the chain's at once: it is never asked again.
	if failing.readDirs != 1 || failing.readFiles != 0 || failing.opens != 0 {
		t.Errorf("a failed batch: %d ReadDirs, %d ReadFiles, %d Open; want 1, 0, 0",
			failing.readDirs, failing.readFiles, failing.opens)
	}
	_, err = agentsmd.Chain(deepest, agentsmd.Options{FS: wrongFS{&countingFS{files: files}}})
	if err == nil || !strings.Contains(err.Error(), "ReadDirs answered 34 of 33 names") {
		t.Errorf("Chain = %v, want the wrong answer said", err)
	}
	defer func() {
		if r := recover(); r != "no reads today" {
			t.Errorf("Chain raised %v, want the file system's panic", r)
		}
	}()
	agentsmd.Chain(deepest, agentsmd.Options{FS: panickingFS{&countingFS{files: files}}})
	t.Error("Chain returned after the file system panicked")
}
