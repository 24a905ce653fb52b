package agentsmd_test

import (
	"fmt"
	"log"
	"testing/fstest"

	"github.com/agentsmd/agentsmd/go/agentsmd"
)

// A workspace that is not on the OS file system, handed over as an fs.FS:
// paths are names in it, "." its root.
func ExampleChain_fs() {
	workspace := fstest.MapFS{
		"AGENTS.md":                   {Data: []byte("root rules\n")},
		"services/AGENTS.override.md": {Data: []byte("services: staging only\n")},
		"services/AGENTS.md":          {Data: []byte("services rules\n")},
		"services/api/AGENTS.md":      {Data: []byte("api rules\n")},
	}
	res, err := agentsmd.Chain("services/api/handler.go", agentsmd.Options{
		FS:     workspace,
		Names:  []string{"AGENTS.override.md", "AGENTS.md"},
		Budget: 40,
	})
	if err != nil {
		log.Fatal(err)
	}
	for _, o := range res.Omitted { // what the model is not given, and why
		line := fmt.Sprintf("%s (%d bytes): %s", o.Path, o.Size, o.Reason)
		if o.Reason == agentsmd.Shadowed {
			line += " by " + o.By
		}
		fmt.Println(line)
	}
	fmt.Println(agentsmd.Render(res.Files)) // the prompt text, part agentsmd.PartID
	// Output:
	// services/AGENTS.md (15 bytes): shadowed by services/AGENTS.override.md
	// services/api/AGENTS.md (10 bytes): over budget
	// <project_context>
	// <project_instructions path="AGENTS.md">
	// root rules
	// </project_instructions>
	// <project_instructions path="services/AGENTS.override.md">
	// services: staging only
	// </project_instructions>
	// </project_context>
}
