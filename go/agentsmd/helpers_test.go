package agentsmd_test

import (
	"fmt"
	"io/fs"
	"reflect"
	"sort"
	"sync"
	"testing"
	"testing/fstest"

	"github.com/agentsmd/agentsmd/go/agentsmd"
)

// testdata is the repository's fixtures, shared with the Rust and C tests so
// that every binding is checked against the same bytes.
const testdata = "../../testdata"

// file is a MapFS entry holding text.
func file(text string) *fstest.MapFile { return &fstest.MapFile{Data: []byte(text)} }

// faultFS is a MapFS whose operations can be made to fail, and which records
// every file it opens, to tell what the library read.
type faultFS struct {
	fstest.MapFS
	// faults maps "open NAME", "readdir NAME" or "stat NAME" to the error
	// that operation returns.
	faults map[string]error

	mu     sync.Mutex
	opened []string
}

func (f *faultFS) fault(op, name string) error { return f.faults[op+" "+name] }

func (f *faultFS) Open(name string) (fs.File, error) {
	if err := f.fault("open", name); err != nil {
		return nil, err
	}
	f.mu.Lock()
	f.opened = append(f.opened, name)
	f.mu.Unlock()
	return f.MapFS.Open(name)
}

func (f *faultFS) ReadDir(name string) ([]fs.DirEntry, error) {
	if err := f.fault("readdir", name); err != nil {
		return nil, err
	}
	return f.MapFS.ReadDir(name)
}

func (f *faultFS) Stat(name string) (fs.FileInfo, error) {
	if err := f.fault("stat", name); err != nil {
		return nil, err
	}
	return f.MapFS.Stat(name)
}

// openedFiles is every name the library opened, sorted. The library lists
// and stats through ReadDir and Stat, so these are the files it read.
func (f *faultFS) openedFiles() []string {
	f.mu.Lock()
	defer f.mu.Unlock()
	files := append([]string(nil), f.opened...)
	sort.Strings(files)
	return files
}

// mustChain is Chain, failing the test on an error.
func mustChain(t testing.TB, path string, opts agentsmd.Options) agentsmd.Result {
	t.Helper()
	res, err := agentsmd.Chain(path, opts)
	if err != nil {
		t.Fatalf("Chain(%q): %v", path, err)
	}
	return res
}

// checkResult fails the test unless got is want, showing both.
func checkResult(t testing.TB, got, want agentsmd.Result) {
	t.Helper()
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("Chain returned\n%s\nwant\n%s", describe(got), describe(want))
	}
}

// describe lays a result out one entry a line.
func describe(res agentsmd.Result) string {
	s := "files:\n"
	for _, f := range res.Files {
		s += fmt.Sprintf("  %s %q\n", f.Path, f.Content)
	}
	s += "omitted:\n"
	for _, o := range res.Omitted {
		s += fmt.Sprintf("  %s (%d bytes) %s by %q\n", o.Path, o.Size, o.Reason, o.By)
	}
	return s
}
