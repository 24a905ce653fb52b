package agentsmd_test

import (
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"reflect"
	"runtime"
	"sort"
	"sync"
	"testing"
	"testing/fstest"

	"github.com/agentsmd/agentsmd/go/agentsmd"
)

// testdata is the repository's fixtures, shared with the Rust and C tests so
// that every binding is checked against the same bytes.
const testdata = "../../testdata"

// tempDir is a new directory for the test alone, removed with all it holds
// when the test ends, the test failing if that fails: t.TempDir, but for how
// it is removed. t.TempDir's cleanup is os.RemoveAll, which since Go 1.26 on
// Windows deletes each entry by NtSetInformationFile with
// FileDispositionInformationEx; Wine 8 answers that with a status Go does not
// fall back on ("unlinkat ...: Invalid function"), and every test under Wine
// would fail. os.Remove deletes by DeleteFile or RemoveDirectory, which every
// Windows and Wine have, so the tree is removed with it, deepest first.
func tempDir(t testing.TB) string {
	t.Helper()
	dir, err := os.MkdirTemp("", "agentsmd-go-test-")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		if err := removeTree(dir); err != nil {
			t.Errorf("removing the test's directory: %v", err)
		}
	})
	return dir
}

// removeTree removes dir and everything below it, each entry before the
// directory holding it. A symbolic link is removed, never followed.
func removeTree(dir string) error {
	var paths []string
	err := filepath.WalkDir(dir, func(path string, _ fs.DirEntry, err error) error {
		paths = append(paths, path)
		return err
	})
	if err != nil {
		return err
	}
	for i := len(paths) - 1; i >= 0; i-- {
		if err := os.Remove(paths[i]); err != nil {
			return err
		}
	}
	return nil
}

// symlink makes link a symbolic link to target (relative to link's directory,
// or absolute), reporting whether it did: it always does on Unix, where
// failing to fails the test; on Windows, only with the privilege to (an
// elevated process, Developer Mode), and never under Wine 8, whose
// CreateSymbolicLinkW says it made a link and makes nothing. A test of links
// skips what it cannot check when it gets false.
func symlink(t testing.TB, target, link string) bool {
	t.Helper()
	err := os.Symlink(target, link)
	if runtime.GOOS != "windows" {
		if err != nil {
			t.Fatal(err)
		}
		return true
	}
	if err == nil {
		var info fs.FileInfo
		if info, err = os.Lstat(link); err == nil && info.Mode()&fs.ModeSymlink == 0 {
			err = fmt.Errorf("%s is no symbolic link", link)
		}
	}
	if err != nil {
		t.Logf("no symbolic link can be made here: %v", err)
		return false
	}
	return true
}

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
		s += fmt.Sprintf("  %s %q (%s)\n", f.Path, f.Content, f.Source)
	}
	s += "omitted:\n"
	for _, o := range res.Omitted {
		s += fmt.Sprintf("  %s (%d bytes) %s by %q\n", o.Path, o.Size, o.Reason, o.By)
	}
	if res.Available != nil {
		s += "available:\n"
		for _, a := range res.Available {
			s += fmt.Sprintf("  %s (%s): %q\n", a.Path, a.Name, a.Description)
		}
	}
	if res.Warnings != nil {
		s += "warnings:\n"
		for _, w := range res.Warnings {
			s += fmt.Sprintf("  %s\n", w)
		}
	}
	return s
}
