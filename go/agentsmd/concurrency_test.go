package agentsmd_test

import (
	"os"
	"path/filepath"
	"reflect"
	"runtime"
	"sync"
	"testing"

	"github.com/agentsmd/agentsmd/go/agentsmd"
)

// Many goroutines chain at once through one file system, each through its
// own handle to it, while others render. Run with -race, this checks that
// the handles, the open-file table and the error each chain keeps are never
// shared between chains.
func TestConcurrentChainsShareOneFS(t *testing.T) {
	const goroutines, rounds = 32, 20
	shared := &faultFS{MapFS: workspace(), faults: map[string]error{"open a/b/c/AGENTS.md": errBoom}}
	dirFS := os.DirFS(filepath.Join(testdata, "tree"))
	override := []string{"AGENTS.override.md", "AGENTS.md"}
	dirPath := `a/b/c&"d"/new.txt`
	if runtime.GOOS == "windows" {
		dirPath = "a/b/new.txt" // testdata/tree's c&"d" is a name Windows cannot hold
	}
	type call struct {
		path string
		opts agentsmd.Options
	}
	calls := []call{
		{"a/b", agentsmd.Options{FS: shared, Names: workspaceNames}},
		{"a/b", agentsmd.Options{FS: shared, Names: workspaceNames, Budget: 20}},
		{"a/b/c", agentsmd.Options{FS: shared, Names: workspaceNames}}, // fails
		{dirPath, agentsmd.Options{FS: dirFS, Names: override}},
	}
	type outcome struct {
		res       agentsmd.Result
		rendering string
		err       string
	}
	do := func(c call) outcome {
		res, err := agentsmd.Chain(c.path, c.opts)
		o := outcome{res: res, rendering: agentsmd.Render(res.Files)}
		if err != nil {
			o.err = err.Error()
		}
		return o
	}
	want := make([]outcome, len(calls))
	for i, c := range calls {
		want[i] = do(c)
	}
	if want[2].err == "" {
		t.Fatal("the failing call did not fail")
	}

	var wg sync.WaitGroup
	errs := make(chan string, goroutines*rounds)
	for g := 0; g < goroutines; g++ {
		wg.Add(1)
		go func(g int) {
			defer wg.Done()
			for r := 0; r < rounds; r++ {
				i := (g + r) % len(calls)
				if got := do(calls[i]); !reflect.DeepEqual(got, want[i]) {
					errs <- describe(got.res) + got.err
				}
			}
		}(g)
	}
	wg.Wait()
	close(errs)
	for e := range errs {
		t.Errorf("a concurrent chain differs from the same chain alone:\n%s", e)
	}
}
