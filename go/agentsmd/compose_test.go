package agentsmd_test

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"sync"
	"testing"
	"testing/fstest"

	"github.com/agentsmd/agentsmd/go/agentsmd"
)

// tree writes files (name relative to dir, "/"-separated, to text; a name
// ending in "/" is a directory) under a new temporary directory, and returns
// it.
func tree(t *testing.T, files map[string]string) string {
	t.Helper()
	dir := tempDir(t)
	for name, text := range files {
		full := filepath.Join(dir, filepath.FromSlash(name))
		if strings.HasSuffix(name, "/") {
			if err := os.MkdirAll(full, 0o755); err != nil {
				t.Fatal(err)
			}
			continue
		}
		if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(full, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

// in is dir joined with the "/"-separated rel.
func in(dir, rel string) string { return filepath.Join(dir, filepath.FromSlash(rel)) }

func TestFragmentsFollowEachDirectorysFile(t *testing.T) {
	dir := tree(t, map[string]string{
		"AGENTS.md":                        "root\n",
		"extra.md":                         "extra\n",
		".agents/AGENTS.d/b.md":            "b\n",
		".agents/AGENTS.d/a.md":            "a\n",
		".agents/AGENTS.d/.hidden.md":      "hidden\n",
		".agents/AGENTS.d/notes.txt":       "notes\n",
		".agents/AGENTS.d/dir.md/":         "",
		"x/.agents/AGENTS.d/c.md":          "c\n",
		"x/.agents/AGENTS.d/sub/deeper.md": "deeper\n",
	})
	res := mustChain(t, in(dir, "x/file.c"), agentsmd.Options{
		Root:      dir,
		Extra:     []string{in(dir, "extra.md")},
		Fragments: []string{".agents/AGENTS.d"},
	})
	checkResult(t, res, agentsmd.Result{Files: []agentsmd.File{
		{Path: in(dir, "extra.md"), Content: "extra\n", Source: agentsmd.SourceExtra},
		{Path: in(dir, "AGENTS.md"), Content: "root\n", Source: agentsmd.SourceChain},
		{Path: in(dir, ".agents/AGENTS.d/a.md"), Content: "a\n", Source: agentsmd.SourceFragment},
		{Path: in(dir, ".agents/AGENTS.d/b.md"), Content: "b\n", Source: agentsmd.SourceFragment},
		{Path: in(dir, "x/.agents/AGENTS.d/c.md"), Content: "c\n", Source: agentsmd.SourceFragment},
	}})
	// Each fragment directory must be valid as names are.
	for _, bad := range []string{"", "a//b", "../x", "/abs", "a/"} {
		_, err := agentsmd.Chain(dir, agentsmd.Options{Root: dir, Fragments: []string{bad}})
		if err == nil || !strings.Contains(err.Error(), "fragment directory") {
			t.Errorf("Fragments %q: error %v, want one about the fragment directory", bad, err)
		}
	}
}

func TestFragmentsAreNamesInTheFS(t *testing.T) {
	fsys := fstest.MapFS{
		"AGENTS.md":          file("root\n"),
		"AGENTS.d/z.md":      file("z\n"),
		"a/AGENTS.d/y.md":    file("y\n"),
		"a/AGENTS.d/y.md.gz": file("no\n"),
	}
	res := mustChain(t, "a/b.go", agentsmd.Options{FS: fsys, Fragments: []string{"AGENTS.d"}})
	checkResult(t, res, agentsmd.Result{Files: []agentsmd.File{
		{Path: "AGENTS.md", Content: "root\n"},
		{Path: "AGENTS.d/z.md", Content: "z\n", Source: agentsmd.SourceFragment},
		{Path: "a/AGENTS.d/y.md", Content: "y\n", Source: agentsmd.SourceFragment},
	}})
}

func TestOverlayDir(t *testing.T) {
	// The elements are joined, and the whole written, with the OS's separator
	// (SPEC.md §8.2); a users directory's own final separator stands.
	for _, tc := range []struct{ users, identity, want string }{
		{"/srv/users/", "ada.b", filepath.FromSlash("/srv/users/ada.b/.agents")},
		{"/srv/users", "ada", filepath.FromSlash("/srv/users/ada/.agents")},
		{"", "ada", ""},
		{"/srv/users", "", ""},
	} {
		got, err := agentsmd.OverlayDir(tc.users, tc.identity)
		if err != nil || got != tc.want {
			t.Errorf("OverlayDir(%q, %q) = %q, %v; want %q, nil", tc.users, tc.identity, got, err, tc.want)
		}
	}
	for _, identity := range []string{".", "a/b", `a\b`, "..", "a..b", "../etc", "a\x00b"} {
		got, err := agentsmd.OverlayDir("/srv/users", identity)
		if got != "" || !errors.Is(err, agentsmd.ErrInvalidCallerIdentity) || !strings.Contains(err.Error(), "caller identity") {
			t.Errorf("OverlayDir(%q) = %q, %v; want ErrInvalidCallerIdentity", identity, got, err)
		}
	}
	// A users directory holding a NUL byte is an error, and no identity's.
	if _, err := agentsmd.OverlayDir("/u\x00v", "ada"); err == nil || errors.Is(err, agentsmd.ErrInvalidCallerIdentity) {
		t.Errorf("OverlayDir with a NUL in usersDir: %v, want an error of another kind", err)
	}
}

func TestOverlaysComeLastWithTheirFragments(t *testing.T) {
	dir := tree(t, map[string]string{
		"repo/AGENTS.md":                  "repo\n",
		"users/ada/.agents/AGENTS.md":     "ada\n",
		"users/ada/.agents/README.md":     "shadowed\n",
		"users/ada/.agents/AGENTS.d/z.md": "z\n",
	})
	overlay, err := agentsmd.OverlayDir(in(dir, "users"), "ada")
	if err != nil {
		t.Fatal(err)
	}
	opts := agentsmd.Options{
		Root:      in(dir, "repo"),
		Names:     []string{"AGENTS.md", "README.md"},
		Fragments: []string{"AGENTS.d"},
		Overlays:  []string{overlay, in(dir, "missing")},
	}
	res := mustChain(t, in(dir, "repo/x"), opts)
	checkResult(t, res, agentsmd.Result{
		Files: []agentsmd.File{
			{Path: in(dir, "repo/AGENTS.md"), Content: "repo\n"},
			{Path: in(dir, "users/ada/.agents/AGENTS.md"), Content: "ada\n", Source: agentsmd.SourceOverlay},
			{Path: in(dir, "users/ada/.agents/AGENTS.d/z.md"), Content: "z\n", Source: agentsmd.SourceOverlay},
		},
		Omitted: []agentsmd.Omitted{{
			Path: in(dir, "users/ada/.agents/README.md"), Size: 9, Reason: agentsmd.Shadowed,
			By: in(dir, "users/ada/.agents/AGENTS.md"),
		}},
	})
	// Overlays are OS directories even with an FS.
	res = mustChain(t, ".", agentsmd.Options{FS: fstest.MapFS{"AGENTS.md": file("fs\n")}, Overlays: []string{overlay}})
	checkResult(t, res, agentsmd.Result{Files: []agentsmd.File{
		{Path: "AGENTS.md", Content: "fs\n"},
		{Path: in(dir, "users/ada/.agents/AGENTS.md"), Content: "ada\n", Source: agentsmd.SourceOverlay},
	}})
	// One that is not a directory is an error.
	opts.Overlays = []string{in(dir, "repo/AGENTS.md")}
	if _, err := agentsmd.Chain(in(dir, "repo/x"), opts); err == nil || !strings.Contains(err.Error(), "not a directory") {
		t.Errorf("an overlay that is a file: %v, want an error", err)
	}
}

func TestImportsExpandWithProvenance(t *testing.T) {
	dir := tree(t, map[string]string{
		"AGENTS.md": "top\n@include style.md\n```\n@fenced.md\n```\n@docs/rules.md\n" +
			"<!-- @x.md -->\nmail @alice or see @docs/rules.md\n@sub/AGENTS.md\nend\n",
		"style.md":      "style\n",
		"docs/rules.md": "rules\n@../style.md\n",
		"sub/AGENTS.md": "sub",
	})
	// Off, directives are text.
	res := mustChain(t, in(dir, "sub/x"), agentsmd.Options{Root: dir})
	if len(res.Files) != 2 || res.Imports != nil {
		t.Fatalf("without Imports: %+v", res)
	}
	res = mustChain(t, in(dir, "sub/x"), agentsmd.Options{Root: dir, Imports: true})
	checkResult(t, res, agentsmd.Result{
		Files: []agentsmd.File{{
			Path:    in(dir, "AGENTS.md"),
			Content: "top\nstyle\n```\n@fenced.md\n```\nrules\n<!-- @x.md -->\nmail @alice or see @docs/rules.md\nsub\nend\n",
		}},
		// A top-level file already imported is not read again.
		Omitted: []agentsmd.Omitted{{Path: in(dir, "sub/AGENTS.md"), Size: 3, Reason: agentsmd.Duplicate, By: in(dir, "AGENTS.md")}},
		Imports: []agentsmd.Import{
			{Path: in(dir, "style.md"), By: in(dir, "AGENTS.md"), Line: 2, Depth: 1, Size: 6},
			{Path: in(dir, "docs/rules.md"), By: in(dir, "AGENTS.md"), Line: 6, Depth: 1, Size: 19},
			{Path: in(dir, "style.md"), By: in(dir, "docs/rules.md"), Line: 2, Depth: 2, Duplicate: true},
			{Path: in(dir, "sub/AGENTS.md"), By: in(dir, "AGENTS.md"), Line: 9, Depth: 1, Size: 3},
		},
	})
	// Through an FS, targets are FS names.
	fsys := fstest.MapFS{"AGENTS.md": file("@a/b.md\n"), "a/b.md": file("b\n")}
	res = mustChain(t, ".", agentsmd.Options{FS: fsys, Imports: true})
	checkResult(t, res, agentsmd.Result{
		Files:   []agentsmd.File{{Path: "AGENTS.md", Content: "b\n"}},
		Imports: []agentsmd.Import{{Path: "a/b.md", By: "AGENTS.md", Line: 1, Depth: 1, Size: 2}},
	})
}

// Every import error of SPEC.md §5.4, each matched by errors.Is and starting
// "PATH:LINE: " for the directive that failed.
func TestImportErrors(t *testing.T) {
	dir := tree(t, map[string]string{
		"outside.md":         "outside the scope\n",
		"notfile/adir/":      "",
		"cycle/a.md":         "a\n@b.md\n",
		"cycle/b.md":         "@a.md\n",
		"depth/a.md":         "@b.md\n",
		"depth/b.md":         "b\n",
		"count/a.md":         "a\n",
		"count/b.md":         "b\n",
		"large/big.md":       "0123456789abcdef\n",
		"out/secret/s.md":    "secret\n",
		"out/repo/AGENTS.md": "@link.md\n",
	})
	linked := symlink(t, "../secret/s.md", in(dir, "out/repo/link.md"))
	for _, tc := range []struct {
		name, text string
		opts       agentsmd.Options
		kind       error
		in         string // the file holding the failing directive
		line       int
		why        string
	}{
		{"invalid", "x\n@include /etc/passwd\n", agentsmd.Options{}, agentsmd.ErrImport, "AGENTS.md", 2, "invalid path"},
		{"tilde", "@~/notes.md\n", agentsmd.Options{}, agentsmd.ErrImport, "AGENTS.md", 1, "invalid path"},
		{"colon", "@include c:rules.md\n", agentsmd.Options{}, agentsmd.ErrImport, "AGENTS.md", 1, "invalid path"},
		{"outside", "@../outside.md\n", agentsmd.Options{}, agentsmd.ErrImport, "AGENTS.md", 1, "outside the import scope"},
		{"missing", "@nope.md\n", agentsmd.Options{}, agentsmd.ErrImport, "AGENTS.md", 1, "not found"},
		{"notfile", "@include adir\n", agentsmd.Options{}, agentsmd.ErrImport, "AGENTS.md", 1, "not a regular file"},
		{"cycle", "@a.md\n", agentsmd.Options{}, agentsmd.ErrImport, "b.md", 1, "an import cycle"},
		{"depth", "@a.md\n", agentsmd.Options{ImportDepth: 1}, agentsmd.ErrImport, "a.md", 1, "deeper than the import depth of 1"},
		{"count", "@a.md\n@b.md\n", agentsmd.Options{MaxImports: 1}, agentsmd.ErrImport, "AGENTS.md", 2, "more than 1 imports"},
		{"large", "@big.md\n", agentsmd.Options{MaxBytes: 10}, agentsmd.ErrTooLarge, "AGENTS.md", 1, "big.md"},
		{"out/repo", "", agentsmd.Options{Confine: true}, agentsmd.ErrImport, "AGENTS.md", 1, "leads out of root"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if tc.name == "out/repo" && !linked {
				t.Skip("no symbolic link to lead out of root")
			}
			root := in(dir, tc.name)
			if tc.text != "" {
				if err := os.MkdirAll(root, 0o755); err != nil {
					t.Fatal(err)
				}
				if err := os.WriteFile(in(root, "AGENTS.md"), []byte(tc.text), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			opts := tc.opts
			opts.Root, opts.Imports = root, true
			_, err := agentsmd.Chain(in(root, "AGENTS.md"), opts)
			if !errors.Is(err, tc.kind) {
				t.Fatalf("error %v, want one matching %v", err, tc.kind)
			}
			other := agentsmd.ErrTooLarge
			if tc.kind == agentsmd.ErrTooLarge {
				other = agentsmd.ErrImport
			}
			if errors.Is(err, other) {
				t.Errorf("error %v also matches %v", err, other)
			}
			prefix := fmt.Sprintf("agentsmd: %s:%d: ", in(root, tc.in), tc.line)
			if msg := err.Error(); !strings.HasPrefix(msg, prefix) || !strings.Contains(msg, tc.why) {
				t.Errorf("error %q, want it to start %q and contain %q", msg, prefix, tc.why)
			}
			// The same place apart: the file holding the directive, and its line.
			var e *agentsmd.Error
			if !errors.As(err, &e) || e.Path != in(root, tc.in) || e.Line != tc.line {
				t.Errorf("error %#v, want Path %q and Line %d", e, in(root, tc.in), tc.line)
			}
		})
	}
	// The bounds on imports are checked.
	for _, opts := range []agentsmd.Options{{ImportDepth: -1}, {MaxImports: -1}, {MaxImports: 1 << 40}} {
		if _, err := agentsmd.Chain(dir, opts); !errors.Is(err, agentsmd.ErrInvalidArgument) {
			t.Errorf("%+v: error %v, want one matching ErrInvalidArgument", opts, err)
		}
	}
}

var errNoThanks = errors.New("no thanks")

func TestTransformRunsOnEachFileRead(t *testing.T) {
	dir := tree(t, map[string]string{
		"AGENTS.md":   "root @x.md\n",
		"a/AGENTS.md": "@inc.md\n",
		"a/inc.md":    "included\n",
	})
	var mu sync.Mutex
	var seen []string
	opts := agentsmd.Options{Root: dir, Imports: true, Transform: func(path, content string) (string, error) {
		mu.Lock()
		seen = append(seen, path)
		mu.Unlock()
		// What it returns is never scanned for directives.
		return "T:" + content + "@inc.md\n", nil
	}}
	res := mustChain(t, in(dir, "a"), opts)
	checkResult(t, res, agentsmd.Result{
		Files: []agentsmd.File{
			{Path: in(dir, "AGENTS.md"), Content: "T:root @x.md\n@inc.md\n"},
			{Path: in(dir, "a/AGENTS.md"), Content: "T:included\n@inc.md\n"},
		},
		Imports: []agentsmd.Import{{Path: in(dir, "a/inc.md"), By: in(dir, "a/AGENTS.md"), Line: 1, Depth: 1, Size: 9}},
	})
	if want := []string{in(dir, "AGENTS.md"), in(dir, "a/AGENTS.md")}; !reflect.DeepEqual(seen, want) {
		t.Errorf("transformed %q, want %q", seen, want)
	}
	// The bounds count what it returns.
	opts.MaxBytes = 20
	if _, err := agentsmd.Chain(in(dir, "a"), opts); !errors.Is(err, agentsmd.ErrTooLarge) {
		t.Errorf("a transform over MaxBytes: %v, want ErrTooLarge", err)
	}
	// Transform and Env are one option.
	opts.MaxBytes, opts.Env = 0, map[string]string{"A": "b"}
	if _, err := agentsmd.Chain(in(dir, "a"), opts); err == nil {
		t.Error("Transform and Env both set: no error")
	}
}

func TestTransformErrorIsTheChainsError(t *testing.T) {
	dir := tree(t, map[string]string{"AGENTS.md": "root\n"})
	long := strings.Repeat("é", 50000) // a message of any length is carried whole
	for _, want := range []error{errNoThanks, fmt.Errorf("wrapped: %w", errNoThanks), errors.New(long)} {
		_, err := agentsmd.Chain(dir, agentsmd.Options{Root: dir, Transform: func(string, string) (string, error) {
			return "", want
		}})
		if !errors.Is(err, want) {
			t.Fatalf("error %v, want it to wrap %v", err, want)
		}
		if msg := err.Error(); !strings.Contains(msg, want.Error()) || !strings.Contains(msg, in(dir, "AGENTS.md")) {
			t.Errorf("error %q, want the file and the transform's message", msg)
		}
		if errors.Is(err, agentsmd.ErrImport) || errors.Is(err, agentsmd.ErrTooLarge) {
			t.Errorf("error %v matches another kind", err)
		}
	}
	// With an FS too, the transform's error is the one wrapped.
	fsys := &faultFS{MapFS: fstest.MapFS{"AGENTS.md": file("x\n")}}
	_, err := agentsmd.Chain(".", agentsmd.Options{FS: fsys, Transform: func(string, string) (string, error) {
		return "", errNoThanks
	}})
	if !errors.Is(err, errNoThanks) {
		t.Errorf("with an FS: %v, want errNoThanks", err)
	}
}

func TestTransformPanicIsRaisedAgain(t *testing.T) {
	dir := tree(t, map[string]string{"AGENTS.md": "root\n", "a/AGENTS.md": "a\n"})
	calls := 0
	defer func() {
		r := recover()
		if r != "transform boom" {
			t.Errorf("Chain panicked with %v, want the transform's panic", r)
		}
		if calls != 1 {
			t.Errorf("the transform ran %d times, want 1: the chain ends at its panic", calls)
		}
	}()
	agentsmd.Chain(in(dir, "a"), agentsmd.Options{Root: dir, Transform: func(string, string) (string, error) {
		calls++
		panic("transform boom")
	}})
	t.Error("Chain returned")
}

// One Transform on many goroutines at once, with -race.
func TestTransformOnManyGoroutines(t *testing.T) {
	dir := tree(t, map[string]string{"AGENTS.md": "root\n", "a/AGENTS.md": "a\n"})
	var mu sync.Mutex
	calls := 0
	opts := agentsmd.Options{Root: dir, Transform: func(path, content string) (string, error) {
		mu.Lock()
		calls++
		mu.Unlock()
		if strings.HasSuffix(content, "fail\n") {
			return "", errNoThanks
		}
		return strings.ToUpper(content), nil
	}}
	const goroutines, rounds = 16, 20
	var wg sync.WaitGroup
	errs := make(chan error, goroutines*rounds)
	for g := 0; g < goroutines; g++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := 0; i < rounds; i++ {
				res, err := agentsmd.Chain(in(dir, "a"), opts)
				if err != nil || len(res.Files) != 2 || res.Files[0].Content != "ROOT\n" || res.Files[1].Content != "A\n" {
					errs <- fmt.Errorf("got %+v, %v", res, err)
				}
			}
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
	if calls != goroutines*rounds*2 {
		t.Errorf("%d calls, want %d", calls, goroutines*rounds*2)
	}
}

func TestEnvInterpolatesOnlyTheMap(t *testing.T) {
	dir := tree(t, map[string]string{"AGENTS.md": "${env:WHO} ${env:HOME} ${WHO} ${env:NOPE} ${env:_X9}\n"})
	t.Setenv("HOME", "/home/from-the-environment")
	res := mustChain(t, dir, agentsmd.Options{Root: dir, Env: map[string]string{"WHO": "ada", "_X9": "v"}})
	checkResult(t, res, agentsmd.Result{Files: []agentsmd.File{
		{Path: in(dir, "AGENTS.md"), Content: "ada ${env:HOME} ${WHO} ${env:NOPE} v\n"},
	}})
	for _, bad := range []string{"", "1A", "A-B", "A B", "é"} {
		_, err := agentsmd.Chain(dir, agentsmd.Options{Root: dir, Env: map[string]string{bad: "x"}})
		if err == nil || !strings.Contains(err.Error(), "interpolator name") {
			t.Errorf("Env name %q: %v, want an error", bad, err)
		}
	}
}

func TestNearestSupersedesTheOthers(t *testing.T) {
	dir := tree(t, map[string]string{
		"AGENTS.md": "r\n", "a/AGENTS.md": "aa\n", "a/b/AGENTS.md": "b\n", "extra.md": "e\n",
	})
	res := mustChain(t, in(dir, "a/b/x"), agentsmd.Options{Root: dir, Nearest: true, Extra: []string{in(dir, "extra.md")}})
	checkResult(t, res, agentsmd.Result{
		Files: []agentsmd.File{
			{Path: in(dir, "extra.md"), Content: "e\n", Source: agentsmd.SourceExtra},
			{Path: in(dir, "a/b/AGENTS.md"), Content: "b\n"},
		},
		Omitted: []agentsmd.Omitted{
			{Path: in(dir, "AGENTS.md"), Size: 2, Reason: agentsmd.Superseded, By: in(dir, "a/b/AGENTS.md")},
			{Path: in(dir, "a/AGENTS.md"), Size: 3, Reason: agentsmd.Superseded, By: in(dir, "a/b/AGENTS.md")},
		},
	})
}

func TestReportListsEveryPlaceLookedAt(t *testing.T) {
	dir := tree(t, map[string]string{"AGENTS.md": "r\n@inc.md\n", "inc.md": "i\n", "a/AGENTS.d/f.md": "f\n"})
	opts := agentsmd.Options{Root: dir, Fragments: []string{"AGENTS.d"}, Imports: true}
	if res := mustChain(t, in(dir, "a/x"), opts); res.Probes != nil {
		t.Errorf("without Report: probes %+v", res.Probes)
	}
	opts.Report = true
	res := mustChain(t, in(dir, "a/x"), opts)
	want := []agentsmd.Probe{
		{Path: in(dir, "AGENTS.md"), Source: agentsmd.SourceChain, Outcome: agentsmd.OutcomeIncluded},
		{Path: in(dir, "inc.md"), Source: agentsmd.SourceChain, Outcome: agentsmd.OutcomeImported},
		{Path: in(dir, "AGENTS.d"), Source: agentsmd.SourceFragment, Outcome: agentsmd.OutcomeNotFound},
		{Path: in(dir, "a/AGENTS.md"), Source: agentsmd.SourceChain, Outcome: agentsmd.OutcomeNotFound},
		{Path: in(dir, "a/AGENTS.d"), Source: agentsmd.SourceFragment, Outcome: agentsmd.OutcomeListed},
		{Path: in(dir, "a/AGENTS.d/f.md"), Source: agentsmd.SourceFragment, Outcome: agentsmd.OutcomeIncluded},
	}
	if !reflect.DeepEqual(res.Probes, want) {
		t.Errorf("probes\n%+v\nwant\n%+v", res.Probes, want)
	}
}

func TestWordsOfSourcesOutcomesAndReasons(t *testing.T) {
	words := map[fmt.Stringer]string{
		agentsmd.SourceExtra: "extra", agentsmd.SourceChain: "chain",
		agentsmd.SourceFragment: "fragment", agentsmd.SourceOverlay: "overlay",
		agentsmd.OutcomeIncluded: "included", agentsmd.OutcomeShadowed: "shadowed",
		agentsmd.OutcomeOverBudget: "over_budget", agentsmd.OutcomeSuperseded: "superseded",
		agentsmd.OutcomeDuplicate: "duplicate", agentsmd.OutcomeEscapes: "escapes",
		agentsmd.OutcomeNotFound: "not_found", agentsmd.OutcomeNotAFile: "not_a_file",
		agentsmd.OutcomeListed: "listed", agentsmd.OutcomeImported: "imported",
		agentsmd.Duplicate: "duplicate", agentsmd.Superseded: "superseded",
		agentsmd.Source(99): "Source(99)", agentsmd.Outcome(99): "Outcome(99)",
	}
	for v, want := range words {
		if got := v.String(); got != want {
			t.Errorf("%#v.String() = %q, want %q", v, got, want)
		}
	}
}
