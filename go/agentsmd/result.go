package agentsmd

// #include <agentsmd.h>
import "C"

import (
	"fmt"
)

// File is one instruction file, read verbatim.
type File struct {
	// Path is absolute, or, for a file of the chain read through
	// [Options.FS], its name in that FS. A product that shows the
	// file somewhere else maps the name to what it shows, such as a
	// workspace's root joined with it, before [Render]; that changes
	// the rendered size, which [Options.RenderedBudget] counts with the
	// path as Chain returned it.
	Path string
	// Content is the file's bytes as a string: with Options.Imports, after
	// its imports are expanded, and with Options.Transform or Options.Env,
	// as the transform returned it.
	Content string
	// Source is where the file comes from: [SourceExtra], [SourceChain]
	// (the zero value), [SourceFragment], [SourceOverlay] or [SourceRule].
	// [Render] ignores it.
	Source Source
}

// Reason is why Chain left a file out.
type Reason int

const (
	// OverBudget: the file, or one before it, would have taken the
	// total over Options.Budget, or the rendering over
	// Options.RenderedBudget, and the chain ends at the first such
	// file.
	OverBudget Reason = iota
	// Shadowed: an earlier name in Options.Names exists in the same
	// directory and stands for it.
	Shadowed
	// Escapes: with Options.Confine, a symbolic link that leads out of
	// Options.Root, so nothing was read through it: an instruction
	// file's name, or a directory of the walk whose files and
	// subdirectories were then not looked up. Its Size is 0.
	Escapes
	// Duplicate: a file already in the result, so not read again: with
	// Options.Imports, one imported into an earlier file of the result, By
	// being the file whose directive imported it; or a path that is already
	// a file of the result (an overlay given twice, or one that is a
	// directory of the walk), By being its own path.
	Duplicate
	// Superseded: with Options.Nearest, a directory's file other than the
	// nearest one, not read. By is the nearest file, and Size the size
	// the file system reported.
	Superseded
	// Empty: with Options.Preset, a file the product drops as empty or
	// whitespace only (SPEC.md §12).
	Empty
	// Truncated: with Options.Preset, a file the product cuts (SPEC.md
	// §12): it is also in [Result.Files] with its cut text, and Size is
	// the bytes left out.
	Truncated
)

// String is the reason in words: "over budget", "shadowed", "escapes root",
// "duplicate", "superseded", "empty" or "truncated".
func (r Reason) String() string {
	switch r {
	case OverBudget:
		return "over budget"
	case Shadowed:
		return "shadowed"
	case Escapes:
		return "escapes root"
	case Duplicate:
		return "duplicate"
	case Superseded:
		return "superseded"
	case Empty:
		return "empty"
	case Truncated:
		return "truncated"
	default:
		return fmt.Sprintf("Reason(%d)", int(r))
	}
}

// Omitted is one file Chain found and left out. A product recording what the
// model was given as parts, beside the part Render produces, names an omitted
// file by its Path, which is the stable key for the file across runs.
type Omitted struct {
	// Path is absolute, or the name in [Options.FS] as for
	// [File.Path], and is the omitted file's stable key.
	Path string
	// Size is the file's size in bytes: the bytes read, for a file
	// Chain read and left out over budget; 0 for [Escapes]; and
	// otherwise the size the file system reported.
	Size int64
	// Reason says why the file is not in [Result.Files].
	Reason Reason
	// By is the path of the file that took this one's place, for
	// [Shadowed] and [Superseded]; of the file that imported it, or its own
	// path, for [Duplicate]; "" otherwise.
	By string
}

// Result is what Chain found: the files that apply, in order, and the files
// it saw and left out, so a product can record or show exactly what the model
// was given and what it was not.
type Result struct {
	// Files are the instruction files to include: Options.Extra first,
	// then the chain farthest first and nearest last, so the nearest
	// file is the last text the model reads and wins.
	Files []File
	// Omitted are the files Chain found and did not include, in the
	// order it met them.
	Omitted []Omitted
	// Imports are, with Options.Imports, the directives expanded into
	// the files, in the order met (an import before the imports inside
	// it); nil without it.
	Imports []Import
	// Probes are, with Options.Report, every place Chain looked at, in
	// the order it looked; nil without it.
	Probes []Probe
	// Available are, with Options.Rules, the rules that apply only on
	// request (SPEC.md §11), in the order met; nil when none.
	Available []Available
	// Warnings are, with Options.Rules, what a rule file could not be read
	// as, each "PATH: message", PATH the rule file's as [File.Path] spells
	// it; nil when none.
	Warnings []string
	// Rendered is, with Options.Preset, the piece of what the product
	// sends its model that holds Files (SPEC.md §12), byte for byte what
	// `agentsmd PATH --as NAME` prints: "" when the product loads nothing.
	// Chain sets it; without a preset, and for a [Session]'s touch, it is
	// "" and [Render] renders Files.
	Rendered string
}

// goResult copies the library's result into Go memory.
func goResult(res *C.agentsmd_result) (Result, error) {
	var out Result
	for i := C.size_t(0); i < C.agentsmd_result_file_count(res); i++ {
		var f C.agentsmd_file
		var cerr *C.agentsmd_error
		if err := errorOf(C.agentsmd_result_file(res, i, &f, &cerr), cerr, nil); err != nil {
			return Result{}, err
		}
		var csource C.agentsmd_source
		if err := errorOf(C.agentsmd_result_file_source(res, i, &csource, &cerr), cerr, nil); err != nil {
			return Result{}, err
		}
		source, err := goSource(csource)
		if err != nil {
			return Result{}, err
		}
		out.Files = append(out.Files, File{Path: goString(f.path), Content: goString(f.content), Source: source})
	}
	for i := C.size_t(0); i < C.agentsmd_result_omitted_count(res); i++ {
		var o C.agentsmd_omitted
		var cerr *C.agentsmd_error
		if err := errorOf(C.agentsmd_result_omitted(res, i, &o, &cerr), cerr, nil); err != nil {
			return Result{}, err
		}
		var reason Reason
		switch o.reason {
		case C.AGENTSMD_REASON_OVER_BUDGET:
			reason = OverBudget
		case C.AGENTSMD_REASON_SHADOWED:
			reason = Shadowed
		case C.AGENTSMD_REASON_ESCAPES:
			reason = Escapes
		case C.AGENTSMD_REASON_DUPLICATE:
			reason = Duplicate
		case C.AGENTSMD_REASON_SUPERSEDED:
			reason = Superseded
		case C.AGENTSMD_REASON_EMPTY:
			reason = Empty
		case C.AGENTSMD_REASON_TRUNCATED:
			reason = Truncated
		default:
			return Result{}, fmt.Errorf("agentsmd: the library gave reason %d, which this package does not know", o.reason)
		}
		out.Omitted = append(out.Omitted, Omitted{
			Path:   goString(o.path),
			Size:   int64(o.size),
			Reason: reason,
			By:     goString(o.by),
		})
	}
	for i := C.size_t(0); i < C.agentsmd_result_import_count(res); i++ {
		var imp C.agentsmd_import
		var cerr *C.agentsmd_error
		if err := errorOf(C.agentsmd_result_import(res, i, &imp, &cerr), cerr, nil); err != nil {
			return Result{}, err
		}
		out.Imports = append(out.Imports, Import{
			Path:      goString(imp.path),
			By:        goString(imp.by),
			Line:      int64(imp.line),
			Depth:     int(imp.depth),
			Size:      int64(imp.size),
			Duplicate: imp.duplicate != 0,
		})
	}
	for i := C.size_t(0); i < C.agentsmd_result_probe_count(res); i++ {
		var p C.agentsmd_probe
		var cerr *C.agentsmd_error
		if err := errorOf(C.agentsmd_result_probe(res, i, &p, &cerr), cerr, nil); err != nil {
			return Result{}, err
		}
		source, err := goSource(p.source)
		if err != nil {
			return Result{}, err
		}
		outcome, ok := outcomes[p.outcome]
		if !ok {
			return Result{}, fmt.Errorf("agentsmd: the library gave outcome %d, which this package does not know", p.outcome)
		}
		out.Probes = append(out.Probes, Probe{Path: goString(p.path), Source: source, Outcome: outcome})
	}
	for i := C.size_t(0); i < C.agentsmd_result_available_count(res); i++ {
		var a C.agentsmd_available
		var cerr *C.agentsmd_error
		if err := errorOf(C.agentsmd_result_available(res, i, &a, &cerr), cerr, nil); err != nil {
			return Result{}, err
		}
		out.Available = append(out.Available, Available{
			Path:        goString(a.path),
			Name:        goString(a.name),
			Description: goString(a.description),
		})
	}
	for i := C.size_t(0); i < C.agentsmd_result_warning_count(res); i++ {
		var w C.agentsmd_bytes
		var cerr *C.agentsmd_error
		if err := errorOf(C.agentsmd_result_warning(res, i, &w, &cerr), cerr, nil); err != nil {
			return Result{}, err
		}
		out.Warnings = append(out.Warnings, goString(w))
	}
	return out, nil
}
