package agentsmd_test

import (
	"context"
	"errors"
	"sort"
	"sync"
	"testing"
	"testing/fstest"

	"github.com/agentsmd/agentsmd/go/agentsmd"
)

func contents(res agentsmd.Result) []string {
	out := []string{}
	for _, f := range res.Files {
		out = append(out, f.Content)
	}
	return out
}

func mustTouch(t *testing.T, s *agentsmd.Session, path string) agentsmd.Result {
	t.Helper()
	res, err := s.Touch(path)
	if err != nil {
		t.Fatalf("Touch(%q): %v", path, err)
	}
	return res
}

// SPEC.md §10: the first touch is the chain; a later one gives only what
// the session has not given; a path outside the root gives nothing.
func TestSection10SessionGivesEachFileOnce(t *testing.T) {
	dir := tree(t, map[string]string{
		"AGENTS.md": "root\n", "a/AGENTS.md": "a\n", "a/b/AGENTS.md": "b\n", "c/AGENTS.md": "c\n",
	})
	opts := agentsmd.Options{Root: dir}
	s, err := agentsmd.NewSession(opts)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	first := mustTouch(t, s, in(dir, "a/x.go"))
	checkResult(t, first, mustChain(t, in(dir, "a/x.go"), opts))
	if got := contents(mustTouch(t, s, in(dir, "a/b/y.go"))); !equal(got, []string{"b\n"}) {
		t.Errorf("second touch gave %q", got)
	}
	if got := contents(mustTouch(t, s, in(dir, "a/b"))); len(got) != 0 {
		t.Errorf("a touch of what was given gave %q", got)
	}
	if got := contents(mustTouch(t, s, tempDir(t))); len(got) != 0 {
		t.Errorf("a touch outside the root gave %q", got)
	}
	if got := contents(mustTouch(t, s, in(dir, "c"))); !equal(got, []string{"c\n"}) {
		t.Errorf("c gave %q", got)
	}
	s.Close()
	if _, err := s.Touch(dir); !errors.Is(err, agentsmd.ErrInvalidArgument) {
		t.Errorf("Touch after Close: %v", err)
	}
}

func equal(a, b []string) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// SPEC.md §10: Nearest is refused; a touch stopped by its context is
// KindAborted and leaves the session as it was.
func TestSection10RefusalsAndCancellation(t *testing.T) {
	if _, err := agentsmd.NewSession(agentsmd.Options{Nearest: true}); !errors.Is(err, agentsmd.ErrInvalidArgument) {
		t.Errorf("Nearest: %v", err)
	}
	fsys := fstest.MapFS{"AGENTS.md": {Data: []byte("root\n")}, "a/AGENTS.md": {Data: []byte("a\n")}}
	s, err := agentsmd.NewSession(agentsmd.Options{FS: fsys})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := s.TouchContext(ctx, "a"); !errors.Is(err, agentsmd.ErrAborted) || !errors.Is(err, context.Canceled) {
		t.Errorf("a cancelled touch: %v", err)
	}
	if got := contents(mustTouch(t, s, "a")); !equal(got, []string{"root\n", "a\n"}) {
		t.Errorf("after a cancelled touch: %q", got)
	}
}

// SPEC.md §10: goroutines sharing a session are given each file once.
func TestSection10SessionSharedByGoroutines(t *testing.T) {
	files := map[string]string{"AGENTS.md": "root\n"}
	for _, d := range []string{"a", "b", "c", "d", "e", "f", "g", "h"} {
		files[d+"/AGENTS.md"] = d + "\n"
	}
	dir := tree(t, files)
	s, err := agentsmd.NewSession(agentsmd.Options{Root: dir})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	var mu sync.Mutex
	var given []string
	var wg sync.WaitGroup
	for i := 0; i < 8; i++ {
		wg.Add(1)
		go func(i int) {
			defer wg.Done()
			for _, d := range []string{"a", "b", "c", "d", "e", "f", "g", "h"} {
				res, err := s.Touch(in(dir, d+"/x"))
				if err != nil {
					t.Error(err)
					return
				}
				mu.Lock()
				given = append(given, contents(res)...)
				mu.Unlock()
			}
		}(i)
	}
	wg.Wait()
	sort.Strings(given)
	want := []string{"a\n", "b\n", "c\n", "d\n", "e\n", "f\n", "g\n", "h\n", "root\n"}
	if !equal(given, want) {
		t.Errorf("given %q, want each once: %q", given, want)
	}
}
