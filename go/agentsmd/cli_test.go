package agentsmd_test

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"runtime"
	"strconv"
	"strings"
	"testing"

	"github.com/agentsmd/agentsmd/go/agentsmd"
)

func TestGoldenRenderingThroughDirFS(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip(`testdata/tree holds c&"d", a name Windows cannot hold`)
	}
	res := mustChain(t, `a/b/c&"d"/new.txt`, agentsmd.Options{
		FS:    os.DirFS(filepath.Join(testdata, "tree")),
		Names: []string{"AGENTS.override.md", "AGENTS.md"},
	})
	golden, err := os.ReadFile(filepath.Join(testdata, "golden", "render.txt"))
	if err != nil {
		t.Fatal(err)
	}
	if got := agentsmd.Render(res.Files); got != string(golden) {
		t.Errorf("rendering differs from testdata/golden/render.txt:\n%s\nwant\n%s", got, golden)
	}
}

// cli is the agentsmd command line: $AGENTSMD_CLI, which the Rust test that
// runs these sets to the binary its `cargo test` built, or the release build
// of this checkout.
func cli(t *testing.T) string {
	if path := os.Getenv("AGENTSMD_CLI"); path != "" {
		return path
	}
	path, err := filepath.Abs("../../target/release/agentsmd")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(path); err != nil {
		t.Skipf("no agentsmd command line: set AGENTSMD_CLI or run `cargo build --release` (%v)", err)
	}
	return path
}

// cliJSON is the command line's --json object.
type cliJSON struct {
	PartID string `json:"part_id"`
	Files  []struct {
		Path    string `json:"path"`
		Content string `json:"content"`
		Source  string `json:"source"`
	} `json:"files"`
	Omitted []struct {
		Path   string `json:"path"`
		Size   int64  `json:"size"`
		Reason string `json:"reason"`
		By     string `json:"by"`
	} `json:"omitted"`
}

func TestSameBytesAsTheCommandLine(t *testing.T) {
	command := cli(t)
	tree := filepath.Join(testdata, "tree")
	leaf := filepath.Join(tree, "a", "b", `c&"d"`, "x")
	user := filepath.Join(testdata, "extra", "user.md")
	override := []string{"AGENTS.override.md", "AGENTS.md"}
	// outcome is what each case is for: kept whole, ended by a budget, or
	// failed; so that agreeing with the command line is never vacuous.
	const (
		whole = iota
		overBudget
		fails
	)
	for _, tc := range []struct {
		name    string
		path    string
		opts    agentsmd.Options
		outcome int
		// usage: the command line refuses the arguments as a usage error
		// (exit 2) where Chain fails.
		usage bool
	}{
		{"the whole chain", leaf, agentsmd.Options{Names: override, Root: tree, Extra: []string{user}}, whole, false},
		{"a budget that runs out", leaf, agentsmd.Options{Names: override, Root: tree, Extra: []string{user}, Budget: 64}, overBudget, false},
		{"a budget the extra spends", leaf, agentsmd.Options{Names: override, Root: tree, Extra: []string{user}, Budget: 1}, overBudget, false},
		{"a rendered budget that runs out", leaf, agentsmd.Options{Names: override, Root: tree, Extra: []string{user}, RenderedBudget: 200}, overBudget, false},
		{"default names", leaf, agentsmd.Options{Root: tree}, whole, false},
		{"a directory as the path", filepath.Join(tree, "a"), agentsmd.Options{Names: override, Root: tree}, whole, false},
		{"a missing extra", leaf, agentsmd.Options{Root: tree, Extra: []string{filepath.Join(testdata, "extra", "missing.md"), user}}, whole, false},
		{"too large", leaf, agentsmd.Options{Root: tree, MaxBytes: 12}, fails, false},
		{"outside root", tree, agentsmd.Options{Root: filepath.Join(tree, "a")}, fails, false},
		{"a bad name", leaf, agentsmd.Options{Root: tree, Names: []string{"a//AGENTS.md"}}, fails, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if runtime.GOOS == "windows" && tc.path == leaf && !tc.usage {
				t.Skip(`the leaf is below testdata/tree's c&"d", a name Windows cannot hold`)
			}
			args := []string{tc.path, "--root", tc.opts.Root}
			for _, name := range tc.opts.Names {
				args = append(args, "--name", name)
			}
			for _, extra := range tc.opts.Extra {
				args = append(args, "--extra", extra)
			}
			for flag, value := range map[string]int64{"--max-bytes": tc.opts.MaxBytes, "--budget": tc.opts.Budget, "--rendered-budget": tc.opts.RenderedBudget} {
				if value != 0 {
					args = append(args, flag, strconv.FormatInt(value, 10))
				}
			}
			res, err := agentsmd.Chain(tc.path, tc.opts)
			stdout, stderr, exitErr := run(command, args...)
			outcome := whole
			switch {
			case err != nil:
				outcome = fails
			case len(res.Omitted) > 0 && res.Omitted[len(res.Omitted)-1].Reason == agentsmd.OverBudget:
				outcome = overBudget
			}
			if outcome != tc.outcome {
				t.Fatalf("outcome %d, want %d: %v\n%s", outcome, tc.outcome, err, describe(res))
			}

			if err != nil {
				// The same error, in the command line's words.
				var exit *exec.ExitError
				message := strings.TrimPrefix(err.Error(), "agentsmd: ")
				want, code := "agentsmd: error: "+message+"\n", 1
				if tc.usage {
					want, code = "agentsmd: usage error: "+message+" (see agentsmd --help)\n", 2
				}
				if !errors.As(exitErr, &exit) || exit.ExitCode() != code || stderr != want {
					t.Fatalf("Go: %v\ncommand line (%v) said:\n%s", err, exitErr, stderr)
				}
				return
			}
			if exitErr != nil {
				t.Fatalf("Go returned\n%s\ncommand line failed (%v):\n%s", describe(res), exitErr, stderr)
			}
			if rendering := agentsmd.Render(res.Files); stdout != rendering {
				t.Errorf("Go renders\n%q\ncommand line prints\n%q", rendering, stdout)
			}
			if want := skippedLines(t, res, tc.opts.Extra) + omittedLines(res); stderr != want {
				t.Errorf("Go omits\n%s\ncommand line says\n%s", want, stderr)
			}

			stdout, stderr, exitErr = run(command, append(args, "--json")...)
			if exitErr != nil {
				t.Fatalf("--json failed (%v):\n%s", exitErr, stderr)
			}
			var object cliJSON
			if err := json.Unmarshal([]byte(stdout), &object); err != nil {
				t.Fatalf("--json printed %q: %v", stdout, err)
			}
			if got := fromJSON(t, object); !reflect.DeepEqual(got, res) {
				t.Errorf("Go returned\n%s\n--json printed\n%s", describe(res), describe(got))
			}
			if object.PartID != agentsmd.PartID {
				t.Errorf("part_id %q, PartID %q", object.PartID, agentsmd.PartID)
			}
		})
	}
}

// run runs the command line, returning what it printed and how it exited.
func run(command string, args ...string) (stdout, stderr string, err error) {
	var out, errOut bytes.Buffer
	cmd := exec.Command(command, args...)
	cmd.Stdout, cmd.Stderr = &out, &errOut
	err = cmd.Run()
	return out.String(), errOut.String(), err
}

// skippedLines is what the command line writes to stderr for the extra
// files that do not exist: those neither kept nor omitted in res.
func skippedLines(t *testing.T, res agentsmd.Result, extra []string) string {
	var s strings.Builder
	for _, path := range extra {
		path, err := filepath.Abs(path)
		if err != nil {
			t.Fatal(err)
		}
		met := false
		for _, f := range res.Files {
			met = met || f.Path == path
		}
		for _, o := range res.Omitted {
			met = met || o.Path == path
		}
		if !met {
			fmt.Fprintf(&s, "agentsmd: skipped %s: not found\n", path)
		}
	}
	return s.String()
}

// omittedLines is what the command line writes to stderr for res, after
// the skipped extra files.
func omittedLines(res agentsmd.Result) string {
	var s strings.Builder
	for _, o := range res.Omitted {
		switch o.Reason {
		case agentsmd.Shadowed:
			fmt.Fprintf(&s, "agentsmd: omitted %s (%d bytes): shadowed by %s\n", o.Path, o.Size, o.By)
		default:
			fmt.Fprintf(&s, "agentsmd: omitted %s (%d bytes): %s\n", o.Path, o.Size, o.Reason)
		}
	}
	return s.String()
}

// fromJSON is the Result the command line's --json object describes.
func fromJSON(t *testing.T, object cliJSON) agentsmd.Result {
	var res agentsmd.Result
	for _, f := range object.Files {
		sources := map[string]agentsmd.Source{"extra": agentsmd.SourceExtra, "chain": agentsmd.SourceChain}
		source, ok := sources[f.Source]
		if !ok {
			t.Fatalf("--json gave source %q", f.Source)
		}
		res.Files = append(res.Files, agentsmd.File{Path: f.Path, Content: f.Content, Source: source})
	}
	for _, o := range object.Omitted {
		reason := map[string]agentsmd.Reason{"over_budget": agentsmd.OverBudget, "shadowed": agentsmd.Shadowed}
		r, ok := reason[o.Reason]
		if !ok {
			t.Fatalf("--json gave reason %q", o.Reason)
		}
		res.Omitted = append(res.Omitted, agentsmd.Omitted{Path: o.Path, Size: o.Size, Reason: r, By: o.By})
	}
	return res
}
