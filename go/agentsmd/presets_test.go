package agentsmd_test

import (
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"strings"
	"testing"

	"github.com/agentsmd/agentsmd/go/agentsmd"
)

// presetTree is a repository (a .git directory, nested files, a file Codex
// drops as whitespace only and one it cuts at 32 KiB, Claude Code's files,
// an import and a rule) and a home holding each product's global files.
func presetTree(t *testing.T) (repo, home string) {
	t.Helper()
	repo = tree(t, map[string]string{
		".git/":                   "",
		"AGENTS.md":               "root rules\n",
		"CLAUDE.md":               "Claude root.\n@docs/style.md\n",
		"docs/style.md":           "Use tabs.\n",
		".claude/rules/always.md": "Always.\n",
		"GEMINI.md":               "Gemini root.\n",
		".goosehints":             "Goose root.\n",
		"mid/AGENTS.md":           "  \n\t\n",
		"mid/CLAUDE.md":           "Claude mid.\n",
		"mid/sub/AGENTS.md":       strings.Repeat("0123456789abcdef", 2500),
		"mid/sub/CLAUDE.local.md": "Local.\n",
		"mid/sub/.cursorrules":    "Cursor rules.\n",
	})
	home = tree(t, map[string]string{
		".codex/AGENTS.md":           "global codex\n",
		".claude/CLAUDE.md":          "global claude\n",
		".gemini/GEMINI.md":          "global gemini\n",
		".config/goose/.goosehints":  "global goose\n",
		".config/opencode/AGENTS.md": "global opencode\n",
		".pi/agent/AGENTS.md":        "global pi\n",
	})
	return repo, home
}

// presetJSON is the command line's --json object with --as: its files and
// omitted files.
type presetJSON struct {
	Files []struct {
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

// SPEC.md §12: Chain with Options.Preset and Options.Home gives the files
// and omitted files `agentsmd PATH --as NAME --home HOME --json` prints, and
// Result.Rendered is byte for byte its stdout without --json, for every
// preset.
func TestSection12PresetsSameAsTheCommandLine(t *testing.T) {
	command := cli(t)
	repo, home := presetTree(t)
	sources := map[string]agentsmd.Source{}
	for s := agentsmd.SourceChain; s <= agentsmd.SourceRule; s++ {
		sources[s.String()] = s
	}
	reasons := map[string]agentsmd.Reason{
		"over_budget": agentsmd.OverBudget, "shadowed": agentsmd.Shadowed,
		"escapes": agentsmd.Escapes, "duplicate": agentsmd.Duplicate,
		"superseded": agentsmd.Superseded, "empty": agentsmd.Empty,
		"truncated": agentsmd.Truncated,
	}
	// seen counts what the results compared held, so that agreeing is never
	// vacuous.
	seen := map[string]int{}
	// Every preset the command line has, as `agentsmd --as list` names them.
	list, stderr, err := run(command, "--as", "list")
	if err != nil {
		t.Fatalf("--as list failed (%v):\n%s", err, stderr)
	}
	var presets []string
	for _, line := range strings.Split(strings.TrimSuffix(list, "\n"), "\n") {
		presets = append(presets, strings.SplitN(line, "\t", 2)[0])
	}
	for _, preset := range presets {
		for _, path := range []string{in(repo, "mid/sub/main.rs"), in(repo, "mid"), repo} {
			opts := agentsmd.Options{Preset: preset, Home: home}
			res := mustChain(t, path, opts)
			args := []string{path, "--as", preset, "--home", home}
			stdout, stderr, err := run(command, args...)
			if err != nil {
				t.Fatalf("%v failed (%v):\n%s", args, err, stderr)
			}
			if res.Rendered != stdout {
				t.Errorf("--as %s at %s: Rendered is\n%q\nthe command line printed\n%q", preset, path, res.Rendered, stdout)
			}
			stdout, stderr, err = run(command, append(args, "--json")...)
			if err != nil {
				t.Fatalf("%v --json failed (%v):\n%s", args, err, stderr)
			}
			var object presetJSON
			if err := json.Unmarshal([]byte(stdout), &object); err != nil {
				t.Fatalf("%v --json printed %q: %v", args, stdout, err)
			}
			var want agentsmd.Result
			for _, f := range object.Files {
				source, ok := sources[f.Source]
				if !ok {
					t.Fatalf("--json gave source %q", f.Source)
				}
				want.Files = append(want.Files, agentsmd.File{Path: f.Path, Content: f.Content, Source: source})
			}
			for _, o := range object.Omitted {
				reason, ok := reasons[o.Reason]
				if !ok {
					t.Fatalf("--json gave reason %q", o.Reason)
				}
				want.Omitted = append(want.Omitted, agentsmd.Omitted{Path: o.Path, Size: o.Size, Reason: reason, By: o.By})
			}
			if !reflect.DeepEqual(res.Files, want.Files) || !reflect.DeepEqual(res.Omitted, want.Omitted) {
				t.Errorf("--as %s at %s: Go returned\n%+v\n%+v\n--json printed\n%+v\n%+v", preset, path, res.Files, res.Omitted, want.Files, want.Omitted)
			}
			seen[preset] += len(res.Files)
			if res.Rendered != "" {
				seen[preset+" rendered"]++
			}
			for _, o := range res.Omitted {
				seen[o.Reason.String()]++
			}
		}
	}
	for _, what := range []string{"codex", "codex rendered", "claude", "claude rendered", "gemini", "empty", "truncated", "shadowed"} {
		if seen[what] == 0 {
			t.Errorf("no result compared held %s: %v", what, seen)
		}
	}
}

// whatCodexSees is what Codex would load at path and hand its model
// (SPEC.md §12), reading home's .codex rather than the caller's, and the
// files it drops or cuts.
func whatCodexSees(path, home string) (string, []agentsmd.Omitted, error) {
	res, err := agentsmd.Chain(path, agentsmd.Options{Preset: "codex", Home: home})
	if err != nil {
		return "", nil, err
	}
	return res.Rendered, res.Omitted, nil
}

// SPEC.md §12: Codex's global file comes from Options.Home, its project files
// from the .git root down, the whitespace-only one dropped as Empty and the
// one crossing 32 KiB cut, with Truncated's Size the bytes left out.
func TestSection12CodexPresetReadsTheHomeAndCutsAtItsBudget(t *testing.T) {
	repo, home := presetTree(t)
	res := mustChain(t, in(repo, "mid/sub/main.rs"), agentsmd.Options{Preset: "codex", Home: home})
	var paths []string
	for _, f := range res.Files {
		paths = append(paths, f.Path)
	}
	want := []string{in(home, ".codex/AGENTS.md"), in(repo, "AGENTS.md"), in(repo, "mid/sub/AGENTS.md")}
	if !reflect.DeepEqual(paths, want) {
		t.Fatalf("files %q, want %q", paths, want)
	}
	kept := int64(32768 - len("root rules\n"))
	if got := int64(len(res.Files[2].Content)); got != kept {
		t.Errorf("the cut file kept %d bytes, want %d", got, kept)
	}
	wantOmitted := []agentsmd.Omitted{
		{Path: in(repo, "mid/AGENTS.md"), Size: 5, Reason: agentsmd.Empty},
		{Path: in(repo, "mid/sub/AGENTS.md"), Size: 40000 - kept, Reason: agentsmd.Truncated},
	}
	if !reflect.DeepEqual(res.Omitted, wantOmitted) {
		t.Errorf("omitted %+v, want %+v", res.Omitted, wantOmitted)
	}
	if !strings.HasPrefix(res.Rendered, "# AGENTS.md instructions for "+in(repo, "mid/sub")+"\n\n<INSTRUCTIONS>\nglobal codex\n\n--- project-doc ---\n\nroot rules\n") {
		t.Errorf("Rendered begins %q", res.Rendered[:min(len(res.Rendered), 200)])
	}
	// docs/go.md's whatCodexSees gives the same.
	if rendered, omitted, err := whatCodexSees(in(repo, "mid/sub"), home); err != nil || rendered != res.Rendered || !reflect.DeepEqual(omitted, res.Omitted) {
		t.Errorf("whatCodexSees: %q, %+v, %v; want Chain's", rendered, omitted, err)
	}
	if plain := mustChain(t, in(repo, "mid/sub/main.rs"), agentsmd.Options{Root: repo}); plain.Rendered != "" {
		t.Errorf("without a preset Rendered is %q, want \"\"", plain.Rendered)
	}
}

func TestSection12WordsOfTheNewReasonsAndOutcomes(t *testing.T) {
	words := map[fmt.Stringer]string{
		agentsmd.Empty: "empty", agentsmd.Truncated: "truncated",
		agentsmd.OutcomeEmpty: "empty", agentsmd.OutcomeTruncated: "truncated",
	}
	for v, want := range words {
		if got := v.String(); got != want {
			t.Errorf("%#v.String() = %q, want %q", v, got, want)
		}
	}
}

// SPEC.md §12: a preset that is none of the library's is an invalid-argument
// error naming the presets, from Chain and from NewSession.
func TestSection12UnknownPresetIsAnInvalidArgument(t *testing.T) {
	repo, home := presetTree(t)
	for _, name := range []string{"Codex", "copilot-x", "codex\x00", " claude"} {
		opts := agentsmd.Options{Preset: name, Home: home}
		_, err := agentsmd.Chain(repo, opts)
		var e *agentsmd.Error
		if !errors.As(err, &e) || e.Kind != agentsmd.KindInvalidArgument || !errors.Is(err, agentsmd.ErrInvalidArgument) {
			t.Errorf("Preset %q: Chain: %v, want an invalid-argument *Error", name, err)
		} else if !strings.Contains(err.Error(), "codex") || !strings.Contains(err.Error(), "claude") {
			t.Errorf("Preset %q: %v, want the presets named", name, err)
		}
		if s, err := agentsmd.NewSession(opts); !errors.Is(err, agentsmd.ErrInvalidArgument) {
			t.Errorf("Preset %q: NewSession: %v, want an invalid-argument error", name, err)
			if s != nil {
				s.Close()
			}
		}
	}
	if _, err := agentsmd.Chain(repo, agentsmd.Options{Preset: "codex", Home: "a\x00b"}); !errors.Is(err, agentsmd.ErrInvalidArgument) {
		t.Errorf("a home holding NUL: %v, want an invalid-argument error", err)
	}
}

// SPEC.md §12: GitHub Copilot, a closed product, loads what its
// documentation says: the user's instructions from Options.Home, then from
// the .git root down each directory's .github/copilot-instructions.md and
// AGENTS.md, with the root's .github/instructions whose applyTo matches the
// path; and Rendered is Render of those files (SPEC.md §2).
func TestSection12CopilotPresetLoadsItsDocumentedFiles(t *testing.T) {
	repo := tree(t, map[string]string{
		".git/":                           "",
		"AGENTS.md":                       "root agents\n",
		".github/copilot-instructions.md": "repository\n",
		".github/instructions/go.instructions.md": "---\napplyTo: \"**/*.go\"\n---\ngo\n",
		".github/instructions/ts.instructions.md": "---\napplyTo: \"**/*.ts\"\n---\nts\n",
		"a/AGENTS.md": "a agents\n",
	})
	home := tree(t, map[string]string{".copilot/copilot-instructions.md": "user\n"})
	res := mustChain(t, in(repo, "a/main.go"), agentsmd.Options{Preset: "copilot", Home: home})
	want := []agentsmd.File{
		{Path: in(home, ".copilot/copilot-instructions.md"), Content: "user\n", Source: agentsmd.SourceExtra},
		{Path: in(repo, ".github/copilot-instructions.md"), Content: "repository\n", Source: agentsmd.SourceChain},
		{Path: in(repo, "AGENTS.md"), Content: "root agents\n", Source: agentsmd.SourceChain},
		{Path: in(repo, ".github/instructions/go.instructions.md"), Content: "go\n", Source: agentsmd.SourceRule},
		{Path: in(repo, "a/AGENTS.md"), Content: "a agents\n", Source: agentsmd.SourceChain},
	}
	if !reflect.DeepEqual(res.Files, want) {
		t.Errorf("files\n%+v\nwant\n%+v", res.Files, want)
	}
	if res.Rendered == "" || res.Rendered != agentsmd.Render(res.Files) {
		t.Errorf("Rendered is\n%q\nRender of the files is\n%q", res.Rendered, agentsmd.Render(res.Files))
	}
}

// SPEC.md §12 with §10: a session of Cursor or of Windsurf finds the
// product's project (the nearest .git) at its first touch, which gives the
// root's files; a touch below gives that directory's AGENTS.md and its rule
// whose glob matches, and a touch beside it nothing, each file given once.
func TestSection12SessionsOfCursorAndWindsurfLoadAsTheAgentReads(t *testing.T) {
	repo := tree(t, map[string]string{
		".git/":                   "",
		"AGENTS.md":               "root\n",
		"a/AGENTS.md":             "a\n",
		"a/.cursor/rules/go.mdc":  "---\nglobs: \"*.go\"\n---\ncursor go\n",
		"a/.windsurf/rules/go.md": "---\ntrigger: glob\nglobs: \"*.go\"\n---\nwindsurf go\n",
	})
	home := tempDir(t)
	rules := map[string]agentsmd.File{
		"cursor":   {Path: in(repo, "a/.cursor/rules/go.mdc"), Content: "cursor go\n", Source: agentsmd.SourceRule},
		"windsurf": {Path: in(repo, "a/.windsurf/rules/go.md"), Content: "windsurf go\n", Source: agentsmd.SourceRule},
	}
	for _, preset := range []string{"cursor", "windsurf"} {
		s, err := agentsmd.NewSession(agentsmd.Options{Preset: preset, Home: home})
		if err != nil {
			t.Fatalf("NewSession(%s): %v", preset, err)
		}
		first := mustTouch(t, s, in(repo, "README.md"))
		want := []agentsmd.File{{Path: in(repo, "AGENTS.md"), Content: "root\n", Source: agentsmd.SourceChain}}
		if !reflect.DeepEqual(first.Files, want) {
			t.Errorf("%s: the first touch gave\n%+v\nwant\n%+v", preset, first.Files, want)
		}
		second := mustTouch(t, s, in(repo, "a/main.go"))
		want = []agentsmd.File{{Path: in(repo, "a/AGENTS.md"), Content: "a\n", Source: agentsmd.SourceChain}, rules[preset]}
		if !reflect.DeepEqual(second.Files, want) {
			t.Errorf("%s: the touch of a/main.go gave\n%+v\nwant\n%+v", preset, second.Files, want)
		}
		if again := mustTouch(t, s, in(repo, "a/other.go")); len(again.Files) != 0 {
			t.Errorf("%s: the touch of a/other.go gave %+v, want nothing", preset, again.Files)
		}
		s.Close()
	}
}

// SPEC.md §12 with §10: Codex loads its files when it starts, so a session
// of it starts as its chain, and a later touch gives nothing.
func TestSection12SessionOfCodexStartsAsItsChain(t *testing.T) {
	repo, home := presetTree(t)
	opts := agentsmd.Options{Preset: "codex", Home: home}
	at := in(repo, "mid/sub/main.rs")
	s, err := agentsmd.NewSession(opts)
	if err != nil {
		t.Fatalf("NewSession(codex): %v", err)
	}
	defer s.Close()
	start := mustTouch(t, s, at)
	if chained := mustChain(t, at, opts); len(start.Files) == 0 || !reflect.DeepEqual(start.Files, chained.Files) {
		t.Errorf("the first touch gave\n%+v\nChain gives\n%+v", start.Files, chained.Files)
	}
	if read := mustTouch(t, s, in(repo, "mid/other.rs")); len(read.Files) != 0 {
		t.Errorf("a later touch gave %+v, want nothing", read.Files)
	}
}
