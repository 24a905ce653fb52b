package agentsmd_test

import (
	"errors"
	"testing"
	"testing/fstest"

	"github.com/agentsmd/agentsmd/go/agentsmd"
)

// SPEC.md §9: a name of several elements names the file below each
// directory, from the OS and from an fs.FS alike.
func TestSection9NameOfSeveralElements(t *testing.T) {
	dir := tree(t, map[string]string{
		"AGENTS.md":                         "agents\n",
		".github/copilot-instructions.md":   "root copilot\n",
		"a/.github/copilot-instructions.md": "a copilot\n",
		"a/b/.github":                       "a file, not a directory\n",
	})
	opts := agentsmd.Options{Root: dir, Names: []string{".github/copilot-instructions.md", "AGENTS.md"}}
	res := mustChain(t, in(dir, "a/b/x.go"), opts)
	checkResult(t, res, agentsmd.Result{
		Files: []agentsmd.File{
			{Path: in(dir, ".github/copilot-instructions.md"), Content: "root copilot\n"},
			{Path: in(dir, "a/.github/copilot-instructions.md"), Content: "a copilot\n"},
		},
		Omitted: []agentsmd.Omitted{
			{Path: in(dir, "AGENTS.md"), Size: 7, Reason: agentsmd.Shadowed, By: in(dir, ".github/copilot-instructions.md")},
		},
	})
	fsys := fstest.MapFS{
		".claude/CLAUDE.md":   {Data: []byte("root\n")},
		"a/.claude/CLAUDE.md": {Data: []byte("a\n")},
	}
	res = mustChain(t, "a/b", agentsmd.Options{FS: fsys, Names: []string{".claude/CLAUDE.md"}})
	checkResult(t, res, agentsmd.Result{Files: []agentsmd.File{
		{Path: ".claude/CLAUDE.md", Content: "root\n"},
		{Path: "a/.claude/CLAUDE.md", Content: "a\n"},
	}})
}

// SPEC.md §11.1 "Names": an empty, "." or ".." element, a leading or
// trailing "/" or a NUL makes a name invalid.
func TestSection9InvalidNames(t *testing.T) {
	dir := tempDir(t)
	for _, name := range []string{"a//b", "./b", "a/..", "/a", "a/", "a/\x00b"} {
		_, err := agentsmd.Chain(dir, agentsmd.Options{Root: dir, Names: []string{name}})
		if !errors.Is(err, agentsmd.ErrInvalidArgument) {
			t.Errorf("name %q: %v, want an invalid-argument error", name, err)
		}
	}
}

// SPEC.md §9: with AllNames every name a directory has is included, in
// Names order, nothing shadowed; with Nearest, the nearest directory's files
// all stand, and a superseded file's By is the first of them.
func TestSection9AllNames(t *testing.T) {
	dir := tree(t, map[string]string{
		"CLAUDE.md":       "root\n",
		"CLAUDE.local.md": "root local\n",
		"a/CLAUDE.md":     "a\n",
	})
	names := []string{"CLAUDE.md", ".claude/CLAUDE.md", "CLAUDE.local.md"}
	res := mustChain(t, in(dir, "a/x"), agentsmd.Options{Root: dir, Names: names, AllNames: true})
	checkResult(t, res, agentsmd.Result{Files: []agentsmd.File{
		{Path: in(dir, "CLAUDE.md"), Content: "root\n"},
		{Path: in(dir, "CLAUDE.local.md"), Content: "root local\n"},
		{Path: in(dir, "a/CLAUDE.md"), Content: "a\n"},
	}})
	res = mustChain(t, dir, agentsmd.Options{Root: dir, Names: names, AllNames: true, Nearest: true})
	checkResult(t, res, agentsmd.Result{Files: []agentsmd.File{
		{Path: in(dir, "CLAUDE.md"), Content: "root\n"},
		{Path: in(dir, "CLAUDE.local.md"), Content: "root local\n"},
	}})
	res = mustChain(t, in(dir, "a/x"), agentsmd.Options{Root: dir, Names: names, AllNames: true, Nearest: true})
	checkResult(t, res, agentsmd.Result{
		Files: []agentsmd.File{{Path: in(dir, "a/CLAUDE.md"), Content: "a\n"}},
		Omitted: []agentsmd.Omitted{
			{Path: in(dir, "CLAUDE.md"), Size: 5, Reason: agentsmd.Superseded, By: in(dir, "a/CLAUDE.md")},
			{Path: in(dir, "CLAUDE.local.md"), Size: 11, Reason: agentsmd.Superseded, By: in(dir, "a/CLAUDE.md")},
		},
	})
}
