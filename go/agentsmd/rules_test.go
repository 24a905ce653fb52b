package agentsmd_test

import (
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/agentsmd/agentsmd/go/agentsmd"
)

// dialect is a row of SPEC.md §11's table as these tests use it: the
// directory they keep its rules in, the suffix they give its files, the
// front matter that makes a rule apply always, and whether its rule directory
// is looked up in each directory of the walk (else at the root).
type dialect struct {
	dialect agentsmd.Dialect
	dir     string
	suffix  string
	always  string
	walk    bool
}

var (
	claude   = dialect{agentsmd.DialectClaude, ".claude/rules", ".md", "", false}
	cursor   = dialect{agentsmd.DialectCursor, ".cursor/rules", ".mdc", "---\nalwaysApply: true\n---\n", true}
	copilot  = dialect{agentsmd.DialectCopilot, ".github/instructions", ".instructions.md", "---\napplyTo: \"**\"\n---\n", false}
	windsurf = dialect{agentsmd.DialectWindsurf, ".windsurf/rules", ".md", "---\ntrigger: always_on\n---\n", true}
	kiro     = dialect{agentsmd.DialectKiro, ".kiro/steering", ".md", "---\ninclusion: always\n---\n", false}
	cline    = dialect{agentsmd.DialectCline, ".clinerules", ".md", "", false}
	dialects = []dialect{claude, cursor, copilot, windsurf, kiro, cline}
)

// rules is the option naming d's rule directory alone.
func (d dialect) rules() []agentsmd.RuleDir {
	return []agentsmd.RuleDir{{Dialect: d.dialect, Dir: d.dir}}
}

// file is the rule file name+suffix in the rule directory of holder ("" for
// the root), slash-separated.
func (d dialect) file(holder, name string) string {
	return pathJoin(holder, d.dir, name+d.suffix)
}

// glob is a front matter that makes a rule apply when a touched path matches
// pattern alone, in d's keys (a list where a string would be split at
// commas).
func (d dialect) glob(pattern string) string {
	quoted := "'" + strings.ReplaceAll(pattern, "'", "''") + "'"
	keys := map[agentsmd.Dialect]string{
		agentsmd.DialectClaude:   "paths: " + quoted + "\n",
		agentsmd.DialectCursor:   "globs:\n  - " + quoted + "\n",
		agentsmd.DialectCopilot:  "applyTo:\n  - " + quoted + "\n",
		agentsmd.DialectWindsurf: "trigger: glob\nglobs:\n  - " + quoted + "\n",
		agentsmd.DialectKiro:     "inclusion: fileMatch\nfileMatchPattern: " + quoted + "\n",
		agentsmd.DialectCline:    "paths:\n  - " + quoted + "\n",
	}[d.dialect]
	return "---\n" + keys + "---\n"
}

// pathJoin joins the non-empty elements with "/".
func pathJoin(elements ...string) string {
	var kept []string
	for _, e := range elements {
		if e != "" {
			kept = append(kept, e)
		}
	}
	return strings.Join(kept, "/")
}

// ruleContents are the contents of res's files of SourceRule, in order.
func ruleContents(res agentsmd.Result) []string {
	out := []string{}
	for _, f := range res.Files {
		if f.Source == agentsmd.SourceRule {
			out = append(out, f.Content)
		}
	}
	return out
}

// availableNames are the names of res.Available, in order.
func availableNames(res agentsmd.Result) []string {
	out := []string{}
	for _, a := range res.Available {
		out = append(out, a.Name)
	}
	return out
}

// SPEC.md §11's table, "looked up in": claude, copilot, kiro and cline at
// the root only; cursor and windsurf in each directory of the walk.
func TestSection11EachDialectIsLookedUpAtTheRootOrInEachDirectoryOfTheWalk(t *testing.T) {
	for _, d := range dialects {
		t.Run(d.dialect.String(), func(t *testing.T) {
			dir := tree(t, map[string]string{
				d.file("", "r"):    d.always + "root rule\n",
				d.file("sub", "r"): d.always + "sub rule\n",
			})
			opts := agentsmd.Options{Root: dir, Rules: d.rules()}
			want := agentsmd.Result{Files: []agentsmd.File{
				{Path: in(dir, d.file("", "r")), Content: "root rule\n", Source: agentsmd.SourceRule},
			}}
			if d.walk {
				want.Files = append(want.Files, agentsmd.File{Path: in(dir, d.file("sub", "r")), Content: "sub rule\n", Source: agentsmd.SourceRule})
			}
			checkResult(t, mustChain(t, in(dir, "sub/x.txt"), opts), want)
			// At the root, only the root's rules, whatever the dialect.
			checkResult(t, mustChain(t, in(dir, "x.txt"), opts), agentsmd.Result{Files: want.Files[:1]})
		})
	}
}

// SPEC.md §11's table, "files (suffix)".
func TestSection11EachDialectCountsTheFilesOfItsSuffixes(t *testing.T) {
	counted := map[agentsmd.Dialect][]string{
		agentsmd.DialectClaude:   {"a\n", "d\n"},
		agentsmd.DialectCursor:   {"a\n", "b\n", "d\n"},
		agentsmd.DialectCopilot:  {"d\n"},
		agentsmd.DialectWindsurf: {"a\n", "d\n"},
		agentsmd.DialectKiro:     {"a\n", "d\n"},
		agentsmd.DialectCline:    {"a\n", "c\n", "d\n"},
	}
	for _, d := range dialects {
		fsys := fstest.MapFS{}
		for letter, name := range map[string]string{
			"a": "a.md", "b": "b.mdc", "c": "c.txt", "d": "d.instructions.md",
			"e": "e.markdown", "f": "f.MD", "g": "g.md.bak", "h": ".h.md",
		} {
			fsys[d.dir+"/"+name] = file(d.always + letter + "\n")
		}
		res := mustChain(t, "x.txt", agentsmd.Options{FS: fsys, Rules: d.rules()})
		if got := ruleContents(res); !equal(got, counted[d.dialect]) {
			t.Errorf("%s counts %q, want %q", d.dialect, got, counted[d.dialect])
		}
	}
}

// SPEC.md §11's table, "always", "when a touched path matches" and "on
// request", each dialect's keys: at each path, the rules given and the rules
// listed as available.
func TestSection11EachDialectAppliesAlwaysByGlobOrOnRequest(t *testing.T) {
	type at struct {
		path  string
		rules []string
	}
	for _, tc := range []struct {
		d         dialect
		files     map[string]string
		at        []at
		available []agentsmd.Available
	}{
		{claude, map[string]string{
			"1-none.md":        "none\n",
			"2-description.md": "---\ndescription: only a description\n---\ndescription\n",
			"3-glob.md":        "---\npaths: \"src/**/*.go\"\n---\nglob\n",
			"4-list.md":        "---\npaths:\n  - \"a/*.rs\"\n  - \"b/*.rs\"\n---\nlist\n",
			"5-nothing.md":     "---\npaths: []\n---\nnothing\n",
		}, []at{
			{"src/x/y.go", []string{"none\n", "description\n", "glob\n"}},
			{"b/z.rs", []string{"none\n", "description\n", "list\n"}},
			{"sub/src/y.go", []string{"none\n", "description\n"}},
		}, nil},
		{cursor, map[string]string{
			"a.mdc": "---\nalwaysApply: true\n---\na\n",
			"b.mdc": "---\nglobs: [\"*.go\", \"*.mod\"]\nalwaysApply: false\n---\nb\n",
			"c.mdc": "---\nglobs: \"*.ts,*.tsx\"\n---\nc\n",
			"d.mdc": "---\ndescription: Apply to Go\n---\nd\n",
			"e.md":  "e\n",
		}, []at{
			{"cmd/x.go", []string{"a\n", "b\n"}},
			{"web/x.tsx", []string{"a\n", "c\n"}},
			{"x.none", []string{"a\n"}},
		}, []agentsmd.Available{
			{Path: ".cursor/rules/d.mdc", Name: "d", Description: "Apply to Go"},
			{Path: ".cursor/rules/e.md", Name: "e"},
		}},
		{copilot, map[string]string{
			"a.instructions.md": "---\napplyTo: \"**/*\"\n---\na\n",
			"b.instructions.md": "---\napplyTo: \"src/**/*.ts,*.md\"\n---\nb\n",
			"c.instructions.md": "---\napplyTo: \"**/*.GO\"\n---\nc\n",
			"m.instructions.md": "---\ndescription: Manual\n---\nm\n",
		}, []at{
			{"src/a/b.ts", []string{"a\n", "b\n"}},
			{"cmd/X.go", []string{"a\n", "c\n"}},
			{"x", []string{"a\n"}},
		}, []agentsmd.Available{
			{Path: ".github/instructions/m.instructions.md", Name: "m", Description: "Manual"},
		}},
		{windsurf, map[string]string{
			"a.md": "---\ntrigger: always_on\n---\na\n",
			"b.md": "---\ntrigger: glob\nglobs: \"*.go\"\n---\nb\n",
			"c.md": "---\ntrigger: model_decision\ndescription: When writing SQL\n---\nc\n",
			"d.md": "---\ntrigger: manual\n---\nd\n",
			"e.md": "---\ntrigger: glob\n---\ne\n",
		}, []at{
			{"x/y.go", []string{"a\n", "b\n"}},
			{"x/y.rs", []string{"a\n"}},
		}, []agentsmd.Available{
			{Path: ".windsurf/rules/c.md", Name: "c", Description: "When writing SQL"},
			{Path: ".windsurf/rules/d.md", Name: "d"},
		}},
		{kiro, map[string]string{
			"a.md": "a\n",
			"b.md": "---\ninclusion: always\n---\nb\n",
			"c.md": "---\ninclusion: fileMatch\nfileMatchPattern: \"*.tsx\"\n---\nc\n",
			"d.md": "---\ninclusion: manual\n---\nd\n",
			"e.md": "---\ninclusion: auto\ndescription: API design\n---\ne\n",
		}, []at{
			{"ui/app.tsx", []string{"a\n", "b\n", "c\n"}},
			{"ui/app.ts", []string{"a\n", "b\n"}},
		}, []agentsmd.Available{
			{Path: ".kiro/steering/d.md", Name: "d"},
			{Path: ".kiro/steering/e.md", Name: "e", Description: "API design"},
		}},
		{cline, map[string]string{
			"a.md":  "a\n",
			"b.txt": "---\npaths:\n  - \"src/*.rs\"\n---\nb\n",
			"c.md":  "---\npaths: []\n---\nc\n",
		}, []at{
			{"src/x.rs", []string{"a\n", "b\n"}},
			{"z/src/x.rs", []string{"a\n"}},
		}, nil},
	} {
		fsys := fstest.MapFS{}
		for name, text := range tc.files {
			fsys[tc.d.dir+"/"+name] = file(text)
		}
		for _, at := range tc.at {
			res := mustChain(t, at.path, agentsmd.Options{FS: fsys, Rules: tc.d.rules()})
			if got := ruleContents(res); !equal(got, at.rules) {
				t.Errorf("%s at %s: rules %q, want %q", tc.d.dialect, at.path, got, at.rules)
			}
			if !reflect.DeepEqual(res.Available, tc.available) {
				t.Errorf("%s at %s: available %+v, want %+v", tc.d.dialect, at.path, res.Available, tc.available)
			}
			if res.Warnings != nil {
				t.Errorf("%s at %s: warnings %q", tc.d.dialect, at.path, res.Warnings)
			}
		}
	}
}

// globMatches is whether a rule of d whose one pattern is pattern applies at
// touched, a name in an FS holding the rule alone; the test fails if the
// chain warns.
func globMatches(t *testing.T, d dialect, pattern, touched string) bool {
	t.Helper()
	fsys := fstest.MapFS{d.file("", "r"): file(d.glob(pattern) + "rule\n")}
	res := mustChain(t, touched, agentsmd.Options{FS: fsys, Rules: d.rules()})
	if res.Warnings != nil {
		t.Errorf("%s %q at %q: warnings %q", d.dialect, pattern, touched, res.Warnings)
	}
	return len(ruleContents(res)) == 1
}

// SPEC.md §11 "Globs" and §11.1 "Globs": a few of the fine points.
func TestSection11GlobFinePoints(t *testing.T) {
	for _, tc := range []struct {
		d       dialect
		pattern string
		touched string
		matches bool
	}{
		// The holder directory itself: "**" matches it, "*" and "**/*" do
		// not.
		{claude, "**", ".", true},
		{claude, "*", ".", false},
		{claude, "**/*", ".", false},
		// Claude and Cline are anchored at the holder; the others match at
		// any depth unless the pattern begins with "/".
		{claude, "*.rs", "d/a.rs", false},
		{cline, "*.rs", "d/a.rs", false},
		{cursor, "*.rs", "d/e/a.rs", true},
		{kiro, "d/*.rs", "x/d/a.rs", true},
		{cursor, "/*.rs", "d/a.rs", false},
		{claude, "/src/*.rs", "src/a.rs", true},
		// "**" as a whole element is any number of elements, none included;
		// not a whole element, it is "*".
		{claude, "src/**/x.rs", "src/x.rs", true},
		{claude, "a**b.rs", "ax/yb.rs", false},
		// "?" is one character, never "/"; classes and nested braces.
		{claude, "?.rs", "é.rs", true},
		{claude, "a?c.rs", "a/c.rs", false},
		{claude, "[!abc].rs", "d.rs", true},
		{claude, "[]a].rs", "].rs", true},
		{claude, "{a,b{c,d}}.rs", "bd.rs", true},
		{claude, "{a,b{c,d}}.rs", "b.rs", false},
		// Names beginning with "." match like any other.
		{claude, "**/*.rs", ".github/a.rs", true},
		// Copilot folds ASCII case alone; the others compare exactly.
		{copilot, "SRC/**", "src/a.rs", true},
		{copilot, "É.rs", "é.rs", false},
		{windsurf, "*.RS", "a.rs", false},
	} {
		if got := globMatches(t, tc.d, tc.pattern, tc.touched); got != tc.matches {
			t.Errorf("%s %q at %q: matches %v, want %v", tc.d.dialect, tc.pattern, tc.touched, got, tc.matches)
		}
	}
}

// SPEC.md §11 "Globs": the globs of a walk directory's rules are relative to
// that directory, and a path outside it matches nothing.
func TestSection11GlobsOfAWalkDirectorysRulesAreRelativeToIt(t *testing.T) {
	fsys := fstest.MapFS{
		cursor.file("sub", "k"):   file("---\nglobs: \"/x.go\"\n---\ncursor\n"),
		windsurf.file("sub", "w"): file("---\ntrigger: glob\nglobs: \"d/*.go\"\n---\nwindsurf\n"),
	}
	opts := agentsmd.Options{FS: fsys, Rules: append(cursor.rules(), windsurf.rules()...)}
	for path, want := range map[string][]string{
		"sub/x.go":     {"cursor\n"},
		"sub/e/d/y.go": {"windsurf\n"},
		"x.go":         {},
		"d/x.go":       {},
	} {
		if got := ruleContents(mustChain(t, path, opts)); !equal(got, want) {
			t.Errorf("at %s: %q, want %q", path, got, want)
		}
	}
}

// SPEC.md §11 "Order": a directory's rules come after its file and
// fragments, in the order of Options.Rules.
func TestSection11RulesComeAfterADirectorysFileAndFragments(t *testing.T) {
	dir := tree(t, map[string]string{
		"AGENTS.md":             "root\n",
		"frags/f.md":            "root fragment\n",
		cline.file("", "b"):     "cline\n",
		claude.file("", "a"):    "claude\n",
		"sub/AGENTS.md":         "sub\n",
		cursor.file("sub", "d"): cursor.always + "sub cursor\n",
	})
	res := mustChain(t, in(dir, "sub/x"), agentsmd.Options{
		Root:      dir,
		Fragments: []string{"frags"},
		Rules:     append(append(cline.rules(), cursor.rules()...), claude.rules()...),
	})
	checkResult(t, res, agentsmd.Result{Files: []agentsmd.File{
		{Path: in(dir, "AGENTS.md"), Content: "root\n"},
		{Path: in(dir, "frags/f.md"), Content: "root fragment\n", Source: agentsmd.SourceFragment},
		{Path: in(dir, cline.file("", "b")), Content: "cline\n", Source: agentsmd.SourceRule},
		{Path: in(dir, claude.file("", "a")), Content: "claude\n", Source: agentsmd.SourceRule},
		{Path: in(dir, "sub/AGENTS.md"), Content: "sub\n"},
		{Path: in(dir, cursor.file("sub", "d")), Content: "sub cursor\n", Source: agentsmd.SourceRule},
	}})
}

// SPEC.md §11 "On request" and "Front matter", §11.1 "JSON": Available lists
// the rules on request with their names and descriptions, unread beyond their
// front matter; Warnings says what a rule file could not be read as, and the
// rule applies always; both are nil without them.
func TestSection11AvailableAndWarnings(t *testing.T) {
	dir := tree(t, map[string]string{
		"AGENTS.md":                      "root\n",
		".cursor/rules/style.mdc":        "---\ndescription: Go style\n---\nstyle\n",
		".cursor/rules/manual.md":        "manual\n",
		".cursor/rules/nested/deep.mdc":  "---\ndescription: \"Deep: yes\"\n---\ndeep\n",
		".cursor/rules/invalid-glob.mdc": "---\nglobs: [\"[abc\", \"*.go\"]\n---\ninvalid glob\n",
		".claude/rules/alias.md":         "---\npaths: **/*.go\n---\nalias\n",
	})
	res := mustChain(t, in(dir, "x.go"), agentsmd.Options{Root: dir, Rules: append(claude.rules(), cursor.rules()...)})
	checkResult(t, agentsmd.Result{Files: res.Files}, agentsmd.Result{Files: []agentsmd.File{
		{Path: in(dir, "AGENTS.md"), Content: "root\n"},
		// YAML reads **/*.go as an alias, and Claude's front matter is not
		// read line by line: unreadable, the rule applies always.
		{Path: in(dir, ".claude/rules/alias.md"), Content: "alias\n", Source: agentsmd.SourceRule},
		// One invalid pattern of two: the other still matches.
		{Path: in(dir, ".cursor/rules/invalid-glob.mdc"), Content: "invalid glob\n", Source: agentsmd.SourceRule},
	}})
	wantAvailable := []agentsmd.Available{
		{Path: in(dir, ".cursor/rules/manual.md"), Name: "manual"},
		{Path: in(dir, ".cursor/rules/nested/deep.mdc"), Name: "deep", Description: "Deep: yes"},
		{Path: in(dir, ".cursor/rules/style.mdc"), Name: "style", Description: "Go style"},
	}
	if !reflect.DeepEqual(res.Available, wantAvailable) {
		t.Errorf("available\n%+v\nwant\n%+v", res.Available, wantAvailable)
	}
	if len(res.Warnings) != 2 {
		t.Fatalf("warnings %q, want one for alias.md and one for invalid-glob.mdc", res.Warnings)
	}
	for i, name := range []string{".claude/rules/alias.md", ".cursor/rules/invalid-glob.mdc"} {
		prefix := in(dir, name) + ": "
		if !strings.HasPrefix(res.Warnings[i], prefix) || len(res.Warnings[i]) == len(prefix) {
			t.Errorf("warning %d: %q, want %q and a message", i, res.Warnings[i], prefix)
		}
	}

	res = mustChain(t, in(dir, "x.go"), agentsmd.Options{Root: dir})
	if res.Available != nil || res.Warnings != nil {
		t.Errorf("without Rules: available %+v, warnings %q", res.Available, res.Warnings)
	}
}

// SPEC.md §11 "Order" and §11.1 "Rule directories": with Report, each rule
// directory is probed (listed, not_found), and each rule file, of SourceRule:
// included, not_matched for a glob rule the path does not match, available.
func TestSection11ProbesOfRules(t *testing.T) {
	fsys := fstest.MapFS{
		"AGENTS.md":               file("root\n"),
		claude.file("", "a"):      file("a\n"),
		claude.file("", "g"):      file("---\npaths: \"*.go\"\n---\ng\n"),
		claude.file("", ".h"):     file("hidden\n"),
		copilot.file("", "m"):     file("---\ndescription: M\n---\nm\n"),
		".github/instructions/x":  file("not a rule\n"),
		"sub/.cursor/rules/t.mdc": file("---\nglobs: \"*.rs\"\n---\nt\n"),
	}
	res := mustChain(t, "sub/x.rs", agentsmd.Options{
		FS:     fsys,
		Rules:  append(append(claude.rules(), copilot.rules()...), cursor.rules()...),
		Report: true,
	})
	rule := func(path string, outcome agentsmd.Outcome) agentsmd.Probe {
		return agentsmd.Probe{Path: path, Source: agentsmd.SourceRule, Outcome: outcome}
	}
	want := []agentsmd.Probe{
		{Path: "AGENTS.md", Source: agentsmd.SourceChain, Outcome: agentsmd.OutcomeIncluded},
		rule(".claude/rules", agentsmd.OutcomeListed),
		rule(".claude/rules/a.md", agentsmd.OutcomeIncluded),
		rule(".claude/rules/g.md", agentsmd.OutcomeNotMatched),
		rule(".github/instructions", agentsmd.OutcomeListed),
		rule(".github/instructions/m.instructions.md", agentsmd.OutcomeAvailable),
		rule(".cursor/rules", agentsmd.OutcomeNotFound),
		{Path: "sub/AGENTS.md", Source: agentsmd.SourceChain, Outcome: agentsmd.OutcomeNotFound},
		rule("sub/.cursor/rules", agentsmd.OutcomeListed),
		rule("sub/.cursor/rules/t.mdc", agentsmd.OutcomeIncluded),
	}
	if !reflect.DeepEqual(res.Probes, want) {
		t.Errorf("probes\n%+v\nwant\n%+v", res.Probes, want)
	}
	if got := ruleContents(res); !equal(got, []string{"a\n", "t\n"}) {
		t.Errorf("rules %q", got)
	}
}

// SPEC.md §11 "When" and §11.1 "Deltas report once": in a session an
// always-rule is given at the first touch that looks its directory up, a
// glob rule at the first touch whose path matches it, each once, and a rule
// on request is available at the touch that first looked its directory up.
func TestSection11SessionGivesEachRuleOnceWhenItFirstApplies(t *testing.T) {
	dir := tree(t, map[string]string{
		"AGENTS.md":                "root\n",
		claude.file("", "always"):  "always\n",
		claude.file("", "go"):      "---\npaths: \"**/*.go\"\n---\ngo\n",
		cursor.file("sub", "all"):  cursor.always + "sub always\n",
		cursor.file("sub", "pick"): "---\ndescription: Pick me\n---\npick\n",
		cursor.file("sub", "ts"):   "---\nglobs: \"*.ts\"\n---\nts\n",
	})
	opts := agentsmd.Options{Root: dir, Rules: append(claude.rules(), cursor.rules()...)}
	s, err := agentsmd.NewSession(opts)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	first := mustTouch(t, s, in(dir, "a.txt"))
	checkResult(t, first, mustChain(t, in(dir, "a.txt"), opts))
	for _, touch := range []struct {
		path      string
		files     []string
		available []string
	}{
		{"b/c.go", []string{"go\n"}, []string{}},
		{"d.go", []string{}, []string{}},
		{"sub/x.txt", []string{"sub always\n"}, []string{"pick"}},
		{"sub/y.ts", []string{"ts\n"}, []string{}},
		{"sub/z.ts", []string{}, []string{}},
		{"sub/w.go", []string{}, []string{}},
	} {
		res := mustTouch(t, s, in(dir, touch.path))
		if got := contents(res); !equal(got, touch.files) {
			t.Errorf("touch %s gave %q, want %q", touch.path, got, touch.files)
		}
		if got := availableNames(res); !equal(got, touch.available) {
			t.Errorf("touch %s: available %q, want %q", touch.path, got, touch.available)
		}
		for _, f := range res.Files {
			if f.Source != agentsmd.SourceRule {
				t.Errorf("touch %s gave %s of source %s", touch.path, f.Path, f.Source)
			}
		}
	}
}

// SPEC.md §11: a Dialect that is none of the table's is an invalid-argument
// error, as a Dir that is not one or more elements valid as names are (a
// fragment directory's check), for Chain and NewSession alike; a rule
// directory that is a regular file is an error when its directory is looked
// up.
func TestSection11InvalidRuleDirectories(t *testing.T) {
	dir := tree(t, map[string]string{"AGENTS.md": "root\n"})
	for _, rule := range []agentsmd.RuleDir{
		{Dir: ".claude/rules"}, // the zero Dialect
		{Dialect: agentsmd.DialectCline + 1, Dir: ".claude/rules"},
		{Dialect: -1, Dir: ".claude/rules"},
		{Dialect: agentsmd.DialectClaude, Dir: ""},
		{Dialect: agentsmd.DialectClaude, Dir: "a//b"},
		{Dialect: agentsmd.DialectClaude, Dir: "../x"},
		{Dialect: agentsmd.DialectClaude, Dir: "a/./b"},
		{Dialect: agentsmd.DialectClaude, Dir: "/abs"},
		{Dialect: agentsmd.DialectClaude, Dir: "a/"},
		{Dialect: agentsmd.DialectClaude, Dir: "."},
		{Dialect: agentsmd.DialectClaude, Dir: "a\x00b"},
	} {
		opts := agentsmd.Options{Root: dir, Rules: []agentsmd.RuleDir{claude.rules()[0], rule}}
		_, err := agentsmd.Chain(dir, opts)
		var e *agentsmd.Error
		if !errors.As(err, &e) || e.Kind != agentsmd.KindInvalidArgument || !errors.Is(err, agentsmd.ErrInvalidArgument) {
			t.Errorf("%+v: Chain: %v, want an invalid-argument *Error", rule, err)
		}
		if s, err := agentsmd.NewSession(opts); !errors.Is(err, agentsmd.ErrInvalidArgument) {
			t.Errorf("%+v: NewSession: %v, want an invalid-argument error", rule, err)
			if s != nil {
				s.Close()
			}
		}
	}
	_, err := agentsmd.Chain(dir, agentsmd.Options{Root: dir, Rules: []agentsmd.RuleDir{{Dialect: agentsmd.DialectCline + 1, Dir: ".clinerules"}}})
	if err == nil || !strings.Contains(err.Error(), "Options.Rules[0]") {
		t.Errorf("an unknown dialect: %v, want it named", err)
	}

	// A walk dialect's directory that is a file: only where the walk
	// reaches it.
	dir = tree(t, map[string]string{"sub/.cursor/rules": "not a directory\n"})
	opts := agentsmd.Options{Root: dir, Rules: cursor.rules()}
	mustChain(t, in(dir, "x"), opts)
	if _, err := agentsmd.Chain(in(dir, "sub/x"), opts); err == nil || !strings.Contains(err.Error(), in(dir, "sub/.cursor/rules")) {
		t.Errorf("a rule directory that is a file: %v, want an error naming it", err)
	}
}

func TestSection11WordsOfDialectsSourcesAndOutcomes(t *testing.T) {
	words := map[fmt.Stringer]string{
		agentsmd.DialectClaude: "claude", agentsmd.DialectCursor: "cursor",
		agentsmd.DialectCopilot: "copilot", agentsmd.DialectWindsurf: "windsurf",
		agentsmd.DialectKiro: "kiro", agentsmd.DialectCline: "cline",
		agentsmd.Dialect(0): "Dialect(0)", agentsmd.Dialect(7): "Dialect(7)",
		agentsmd.SourceRule:        "rule",
		agentsmd.OutcomeNotMatched: "not_matched", agentsmd.OutcomeAvailable: "available",
	}
	for v, want := range words {
		if got := v.String(); got != want {
			t.Errorf("%#v.String() = %q, want %q", v, got, want)
		}
	}
}

// rulesJSON is the command line's --json object (or one of its touches)
// with --rules and --explain.
type rulesJSON struct {
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
	Probes []struct {
		Path    string `json:"path"`
		Source  string `json:"source"`
		Outcome string `json:"outcome"`
	} `json:"probes"`
	Available []agentsmd.Available `json:"available"`
	Warnings  []string             `json:"warnings"`
}

// result is the Result the object describes, each word read back by the
// String of the Go value that prints it.
func (object rulesJSON) result(t *testing.T) agentsmd.Result {
	t.Helper()
	sources := map[string]agentsmd.Source{}
	for s := agentsmd.SourceChain; s <= agentsmd.SourceRule; s++ {
		sources[s.String()] = s
	}
	outcomes := map[string]agentsmd.Outcome{}
	for o := agentsmd.OutcomeIncluded; o <= agentsmd.OutcomeAvailable; o++ {
		outcomes[o.String()] = o
	}
	reasons := map[string]agentsmd.Reason{"over_budget": agentsmd.OverBudget, "shadowed": agentsmd.Shadowed}
	word := func(what, w string, ok bool) {
		if !ok {
			t.Fatalf("--json gave %s %q", what, w)
		}
	}
	var res agentsmd.Result
	for _, f := range object.Files {
		source, ok := sources[f.Source]
		word("source", f.Source, ok)
		res.Files = append(res.Files, agentsmd.File{Path: f.Path, Content: f.Content, Source: source})
	}
	for _, o := range object.Omitted {
		reason, ok := reasons[o.Reason]
		word("reason", o.Reason, ok)
		res.Omitted = append(res.Omitted, agentsmd.Omitted{Path: o.Path, Size: o.Size, Reason: reason, By: o.By})
	}
	for _, p := range object.Probes {
		source, ok := sources[p.Source]
		word("source", p.Source, ok)
		outcome, ok := outcomes[p.Outcome]
		word("outcome", p.Outcome, ok)
		res.Probes = append(res.Probes, agentsmd.Probe{Path: p.Path, Source: source, Outcome: outcome})
	}
	// Go's lists are nil when empty; the command line's are [].
	if len(object.Available) > 0 {
		res.Available = object.Available
	}
	if len(object.Warnings) > 0 {
		res.Warnings = object.Warnings
	}
	return res
}

// The same tree through Chain and Session, and through the command line's
// --rules with --json: the same files, omitted files, probes, available
// rules and warnings, chain by chain and touch by touch.
func TestSection11SameAsTheCommandLine(t *testing.T) {
	command := cli(t)
	dir := tree(t, map[string]string{
		"AGENTS.md":                  "root\n",
		claude.file("", "always"):    "always\n",
		claude.file("", "go"):        "---\npaths: \"**/*.go\"\n---\ngo\n",
		claude.file("", "alias"):     "---\npaths: **/*.go\n---\nalias\n",
		copilot.file("", "ts"):       "---\napplyTo: \"**/*.TS\"\n---\nts\n",
		copilot.file("", "manual"):   "---\ndescription: By hand\n---\nmanual\n",
		kiro.file("", "k"):           "---\ninclusion: fileMatch\nfileMatchPattern: [\"*.py\"]\n---\npython\n",
		cline.file("", "c"):          "---\npaths: [\"web/**\"]\n---\nweb\n",
		"sub/AGENTS.md":              "sub\n",
		cursor.file("sub", "all"):    cursor.always + "sub always\n",
		cursor.file("sub", "pick"):   "---\ndescription: \"Pick: me\"\n---\npick\n",
		cursor.file("sub", "go"):     "---\nglobs: **/*.go\n---\nsub go\n",
		windsurf.file("sub", "w"):    "---\ntrigger: glob\nglobs: \"d/*.ts\"\n---\nwindsurf\n",
		windsurf.file("sub", "bad"):  "---\ntrigger: sometimes\n---\nbad trigger\n",
		windsurf.file("sub", "open"): "---\ntrigger: always_on\nunclosed\n",
	})
	rules := []agentsmd.RuleDir{}
	args := []string{"--root", dir, "--explain"}
	for _, d := range dialects {
		rules = append(rules, d.rules()...)
		args = append(args, "--rules", d.dialect.String()+":"+d.dir)
	}
	opts := agentsmd.Options{Root: dir, Rules: rules, Report: true}
	paths := []string{"x.txt", "sub/main.go", "sub/d/a.ts", "web/app.py", "sub/d/b.TS"}
	// seen counts what the results compared held, so that agreeing is
	// never vacuous.
	seen := map[string]int{}
	tally := func(res agentsmd.Result) {
		for _, f := range res.Files {
			seen[f.Source.String()]++
		}
		for _, o := range res.Omitted {
			seen[o.Reason.String()]++
		}
		for _, p := range res.Probes {
			seen[p.Outcome.String()]++
		}
		seen["Available"] += len(res.Available)
		seen["Warnings"] += len(res.Warnings)
	}
	defer func() {
		for _, what := range []string{"rule", "over budget", "not_matched", "available", "listed", "Available", "Warnings"} {
			if seen[what] == 0 {
				t.Errorf("no result compared held %s: %v", what, seen)
			}
		}
	}()
	for _, budget := range []int64{0, 40} {
		opts.Budget = budget
		more := args
		if budget != 0 {
			more = append(more, "--budget", fmt.Sprint(budget))
		}
		for _, path := range paths {
			res := mustChain(t, in(dir, path), opts)
			stdout, stderr, err := run(command, append([]string{in(dir, path), "--json"}, more...)...)
			if err != nil {
				t.Fatalf("%s: --json failed (%v):\n%s", path, err, stderr)
			}
			var object rulesJSON
			if err := json.Unmarshal([]byte(stdout), &object); err != nil {
				t.Fatalf("%s: --json printed %q: %v", path, stdout, err)
			}
			tally(res)
			if got := object.result(t); !reflect.DeepEqual(got, res) {
				t.Errorf("budget %d at %s: Go returned\n%+v\n--json printed\n%+v", budget, path, res, got)
			}
		}

		session, err := agentsmd.NewSession(opts)
		if err != nil {
			t.Fatal(err)
		}
		var deltas []agentsmd.Result
		touchArgs := []string{in(dir, paths[0]), "--json"}
		touchArgs = append(touchArgs, more...)
		touchArgs = append(touchArgs, "--touch")
		for _, path := range paths {
			deltas = append(deltas, mustTouch(t, session, in(dir, path)))
			if path != paths[0] {
				touchArgs = append(touchArgs, in(dir, path))
			}
		}
		session.Close()
		stdout, stderr, err := run(command, touchArgs...)
		if err != nil {
			t.Fatalf("--touch failed (%v):\n%s", err, stderr)
		}
		var object struct{ Touches []rulesJSON }
		if err := json.Unmarshal([]byte(stdout), &object); err != nil {
			t.Fatalf("--touch --json printed %q: %v", stdout, err)
		}
		if len(object.Touches) != len(deltas) {
			t.Fatalf("--touch gave %d touches, want %d", len(object.Touches), len(deltas))
		}
		for i, touch := range object.Touches {
			tally(deltas[i])
			if got := touch.result(t); !reflect.DeepEqual(got, deltas[i]) {
				t.Errorf("budget %d, touch %s: Go returned\n%+v\n--json printed\n%+v", budget, paths[i], deltas[i], got)
			}
		}
	}
}

// SPEC.md §11 over a BatchFS (§3.1): the rules read in batches are the rules
// read one question at a time.
func TestSection11RulesThroughABatchFS(t *testing.T) {
	files, deepest := deepTree(false)
	for _, holder := range []string{"", "d1", deepest} {
		files[cursor.file(holder, "all")] = file(cursor.always + "all of " + holder + "\n")
		files[cursor.file(holder, "nested/go")] = file("---\nglobs: \"*.go\"\n---\ngo of " + holder + "\n")
		files[cursor.file(holder, "pick")] = file("---\ndescription: Pick\n---\npick\n")
	}
	files[claude.file("", "c")] = file("---\npaths: **/*.go\n---\nclaude\n")
	opts := agentsmd.Options{Rules: append(claude.rules(), cursor.rules()...), Report: true}
	at := deepest + "/main.go"
	opts.FS = &countingFS{files: files}
	got := mustChain(t, at, opts)
	opts.FS = singleFS{files}
	want := mustChain(t, at, opts)
	if !reflect.DeepEqual(got, want) {
		t.Errorf("in batches\n%s\none question at a time\n%s", describe(got), describe(want))
	}
	if n := len(ruleContents(got)); n != 7 || len(got.Available) != 3 || len(got.Warnings) != 1 {
		t.Errorf("%d rules, %d available, %d warnings; want 7, 3 and 1\n%s", n, len(got.Available), len(got.Warnings), describe(got))
	}
}
