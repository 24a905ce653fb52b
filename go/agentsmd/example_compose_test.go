package agentsmd_test

import (
	"fmt"
	"log"
	"testing/fstest"

	"github.com/agentsmd/agentsmd/go/agentsmd"
)

// Composition (SPEC.md §5): fragment directories, imports, an interpolator
// fed only the names the product shares, and a report of every place looked
// at.
func ExampleChain_compose() {
	workspace := fstest.MapFS{
		"AGENTS.md":                  {Data: []byte("root rules\n@docs/style.md\n")},
		"docs/style.md":              {Data: []byte("style for ${env:TEAM}\n")},
		"api/.agents/AGENTS.d/db.md": {Data: []byte("db rules\n")},
	}
	res, err := agentsmd.Chain("api/handler.go", agentsmd.Options{
		FS:        workspace,
		Fragments: []string{".agents/AGENTS.d"},
		Imports:   true,
		Env:       map[string]string{"TEAM": "payments"},
		Report:    true,
	})
	if err != nil {
		log.Fatal(err)
	}
	for _, f := range res.Files {
		fmt.Printf("%s (%s): %q\n", f.Path, f.Source, f.Content)
	}
	for _, i := range res.Imports {
		fmt.Printf("%s imported by %s:%d\n", i.Path, i.By, i.Line)
	}
	for _, p := range res.Probes {
		fmt.Printf("probe %s (%s): %s\n", p.Path, p.Source, p.Outcome)
	}
	// Output:
	// AGENTS.md (chain): "root rules\nstyle for payments\n"
	// api/.agents/AGENTS.d/db.md (fragment): "db rules\n"
	// docs/style.md imported by AGENTS.md:2
	// probe AGENTS.md (chain): included
	// probe docs/style.md (chain): imported
	// probe .agents/AGENTS.d (fragment): not_found
	// probe api/AGENTS.md (chain): not_found
	// probe api/.agents/AGENTS.d (fragment): listed
	// probe api/.agents/AGENTS.d/db.md (fragment): included
}
