package agentsmd_test

import (
	"fmt"

	"github.com/agentsmd/agentsmd/go/agentsmd"
)

// The golden example of SPEC.md: a path's special characters are escaped, the
// content is verbatim, and a file not ending in a newline gets one.
func ExampleRender() {
	fmt.Println(agentsmd.Render([]agentsmd.File{
		{Path: "/r/AGENTS.md", Content: "root rules\n"},
		{Path: `/r/a "b"/AGENTS.md`, Content: "leaf & <x>"},
	}))
	// Output:
	// <project_context>
	// <project_instructions path="/r/AGENTS.md">
	// root rules
	// </project_instructions>
	// <project_instructions path="/r/a &quot;b&quot;/AGENTS.md">
	// leaf & <x>
	// </project_instructions>
	// </project_context>
}
