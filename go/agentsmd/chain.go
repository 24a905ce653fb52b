package agentsmd

// #include <agentsmd.h>
import "C"

import "context"

// Chain returns the instruction files that apply at path: opts.Extra in
// order, then, in path's directory and each of its ancestors up to opts.Root,
// the first of opts.Names that the directory lists, farthest first and
// nearest last, within opts.Budget and opts.RenderedBudget. A file found and
// not included, because a preferred name shadows it or a budget is spent, is
// in Result.Omitted. A file is read only when its reported size fits the
// budgets, and the bounds apply to the bytes it reads: more than
// opts.MaxBytes is an error, and more than a budget has left omits it. A
// directory that cannot be listed is an error. path may be a directory, an
// existing file, or a file about to be created, whose directory is then the
// start. With opts.FS set, path is a name in it and the chain's files are
// named as they are in it.
//
// An error is an [*Error] naming the path it concerns, with its Kind, Path
// and Line. errors.Is matches the sentinel of its kind ([ErrTooLarge] for a
// file over MaxBytes, [ErrImport] for an import directive that cannot be
// expanded, …), the error opts.FS or opts.Transform returned when it failed,
// and the OS error (such as [io/fs.ErrPermission]) when the OS file system
// did. A panic in opts.FS or opts.Transform is raised again once the library
// has returned.
//
// Chain is [ChainContext] with [context.Background]: it runs to its end.
func Chain(path string, opts Options) (Result, error) {
	return ChainContext(context.Background(), path, opts)
}

// ChainContext is [Chain], stopped once ctx is done (SPEC.md §4): the chain
// asks its file system nothing more (a callback already running is answered
// first) and returns an [*Error] of kind [KindAborted], naming the path it
// was at and wrapping ctx.Err(), so that both errors.Is(err, [ErrAborted])
// and errors.Is(err, context.Canceled) (or context.DeadlineExceeded) hold.
// Everything the chain held is released by then. A ctx already done fails
// at once, before any question. An opts.FS that is a [BatchContextFS] is
// given ctx with each batch, and a batch that fails with ctx's error once ctx
// is done is the same KindAborted error.
//
// ctx stops the chain through the library: a goroutine requests its
// cancellation when ctx is done, and so does every callback of opts.FS that
// returns after ctx is done, so a callback that cancels ctx itself stops the
// chain before the next question.
func ChainContext(ctx context.Context, path string, opts Options) (Result, error) {
	res, states, err := chain(ctx, path, &opts)
	// The library has returned and released opts.FS and opts.Transform by
	// now: a panic of either can go on in Go.
	for _, state := range states {
		if state != nil && state.panicked {
			panic(state.panicValue)
		}
	}
	return res, err
}

// chain is ChainContext up to the panic of opts.FS or opts.Transform, which
// it returns in their callback states.
func chain(ctx context.Context, path string, opts *Options) (Result, []*callbackState, error) {
	options, err := newCOptions(opts)
	if err != nil {
		return Result{}, nil, err
	}
	defer options.free()
	stop, err := options.cancelWhenDone(ctx)
	if err != nil {
		return Result{}, nil, err
	}
	defer stop()
	states := options.states()
	var res *C.agentsmd_result
	var cerr *C.agentsmd_error
	cpath, cpathLen := cBytes(path)
	status := C.agentsmd_chain(cpath, cpathLen, options.handle, &res, &cerr)
	if err := errorOf(status, cerr, states...); err != nil {
		return Result{}, states, abortedBy(ctx, err)
	}
	defer C.agentsmd_result_free(res)
	out, err := goResult(res)
	if err == nil && opts.Preset != "" {
		out.Rendered, err = presetRendering(options, path, res)
	}
	if err != nil {
		return Result{}, states, err
	}
	return out, states, nil
}

// presetRendering is the rendering of res, the chain at path, as the preset
// of options renders it (SPEC.md §12).
func presetRendering(options *cOptions, path string, res *C.agentsmd_result) (string, error) {
	var buffer *C.agentsmd_buffer
	var cerr *C.agentsmd_error
	cpath, cpathLen := cBytes(path)
	if err := errorOf(C.agentsmd_preset_render(options.handle, cpath, cpathLen, res, &buffer, &cerr), cerr, nil); err != nil {
		return "", err
	}
	defer C.agentsmd_buffer_free(buffer)
	return goString(C.agentsmd_bytes{
		ptr: C.agentsmd_buffer_data(buffer),
		len: C.agentsmd_buffer_len(buffer),
	}), nil
}
