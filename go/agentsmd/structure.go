package agentsmd

// #include <agentsmd.h>
import "C"

import (
	"fmt"
	"runtime"
	"unsafe"
)

// DefaultCap is the cap of a block when BlockOptions.Cap is 0, in bytes.
const DefaultCap = C.AGENTSMD_DEFAULT_CAP

// MinCap is the smallest cap in force: a lower BlockOptions.Cap is raised to it.
const MinCap = C.AGENTSMD_MIN_CAP

// DefaultHeading is the first line of a block when BlockOptions.Heading is "".
const DefaultHeading = C.AGENTSMD_DEFAULT_HEADING

// Document is one instruction file read for its structure (SPEC.md §6): the
// skills its front matter requests, resolved, and its body split into units
// at its level-1 and level-2 headings outside code blocks. [Document.Block]
// renders it within a cap that keeps whole units.
type Document struct {
	// Path is where the text was read from: an OS path, made absolute and
	// clean, or a name in [Options.FS]; "" for text of no file (and for no
	// nearest file).
	Path string
	// Requested are the skill names requested, Options.Skills or else the
	// front matter's, repeats removed, in order.
	Requested []string
	// Skills are the requested skills that resolved, in request order.
	Skills []Skill
	// Unknown are the requested names that neither an inline section nor a
	// file defines (or that are no path element and have no inline
	// section), in request order: reported, not an error.
	Unknown []string
	// Units are the body's units: the preamble, then each section.
	Units []Unit
	// Warnings are what in the text was not what it looked like, said
	// rather than failed on, in order of the lines.
	Warnings []Warning

	// doc is the library's document, which Block renders.
	doc *cDocument
}

// Skill is a requested skill that resolved.
type Skill struct {
	// Name is the name as requested.
	Name string
	// Text is the skill's text: blank lines around it removed, ending in
	// one "\n" (empty when blank).
	Text string
	// Path is the skills/NAME.md file it was read from (an OS path, or a
	// name in [Options.FS]); "" for an inline "## Skill: NAME" section.
	Path string
}

// Unit is one unit of the body: the preamble (the lines before the first
// level-1 or level-2 heading) or a section (such a heading and the lines up
// to the next).
type Unit struct {
	// Preamble says the unit is the preamble, which has no title.
	Preamble bool
	// Title is a section's heading text, "#"s and surrounding blanks
	// removed; a heading of only "#"s has the empty title.
	Title string
	// Text is the unit's lines, blank lines around them removed, ending in
	// one "\n"; never empty.
	Text string
}

// Warning is something in the text that was not what it looked like: a
// front matter left unclosed or malformed, a skill defined twice.
type Warning struct {
	// Line is the line of the file it is about, 1-based.
	Line int
	// Message says what is wrong, and what was done instead.
	Message string
}

// String is the warning as "line N: message".
func (w Warning) String() string {
	return fmt.Sprintf("line %d: %s", w.Line, w.Message)
}

// BlockOptions shape [Document.Block]. The zero value is SPEC.md's defaults.
type BlockOptions struct {
	// Cap is the most bytes of the block, its warning line aside; 0 means
	// [DefaultCap], and a value under [MinCap] is raised to it. Negative
	// is an error.
	Cap int
	// Heading is the first line of the block; "" means [DefaultHeading]
	// unless NoHeading is set.
	Heading string
	// NoHeading makes the heading empty: the block then starts with the
	// blank line that follows it.
	NoHeading bool
	// Preamble is a paragraph after the heading; "" means none.
	Preamble string
	// Name is the file's name in the warning; "" means the base name of
	// Document.Path, else "AGENTS.md".
	Name string
	// Where is where the full file is, in the warning; "" means
	// Document.Path, else Name.
	Where string
}

// Block is the bounded rendering of a document, and what it left out.
type Block struct {
	// Text is the bytes to put in the prompt: "" when the document has no
	// unit and resolved no skill.
	Text string
	// Cap is the cap in force.
	Cap int
	// Dropped are the units left out, in order, for the product's log.
	Dropped []Dropped
}

// Dropped is a unit a block left out.
type Dropped struct {
	// Title is a section's title, "(preamble)", or "skill: NAME".
	Title string
	// Bytes is its rendered length (a skill's "### NAME\n\n" and text,
	// never the "## Requested Skills" header).
	Bytes int
}

// cDocument owns the library's document until the garbage collector finds
// it unreachable: a Document is a plain value, copied and dropped freely.
type cDocument struct {
	handle *C.agentsmd_document
}

func newCDocument(handle *C.agentsmd_document) *cDocument {
	doc := &cDocument{handle: handle}
	runtime.SetFinalizer(doc, func(doc *cDocument) { C.agentsmd_document_free(doc.handle) })
	return doc
}

// Parse reads text as the instruction file at path (SPEC.md §6.1) and
// resolves the skills it requests (§6.2): each to its inline
// "## Skill: NAME" section, else to the file skills/NAME.md beside path, read
// through the chain's file system of opts — opts.FS, else the OS, beneath
// opts.Root when opts.Confine is set — at most opts.MaxBytes; Options.Skills,
// when not nil, replaces the front matter's names. Confined, a skill file
// outside Root, or whose link leads out of it, is not read: its name is
// Unknown, with a Warning naming the file. path is checked as [Chain] checks
// its path; "" is text of no file: only inline skills resolve.
//
// What is malformed in the text is a [Warning], not an error: Parse fails
// only when reading a skill file does (a file over MaxBytes matches
// [ErrTooLarge]), when path is no valid path or name of opts.FS, or when opts
// confine to the root "/".
func Parse(text, path string, opts Options) (*Document, error) {
	return withPanic(func(options *cOptions, skills *C.agentsmd_bytes, handle **C.agentsmd_document, cerr **C.agentsmd_error) C.agentsmd_status {
		ctext, ctextLen := cBytes(text)
		cpath, cpathLen := cBytes(path)
		if path == "" {
			cpath = nil
		}
		return C.agentsmd_parse(ctext, ctextLen, cpath, cpathLen, options.handle, skills,
			C.size_t(len(opts.Skills)), handle, cerr)
	}, &opts)
}

// ParseNearest parses the nearest instruction file at path (SPEC.md §6.5):
// [Chain] with opts, Nearest set and Extra ignored (the user's own files are
// not the project's), then [Parse] of its last file of source [SourceChain]
// (the text the chain read), resolving its skills beside it through the same
// file system, confined when opts confine. Fragments and overlays never stand
// for it. A path outside opts.Root is Chain's error, found before anything is
// read. With no file found, or the nearest one over a budget (an ancestor's
// never stands for it), the document has no path and no text.
func ParseNearest(path string, opts Options) (*Document, error) {
	doc, err := withPanic(func(options *cOptions, skills *C.agentsmd_bytes, handle **C.agentsmd_document, cerr **C.agentsmd_error) C.agentsmd_status {
		cpath, cpathLen := cBytes(path)
		return C.agentsmd_parse_nearest(cpath, cpathLen, options.handle, skills,
			C.size_t(len(opts.Skills)), handle, cerr)
	}, &opts)
	if doc == nil && err == nil {
		// No nearest file: the document of no text, which renders nothing.
		return Parse("", "", opts)
	}
	return doc, err
}

// withPanic is parse, then the panic of opts.FS raised again in the caller.
func withPanic(call parseCall, opts *Options) (*Document, error) {
	doc, bridge, err := parse(call, opts)
	if bridge != nil && bridge.panicked {
		panic(bridge.panicValue)
	}
	return doc, err
}

// parseCall is the library's call that makes a document: agentsmd_parse or
// agentsmd_parse_nearest, given the options and the caller's skills.
type parseCall func(options *cOptions, skills *C.agentsmd_bytes, handle **C.agentsmd_document, cerr **C.agentsmd_error) C.agentsmd_status

// parse runs call with opts up to the panic of opts.FS, which it returns in
// the bridge. A NULL document (no nearest file) is a nil *Document.
func parse(call parseCall, opts *Options) (*Document, *fsBridge, error) {
	options, err := newCOptions(opts)
	if err != nil {
		return nil, nil, err
	}
	defer options.free()
	var skills *C.agentsmd_bytes
	if opts.Skills != nil {
		array, arena := cBytesList(opts.Skills)
		defer arena.free()
		skills = array
	}
	var handle *C.agentsmd_document
	var cerr *C.agentsmd_error
	status := call(options, skills, &handle, &cerr)
	if err := errorOf(status, cerr, options.states()...); err != nil {
		return nil, options.bridge, err
	}
	if handle == nil {
		return nil, options.bridge, nil
	}
	doc := &Document{doc: newCDocument(handle)}
	var path C.agentsmd_bytes
	if err := errorOf(C.agentsmd_document_path(handle, &path, &cerr), cerr); err != nil {
		return nil, options.bridge, err
	}
	doc.Path = goString(path)
	err = doc.copyOut()
	runtime.KeepAlive(doc.doc)
	if err != nil {
		return nil, options.bridge, err
	}
	return doc, options.bridge, nil
}

// copyOut copies the library's document into the Go fields.
func (d *Document) copyOut() error {
	h := d.doc.handle
	var cerr *C.agentsmd_error
	for i := C.size_t(0); i < C.agentsmd_document_requested_count(h); i++ {
		var name C.agentsmd_bytes
		if err := errorOf(C.agentsmd_document_requested(h, i, &name, &cerr), cerr, nil); err != nil {
			return err
		}
		d.Requested = append(d.Requested, goString(name))
	}
	for i := C.size_t(0); i < C.agentsmd_document_skill_count(h); i++ {
		var skill C.agentsmd_skill
		if err := errorOf(C.agentsmd_document_skill(h, i, &skill, &cerr), cerr, nil); err != nil {
			return err
		}
		d.Skills = append(d.Skills, Skill{
			Name: goString(skill.name),
			Text: goString(skill.text),
			Path: goString(skill.path),
		})
	}
	for i := C.size_t(0); i < C.agentsmd_document_unknown_count(h); i++ {
		var name C.agentsmd_bytes
		if err := errorOf(C.agentsmd_document_unknown(h, i, &name, &cerr), cerr, nil); err != nil {
			return err
		}
		d.Unknown = append(d.Unknown, goString(name))
	}
	for i := C.size_t(0); i < C.agentsmd_document_unit_count(h); i++ {
		var unit C.agentsmd_unit
		if err := errorOf(C.agentsmd_document_unit(h, i, &unit, &cerr), cerr, nil); err != nil {
			return err
		}
		d.Units = append(d.Units, Unit{
			Preamble: unit.title.ptr == nil,
			Title:    goString(unit.title),
			Text:     goString(unit.text),
		})
	}
	for i := C.size_t(0); i < C.agentsmd_document_warning_count(h); i++ {
		var warning C.agentsmd_warning
		if err := errorOf(C.agentsmd_document_warning(h, i, &warning, &cerr), cerr, nil); err != nil {
			return err
		}
		d.Warnings = append(d.Warnings, Warning{
			Line:    int(warning.line),
			Message: goString(warning.message),
		})
	}
	return nil
}

// Block renders the document's units, then its resolved skills, within
// opts.Cap (SPEC.md §6.3): whole units in order while they fit, each that
// does not dropped whole (later, smaller ones are still tried), and one
// warning line before the kept units that says what is missing and where to
// read it. A Document not made by Parse or ParseNearest is an error.
func (d *Document) Block(opts BlockOptions) (Block, error) {
	if d == nil || d.doc == nil {
		return Block{}, fmt.Errorf("agentsmd: Block of a Document that Parse did not make")
	}
	if opts.Cap < 0 {
		return Block{}, invalidArgument("BlockOptions.Cap is negative (%d)", opts.Cap)
	}
	// In C memory, as the cgo rules ask of a struct that points to bytes;
	// freed when the call returns. A byte string left NULL takes the default.
	arena := newArena(1, unsafe.Sizeof(C.agentsmd_block_options{}),
		len(opts.Heading)+len(opts.Preamble)+len(opts.Name)+len(opts.Where))
	defer arena.free()
	copts := (*C.agentsmd_block_options)(arena.base)
	*copts = C.agentsmd_block_options{cap: C.size_t(opts.Cap)}
	switch {
	case opts.NoHeading:
		copts.heading = arena.put("")
	case opts.Heading != "":
		copts.heading = arena.put(opts.Heading)
	}
	if opts.Preamble != "" {
		copts.preamble = arena.put(opts.Preamble)
	}
	if opts.Name != "" {
		copts.name = arena.put(opts.Name)
	}
	if opts.Where != "" {
		copts.where = arena.put(opts.Where)
	}
	var handle *C.agentsmd_block
	var cerr *C.agentsmd_error
	status := C.agentsmd_document_block(d.doc.handle, copts, &handle, &cerr)
	runtime.KeepAlive(d.doc)
	if err := errorOf(status, cerr, nil); err != nil {
		return Block{}, err
	}
	defer C.agentsmd_block_free(handle)
	out := Block{
		Text: goString(C.agentsmd_bytes{
			ptr: C.agentsmd_block_data(handle),
			len: C.agentsmd_block_len(handle),
		}),
		Cap: int(C.agentsmd_block_cap(handle)),
	}
	for i := C.size_t(0); i < C.agentsmd_block_dropped_count(handle); i++ {
		var dropped C.agentsmd_dropped
		if err := errorOf(C.agentsmd_block_dropped(handle, i, &dropped, &cerr), cerr, nil); err != nil {
			return Block{}, err
		}
		out.Dropped = append(out.Dropped, Dropped{Title: goString(dropped.title), Bytes: int(dropped.bytes)})
	}
	return out, nil
}
