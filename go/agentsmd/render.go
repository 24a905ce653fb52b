package agentsmd

// #include <agentsmd.h>
import "C"

// PartID is the stable identifier of the one instructions part Render
// produces, for a product that records what the model was given as parts
// rather than as one string. The text of the part changes whenever the
// working directory moves or a file is edited; the identifier does not, so a
// reader can tell that this part moved and the others did not. A file
// considered and left out is named by its own Omitted.Path.
const PartID = "agentsmd"

// Render wraps the files as pi does: one project_instructions element per
// file, with its path as the attribute, inside project_context, in order, so
// the nearest file is last and refines the rest. No files render as the empty
// string.
//
// The result is one instructions part, whose identifier is PartID: a product
// that hands its instructions to a session in parts hands it this whole
// string under that id, not one part per file.
//
// The bytes are the library's own rendering, the same as every other
// language's binding and the command line produce for the same files.
func Render(files []File) string {
	array, arena := cFiles(files)
	defer arena.free()
	var buffer *C.agentsmd_buffer
	var cerr *C.agentsmd_error
	if err := errorOf(C.agentsmd_render(array, C.size_t(len(files)), &buffer, &cerr), cerr, nil); err != nil {
		// Every pointer here is valid, so only a bug in the library fails.
		panic(err)
	}
	defer C.agentsmd_buffer_free(buffer)
	return goString(C.agentsmd_bytes{
		ptr: C.agentsmd_buffer_data(buffer),
		len: C.agentsmd_buffer_len(buffer),
	})
}
