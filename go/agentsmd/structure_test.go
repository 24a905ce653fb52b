package agentsmd_test

import (
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/agentsmd/agentsmd/go/agentsmd"
)

// mustParse is Parse, failing the test on an error.
func mustParse(t testing.TB, text, path string, opts agentsmd.Options) *agentsmd.Document {
	t.Helper()
	doc, err := agentsmd.Parse(text, path, opts)
	if err != nil {
		t.Fatalf("Parse(%q): %v", path, err)
	}
	return doc
}

// mustBlock is Document.Block, failing the test on an error.
func mustBlock(t testing.TB, doc *agentsmd.Document, opts agentsmd.BlockOptions) agentsmd.Block {
	t.Helper()
	block, err := doc.Block(opts)
	if err != nil {
		t.Fatalf("Block: %v", err)
	}
	return block
}

// The golden blocks of testdata/golden/structure/, which the Rust and C tests
// also hold the library to, byte for byte: each case's AGENTS.md parsed from
// the OS with its skills resolved beside it.
func TestBlockMatchesTheGoldenBlocks(t *testing.T) {
	for _, tc := range []struct {
		name string
		opts agentsmd.BlockOptions
	}{
		{"fits", agentsmd.BlockOptions{}},
		{"skills_both_sources", agentsmd.BlockOptions{}},
		{"dropped_then_kept", agentsmd.BlockOptions{Cap: 2048}},
		{"whole_file", agentsmd.BlockOptions{Cap: 2048}},
		{"requested_skills_header", agentsmd.BlockOptions{Cap: 2048, Heading: "# Team rules", Preamble: "Follow these."}},
		{"readme", agentsmd.BlockOptions{Cap: 2048, Where: "AGENTS.md"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := filepath.Join(testdata, "golden", "structure", tc.name)
			path, err := filepath.Abs(filepath.Join(dir, "AGENTS.md"))
			if err != nil {
				t.Fatal(err)
			}
			text, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			want, err := os.ReadFile(filepath.Join(dir, "block.txt"))
			if err != nil {
				t.Fatal(err)
			}
			if tc.opts.Where == "" {
				tc.opts.Where = "/repo/AGENTS.md"
			}
			got := mustBlock(t, mustParse(t, string(text), path, agentsmd.Options{}), tc.opts)
			if got.Text != string(want) {
				t.Errorf("block:\n%s\nwant:\n%s", got.Text, want)
			}
		})
	}
}

func TestParseResolvesInlineSkillsBeforeSkillFilesThroughTheFS(t *testing.T) {
	fsys := fstest.MapFS{
		"sub/AGENTS.md":   file("---\nskills: [a, b, a, missing, ../x]\n---\nbody\n\n## Skill: a\n\nInline.\n"),
		"sub/skills/a.md": file("from a file\n"),
		"sub/skills/b.md": file("\n\nB from a file\n\n"),
		"sub/skills/x.md": file("never read\n"),
		"x.md":            file("never read\n"),
	}
	doc := mustParse(t, string(fsys["sub/AGENTS.md"].Data), "sub/AGENTS.md", agentsmd.Options{FS: fsys})
	if want := []string{"a", "b", "missing", "../x"}; !reflect.DeepEqual(doc.Requested, want) {
		t.Errorf("Requested = %q, want %q", doc.Requested, want)
	}
	want := []agentsmd.Skill{
		{Name: "a", Text: "Inline.\n"},
		{Name: "b", Text: "B from a file\n", Path: "sub/skills/b.md"},
	}
	if !reflect.DeepEqual(doc.Skills, want) {
		t.Errorf("Skills = %+v, want %+v", doc.Skills, want)
	}
	if want := []string{"missing", "../x"}; !reflect.DeepEqual(doc.Unknown, want) {
		t.Errorf("Unknown = %q, want %q", doc.Unknown, want)
	}
}

func TestOptionsSkillsReplaceTheFrontMattersAndAnEmptyListRequestsNone(t *testing.T) {
	text := "---\nskills: [a]\n---\n## Skill: a\nA\n## Skill: b\nB\n"
	mine := mustParse(t, text, "", agentsmd.Options{Skills: []string{"b"}})
	if len(mine.Skills) != 1 || mine.Skills[0].Name != "b" {
		t.Errorf("Skills = %+v, want b only", mine.Skills)
	}
	none := mustParse(t, text, "", agentsmd.Options{Skills: []string{}})
	if len(none.Requested) != 0 || len(none.Skills) != 0 {
		t.Errorf("an empty list requested %q", none.Requested)
	}
	front := mustParse(t, text, "", agentsmd.Options{})
	if !reflect.DeepEqual(front.Requested, []string{"a"}) {
		t.Errorf("Requested = %q, want the front matter's [a]", front.Requested)
	}
}

func TestParseSplitsUnitsOutsideCodeAndWarnsWhatItIgnores(t *testing.T) {
	doc := mustParse(t, "---\nskills: [a\n---\nintro\n# A ##\n```\n## fenced\n```\n## ##\nx\n", "", agentsmd.Options{})
	want := []agentsmd.Unit{
		{Preamble: true, Text: "intro\n"},
		{Title: "A", Text: "# A ##\n```\n## fenced\n```\n"},
		{Title: "", Text: "## ##\nx\n"},
	}
	if !reflect.DeepEqual(doc.Units, want) {
		t.Errorf("Units = %+v, want %+v", doc.Units, want)
	}
	if len(doc.Warnings) != 1 || doc.Warnings[0].Line != 1 {
		t.Fatalf("Warnings = %v, want one on line 1", doc.Warnings)
	}
	if !strings.HasPrefix(doc.Warnings[0].String(), "line 1: front matter ignored") {
		t.Errorf("warning = %q", doc.Warnings[0])
	}
}

func TestASkillFileOverMaxBytesIsTooLarge(t *testing.T) {
	fsys := fstest.MapFS{"skills/a.md": file("12345")}
	_, err := agentsmd.Parse("---\nskills: [a]\n---\n", "AGENTS.md", agentsmd.Options{FS: fsys, MaxBytes: 4})
	if !errors.Is(err, agentsmd.ErrTooLarge) {
		t.Fatalf("err = %v, want ErrTooLarge", err)
	}
	if !strings.Contains(err.Error(), "skills/a.md") {
		t.Errorf("err = %v, does not name the file", err)
	}
	if _, err := agentsmd.Parse("", "../AGENTS.md", agentsmd.Options{FS: fsys}); err == nil {
		t.Error("a path that is no valid FS name parsed")
	}
}

func TestBlockKeepsWholeUnitsAndReportsWhatItDropped(t *testing.T) {
	big := strings.Repeat("x", 3000)
	doc := mustParse(t, "# A\na\n# Big\n"+big+"\n# C\nc\n", "", agentsmd.Options{})
	block := mustBlock(t, doc, agentsmd.BlockOptions{Cap: 1})
	want := agentsmd.DefaultHeading + "\n\n> ⚠️ AGENTS.md exceeded 2048 bytes; 1 section(s) omitted " +
		"(3007 bytes): \"Big\" — read AGENTS.md for the full instructions before you start.\n\n" +
		"# A\na\n\n# C\nc\n"
	if block.Text != want {
		t.Errorf("block:\n%s\nwant:\n%s", block.Text, want)
	}
	if block.Cap != agentsmd.MinCap {
		t.Errorf("Cap = %d, want MinCap", block.Cap)
	}
	if want := []agentsmd.Dropped{{Title: "Big", Bytes: 3007}}; !reflect.DeepEqual(block.Dropped, want) {
		t.Errorf("Dropped = %+v, want %+v", block.Dropped, want)
	}
	if got := mustBlock(t, doc, agentsmd.BlockOptions{}); got.Cap != agentsmd.DefaultCap || got.Dropped != nil {
		t.Errorf("default block: cap %d, dropped %+v", got.Cap, got.Dropped)
	}
}

func TestBlockOptionsShapeTheWarningAndWhatSurroundsTheUnits(t *testing.T) {
	path := "/repo/sub/AGENTS.override.md"
	doc := mustParse(t, "# A\n"+strings.Repeat("x", 3000)+"\n", path, agentsmd.Options{})
	// The path as the library keeps it: absolute (on Windows, on the current
	// directory's drive) and written with the OS's separator.
	where, err := filepath.Abs(path)
	if err != nil {
		t.Fatal(err)
	}
	named := mustBlock(t, doc, agentsmd.BlockOptions{Cap: 2048})
	if !strings.Contains(named.Text, "> ⚠️ AGENTS.override.md exceeded 2048 bytes; the whole file was omitted (3005 bytes) — read "+where+" for the full") {
		t.Errorf("the warning does not default to the path's base name and the path:\n%s", named.Text)
	}
	given := mustBlock(t, doc, agentsmd.BlockOptions{
		Cap: 2048, NoHeading: true, Preamble: "Read this first.", Name: "CLAUDE.md", Where: "/w/CLAUDE.md",
	})
	want := "\n\nRead this first.\n\n> ⚠️ CLAUDE.md exceeded 2048 bytes; the whole file was omitted " +
		"(3005 bytes) — read /w/CLAUDE.md for the full instructions before you start.\n"
	if given.Text != want {
		t.Errorf("block:\n%q\nwant:\n%q", given.Text, want)
	}
	if _, err := doc.Block(agentsmd.BlockOptions{Cap: -1}); err == nil {
		t.Error("a negative cap is no error")
	}
	if _, err := new(agentsmd.Document).Block(agentsmd.BlockOptions{}); err == nil {
		t.Error("a Document Parse did not make blocked")
	}
}

func TestNoUnitAtAllIsTheEmptyBlock(t *testing.T) {
	block := mustBlock(t, mustParse(t, "---\n---\n\n", "", agentsmd.Options{}), agentsmd.BlockOptions{})
	if block.Text != "" || block.Dropped != nil {
		t.Errorf("block = %+v, want empty", block)
	}
}

func TestParseNearestParsesTheNearestFileWithItsOwnSkills(t *testing.T) {
	root := tempDir(t)
	write := func(rel, text string) {
		t.Helper()
		path := filepath.Join(root, rel)
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("AGENTS.md", "---\nskills: [top]\n---\nroot rules\n")
	write("sub/AGENTS.md", "---\nskills: [s]\n---\nsub rules\n")
	write("sub/skills/s.md", "S.\n")
	write("home/AGENTS.md", "the user's own\n")
	doc, err := agentsmd.ParseNearest(filepath.Join(root, "sub/deep/x.go"), agentsmd.Options{
		Root:  root,
		Extra: []string{filepath.Join(root, "home/AGENTS.md")},
	})
	if err != nil {
		t.Fatal(err)
	}
	if doc.Path != filepath.Join(root, "sub/AGENTS.md") {
		t.Errorf("Path = %q, want the nearest file", doc.Path)
	}
	want := []agentsmd.Skill{{Name: "s", Text: "S.\n", Path: filepath.Join(root, "sub/skills/s.md")}}
	if !reflect.DeepEqual(doc.Skills, want) {
		t.Errorf("Skills = %+v, want %+v", doc.Skills, want)
	}
	if len(doc.Units) != 1 || doc.Units[0].Text != "sub rules\n" {
		t.Errorf("Units = %+v", doc.Units)
	}

	none, err := agentsmd.ParseNearest(filepath.Join(root, "home/x"), agentsmd.Options{Root: filepath.Join(root, "home/empty")})
	if err == nil {
		t.Errorf("a path outside Root parsed: %+v", none)
	}
}

func TestParseNearestChecksTheRootBeforeReadingAnything(t *testing.T) {
	fsys := &faultFS{MapFS: fstest.MapFS{"other/AGENTS.md": file("x\n"), "repo/AGENTS.md": file("y\n")}}
	if _, err := agentsmd.ParseNearest("other/x.go", agentsmd.Options{FS: fsys, Root: "repo"}); err == nil {
		t.Fatal("a path outside Root parsed")
	}
	if opened := fsys.openedFiles(); len(opened) != 0 {
		t.Errorf("opened %q before refusing the path", opened)
	}
	doc, err := agentsmd.ParseNearest("repo/none/x.go", agentsmd.Options{FS: fstest.MapFS{"repo/none/y": file("")}, Root: "repo"})
	if err != nil {
		t.Fatal(err)
	}
	if doc.Path != "" || doc.Units != nil || mustBlock(t, doc, agentsmd.BlockOptions{}).Text != "" {
		t.Errorf("no file found, yet %+v", doc)
	}
}

func TestNearestSupersedesTheFilesOfTheOtherDirectories(t *testing.T) {
	fsys := fstest.MapFS{"AGENTS.md": file("root\n"), "a/AGENTS.md": file("a\n")}
	res := mustChain(t, "a/x.go", agentsmd.Options{FS: fsys, Nearest: true})
	checkResult(t, res, agentsmd.Result{
		Files:   []agentsmd.File{{Path: "a/AGENTS.md", Content: "a\n"}},
		Omitted: []agentsmd.Omitted{{Path: "AGENTS.md", Size: 5, Reason: agentsmd.Superseded, By: "a/AGENTS.md"}},
	})
	if got := agentsmd.Superseded.String(); got != "superseded" {
		t.Errorf("Superseded.String() = %q", got)
	}
}

// writeTree writes each file of files (a relative path to its text) below
// root, making directories as needed.
func writeTree(t *testing.T, root string, files map[string]string) {
	t.Helper()
	for rel, text := range files {
		path := filepath.Join(root, rel)
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// SPEC.md §6.5: the nearest document is the last file of source chain:
// neither the nearest directory's last fragment nor an overlay stands for it,
// and a nearest file over the budget is no document, not an ancestor's.
func TestParseNearestParsesTheLastChainFileNotAFragmentOrAnOverlay(t *testing.T) {
	root := tempDir(t)
	writeTree(t, root, map[string]string{
		"repo/AGENTS.md":         "## Root\n",
		"repo/src/AGENTS.md":     "---\nskills: [s]\n---\n## Src\n",
		"repo/src/skills/s.md":   "beside src\n",
		"repo/src/frag/z.md":     "## Fragment\n",
		"overlay/AGENTS.md":      "---\nskills: [s]\n---\n## Overlay\n",
		"overlay/skills/s.md":    "beside the overlay\n",
		"repo/other/frag/a.md":   "## Only a fragment\n",
		"repo/other/placeholder": "",
	})
	opts := agentsmd.Options{
		Root:      filepath.Join(root, "repo"),
		Fragments: []string{"frag"},
		Overlays:  []string{filepath.Join(root, "overlay")},
	}
	doc, err := agentsmd.ParseNearest(filepath.Join(root, "repo/src/main.go"), opts)
	if err != nil {
		t.Fatal(err)
	}
	if want := filepath.Join(root, "repo/src/AGENTS.md"); doc.Path != want {
		t.Errorf("Path = %q, want %q", doc.Path, want)
	}
	if len(doc.Units) != 1 || doc.Units[0].Title != "Src" {
		t.Errorf("Units = %+v, want the nearest chain file's", doc.Units)
	}
	if len(doc.Skills) != 1 || doc.Skills[0].Text != "beside src\n" {
		t.Errorf("Skills = %+v, want the one beside src", doc.Skills)
	}

	// The nearest directory with a file is the root: its fragments' directory
	// below does not stand for it either.
	doc, err = agentsmd.ParseNearest(filepath.Join(root, "repo/other/x.go"), opts)
	if err != nil {
		t.Fatal(err)
	}
	if len(doc.Units) != 1 || doc.Units[0].Title != "Root" {
		t.Errorf("Units = %+v, want the root file's", doc.Units)
	}

	opts.Budget = 4
	doc, err = agentsmd.ParseNearest(filepath.Join(root, "repo/src/main.go"), opts)
	if err != nil {
		t.Fatal(err)
	}
	if doc.Path != "" || doc.Units != nil {
		t.Errorf("the nearest file is over budget, yet %+v", doc)
	}
}

// SPEC.md §6.2 (decided): Parse and ParseNearest take the chain's options;
// confined, a skill file whose link leads out of root is not read.
func TestParseConfinesSkillFilesBeneathRoot(t *testing.T) {
	root := tempDir(t)
	writeTree(t, root, map[string]string{
		"secret":         "API_KEY=hunter2\n",
		"repo/AGENTS.md": "---\nskills: [netrc]\n---\nbody\n",
	})
	if err := os.MkdirAll(filepath.Join(root, "repo/skills"), 0o755); err != nil {
		t.Fatal(err)
	}
	if !symlink(t, "../../secret", filepath.Join(root, "repo/skills/netrc.md")) {
		t.Skip("no symbolic link to lead out of root")
	}
	opts := agentsmd.Options{Root: filepath.Join(root, "repo"), Confine: true}
	for _, parse := range []func() (*agentsmd.Document, error){
		func() (*agentsmd.Document, error) {
			return agentsmd.Parse("---\nskills: [netrc]\n---\nbody\n", filepath.Join(root, "repo/AGENTS.md"), opts)
		},
		func() (*agentsmd.Document, error) {
			return agentsmd.ParseNearest(filepath.Join(root, "repo/x.go"), opts)
		},
	} {
		doc, err := parse()
		if err != nil {
			t.Fatal(err)
		}
		if len(doc.Skills) != 0 || !reflect.DeepEqual(doc.Unknown, []string{"netrc"}) {
			t.Errorf("Skills = %+v, Unknown = %q: a link out of root was read", doc.Skills, doc.Unknown)
		}
		if len(doc.Warnings) != 1 || !strings.Contains(doc.Warnings[0].Message, "escapes root") {
			t.Errorf("Warnings = %+v, want one that says the file escapes root", doc.Warnings)
		}
	}
}

// SPEC.md §7: an error keeps the bytes of a path that is not UTF-8.
func TestAnErrorKeepsTheBytesOfItsPath(t *testing.T) {
	dir := filepath.Join(tempDir(t), "x\xff")
	if err := os.Mkdir(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	_, err := agentsmd.Chain(filepath.Dir(dir), agentsmd.Options{Extra: []string{dir}})
	if err == nil || !strings.Contains(err.Error(), dir) {
		t.Errorf("err = %v, want one naming %q", err, dir)
	}
}
