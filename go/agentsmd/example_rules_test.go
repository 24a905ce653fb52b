package agentsmd_test

import (
	"fmt"
	"log"
	"testing/fstest"

	"github.com/agentsmd/agentsmd/go/agentsmd"
)

// Cursor's rules (SPEC.md §11) in a session: the rule that applies always
// comes with the first touch, the Go rule with the first touch of a Go file
// and never again, and the rule on request is offered, not given.
func ExampleRuleDir() {
	repo := fstest.MapFS{
		"AGENTS.md":               {Data: []byte("Run go test before you commit.\n")},
		".cursor/rules/style.mdc": {Data: []byte("---\nalwaysApply: true\n---\nNo emoji in comments.\n")},
		".cursor/rules/go.mdc":    {Data: []byte("---\nglobs: \"*.go\"\n---\nWrap errors with %w.\n")},
		".cursor/rules/sql.mdc":   {Data: []byte("---\ndescription: Writing SQL migrations\n---\nMigrations only add.\n")},
		"README.md":               {Data: []byte("# repo\n")},
		"cmd/main.go":             {Data: []byte("package main\n")},
		"cmd/util.go":             {Data: []byte("package main // util\n")},
	}
	session, err := agentsmd.NewSession(agentsmd.Options{
		FS:    repo,
		Rules: []agentsmd.RuleDir{{Dialect: agentsmd.DialectCursor, Dir: ".cursor/rules"}},
	})
	if err != nil {
		log.Fatal(err)
	}
	defer session.Close()
	for _, path := range []string{"README.md", "cmd/main.go", "cmd/util.go"} {
		delta, err := session.Touch(path)
		if err != nil {
			log.Fatal(err)
		}
		fmt.Printf("%s:", path)
		for _, f := range delta.Files {
			fmt.Printf(" %s (%s)", f.Path, f.Source)
		}
		for _, a := range delta.Available { // for the model to ask for, or the user as @name
			fmt.Printf(" [on request: @%s, %s]", a.Name, a.Description)
		}
		fmt.Println()
	}
	// Output:
	// README.md: AGENTS.md (chain) .cursor/rules/style.mdc (rule) [on request: @sql, Writing SQL migrations]
	// cmd/main.go: .cursor/rules/go.mdc (rule)
	// cmd/util.go:
}
