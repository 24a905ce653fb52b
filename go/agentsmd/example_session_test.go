package agentsmd_test

import (
	"fmt"
	"io/fs"
	"log"
	"testing/fstest"

	"github.com/agentsmd/agentsmd/go/agentsmd"
)

// A product's read tool, wired to a session (SPEC.md §10): each read answers
// the file's text and, after it, the instructions that newly apply there, so
// that a nested AGENTS.md reaches the model the first time the agent works
// below it, and never twice. The edit and list tools call Touch the same
// way, with the path they edit or list.
func ExampleSession() {
	repo := fstest.MapFS{
		"AGENTS.md":              {Data: []byte("Run go test before you commit.\n")},
		"services/api/AGENTS.md": {Data: []byte("The API speaks JSON only.\n")},
		"services/api/main.go":   {Data: []byte("package main\n")},
		"services/api/routes.go": {Data: []byte("package main // routes\n")},
	}
	session, err := agentsmd.NewSession(agentsmd.Options{FS: repo})
	if err != nil {
		log.Fatal(err)
	}
	defer session.Close()
	read := func(name string) string {
		text, err := fs.ReadFile(repo, name)
		if err != nil {
			return err.Error()
		}
		delta, err := session.Touch(name)
		if err != nil {
			return err.Error()
		}
		return string(text) + agentsmd.Render(delta.Files)
	}
	fmt.Println(read("services/api/main.go"))
	fmt.Println("--")
	fmt.Println(read("services/api/routes.go")) // nothing new applies
	// Output:
	// package main
	// <project_context>
	// <project_instructions path="AGENTS.md">
	// Run go test before you commit.
	// </project_instructions>
	// <project_instructions path="services/api/AGENTS.md">
	// The API speaks JSON only.
	// </project_instructions>
	// </project_context>
	// --
	// package main // routes
}
