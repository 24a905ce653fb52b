package remote_test

import (
	"fmt"
	"io/fs"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/agentsmd/agentsmd/go/agentsmd"
	"github.com/agentsmd/agentsmd/go/agentsmd/examples/remote"
)

// server serves dir on 127.0.0.1 at an ephemeral port, each request delayed
// by latency, and counts the requests.
type server struct {
	*httptest.Server
	requests atomic.Int64
}

func serve(t testing.TB, dir string, latency time.Duration) *server {
	s := &server{}
	handler := remote.NewServer(os.DirFS(dir))
	s.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		s.requests.Add(1)
		time.Sleep(latency)
		handler.ServeHTTP(w, r)
	}))
	t.Cleanup(s.Close)
	return s
}

// oneAtATime is a Client without its batched calls: a chain over it asks
// one question per request.
type oneAtATime struct{ client *remote.Client }

func (o oneAtATime) Open(name string) (fs.File, error)          { return o.client.Open(name) }
func (o oneAtATime) ReadDir(name string) ([]fs.DirEntry, error) { return o.client.ReadDir(name) }
func (o oneAtATime) Stat(name string) (fs.FileInfo, error)      { return o.client.Stat(name) }

// deepTree writes a root and 32 directories below it into a new directory,
// each with an AGENTS.md and, in three of them, fragments; each AGENTS.md
// imports docs/style.md beside it, which imports ../shared.md. It returns
// the root and the deepest directory, relative to it.
func deepTree(t testing.TB) (string, string) {
	root := t.TempDir()
	write := func(name, text string) {
		path := filepath.Join(root, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	dir := "."
	for depth := 0; depth <= 32; depth++ {
		if depth > 0 {
			dir = filepath.ToSlash(filepath.Join(dir, fmt.Sprintf("d%d", depth)))
		}
		write(dir+"/AGENTS.md", fmt.Sprintf("Level %d.\n@docs/style.md\n", depth))
		write(dir+"/docs/style.md", fmt.Sprintf("Style of level %d.\n@../shared.md\n", depth))
		write(dir+"/shared.md", fmt.Sprintf("Shared at level %d.\n", depth))
		if depth%16 == 0 {
			write(dir+"/AGENTS.d/b.md", "Fragment b.\n")
			write(dir+"/AGENTS.d/a.md", "Fragment a.\n")
		}
	}
	write(dir+"/main.go", "package main\n")
	return root, dir
}

// relative is files with their paths relative to root, rendered.
func relative(files []agentsmd.File, root string) string {
	for i := range files {
		if rel, err := filepath.Rel(root, files[i].Path); err == nil {
			files[i].Path = filepath.ToSlash(rel)
		}
	}
	return agentsmd.Render(files)
}

func TestAChainOverTheServerCostsTwoRequestsAndOneMorePerLevelOfImports(t *testing.T) {
	root, deepest := deepTree(t)
	cases := []struct {
		name     string
		opts     agentsmd.Options
		requests int64
	}{
		{"walk", agentsmd.Options{}, 2},
		{"fragments", agentsmd.Options{Fragments: []string{"AGENTS.d"}}, 2},
		{"imports", agentsmd.Options{Imports: true, MaxImports: 200}, 2 + 2},
	}
	for _, tc := range cases {
		for _, at := range []string{deepest, deepest + "/main.go"} {
			s := serve(t, root, 0)
			opts := tc.opts
			opts.FS = &remote.Client{URL: s.URL}
			got, err := agentsmd.Chain(at, opts)
			if err != nil {
				t.Fatalf("%s: Chain(%q) over the server: %v", tc.name, at, err)
			}
			if n := s.requests.Load(); n != tc.requests {
				t.Errorf("%s: Chain(%q) made %d requests, want %d", tc.name, at, n, tc.requests)
			}
			opts.FS, opts.Root = nil, root
			want, err := agentsmd.Chain(filepath.Join(root, filepath.FromSlash(at)), opts)
			if err != nil {
				t.Fatalf("%s: Chain(%q) on the OS: %v", tc.name, at, err)
			}
			if len(got.Files) < 33 || agentsmd.Render(got.Files) != relative(want.Files, root) {
				t.Errorf("%s: Chain(%q) over the server differs from the OS's:\n%s\nwant\n%s",
					tc.name, at, agentsmd.Render(got.Files), relative(want.Files, root))
			}
		}
	}
}

func TestOneQuestionAtATimeGivesTheSameBytesInManyRequests(t *testing.T) {
	root, deepest := deepTree(t)
	batched, single := serve(t, root, 0), serve(t, root, 0)
	opts := agentsmd.Options{Imports: true, Fragments: []string{"AGENTS.d"}, MaxImports: 200}
	opts.FS = &remote.Client{URL: batched.URL}
	got, err := agentsmd.Chain(deepest, opts)
	if err != nil {
		t.Fatal(err)
	}
	opts.FS = oneAtATime{&remote.Client{URL: single.URL}}
	want, err := agentsmd.Chain(deepest, opts)
	if err != nil {
		t.Fatal(err)
	}
	if agentsmd.Render(got.Files) != agentsmd.Render(want.Files) {
		t.Errorf("batched and one at a time differ")
	}
	if batched.requests.Load() != 4 || single.requests.Load() < 100 {
		t.Errorf("%d requests batched, %d one at a time; want 4 and over 100",
			batched.requests.Load(), single.requests.Load())
	}
}

func TestTheServerRefusesNamesAboveItsDirectory(t *testing.T) {
	root, _ := deepTree(t)
	s := serve(t, root, 0)
	client := &remote.Client{URL: s.URL}
	if _, err := client.ReadDirs([]string{"../etc"}); err == nil || !strings.Contains(err.Error(), "400") {
		t.Errorf("ReadDirs(../etc) = %v, want a 400", err)
	}
	if _, err := agentsmd.Chain(".", agentsmd.Options{FS: &remote.Client{URL: s.URL + "/nowhere"}}); err == nil {
		t.Error("a chain over a server that answers 404 succeeded")
	}
}

// BenchmarkChain32Deep is the example's 32-deep chain over a server that
// adds 20 ms to every request: batched, and one question at a time.
func BenchmarkChain32Deep(b *testing.B) {
	benchmarkOverLatency(b, agentsmd.Options{})
}

// BenchmarkChain32DeepComposed is the same chain with fragments and two
// levels of imports.
func BenchmarkChain32DeepComposed(b *testing.B) {
	benchmarkOverLatency(b, agentsmd.Options{Imports: true, Fragments: []string{"AGENTS.d"}, MaxImports: 200})
}

func benchmarkOverLatency(b *testing.B, opts agentsmd.Options) {
	root, deepest := deepTree(b)
	for _, run := range []struct {
		name string
		fs   func(url string) fs.FS
	}{
		{"batched", func(url string) fs.FS { return &remote.Client{URL: url} }},
		{"one-at-a-time", func(url string) fs.FS { return oneAtATime{&remote.Client{URL: url}} }},
	} {
		b.Run(run.name, func(b *testing.B) {
			s := serve(b, root, 20*time.Millisecond)
			opts := opts
			for i := 0; i < b.N; i++ {
				opts.FS = run.fs(s.URL)
				if _, err := agentsmd.Chain(deepest, opts); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(s.requests.Load())/float64(b.N), "requests/op")
		})
	}
}
