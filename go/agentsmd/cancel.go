package agentsmd

// #include <agentsmd.h>
import "C"

import (
	"context"
	"errors"
	"fmt"
)

// canceller requests the library's cancellation of the chains run with one
// options handle once ctx is done.
type canceller struct {
	ctx    context.Context
	handle *C.agentsmd_cancel
}

// requestIfDone requests the cancellation at once when ctx is done, rather
// than when the goroutine watching ctx gets to run: before a chain starts,
// and as each callback of the file system returns.
func (k *canceller) requestIfDone() {
	if k.ctx.Err() != nil {
		C.agentsmd_cancel_request(k.handle)
	}
}

// cancelWhenDone gives the options a cancellation token that is requested
// once ctx is done, and returns the function that stops watching ctx and
// frees the token, to call once the chains run with the options have
// returned. A ctx that is never done ([context.Background]) needs no token.
func (c *cOptions) cancelWhenDone(ctx context.Context) (stop func(), err error) {
	handle, stop, err := c.watch(ctx)
	if err != nil || handle == nil {
		return stop, err
	}
	var cerr *C.agentsmd_error
	if err := errorOf(C.agentsmd_options_set_cancel(c.handle, handle, &cerr), cerr); err != nil {
		stop()
		return nil, err
	}
	return stop, nil
}

// watch returns a cancellation token that is requested once ctx is done (nil
// for a ctx that is never done), which the options' file system also
// requests as each of its callbacks returns after ctx is done, and the
// function that stops watching ctx and frees the token.
func (c *cOptions) watch(ctx context.Context) (handle *C.agentsmd_cancel, stop func(), err error) {
	if c.bridge != nil {
		c.bridge.ctx = ctx
		c.bridge.canceller = nil
	}
	if ctx.Done() == nil {
		return nil, func() {}, nil
	}
	handle = C.agentsmd_cancel_new()
	if handle == nil {
		return nil, nil, fmt.Errorf("agentsmd: the library failed to allocate a cancellation token")
	}
	k := &canceller{ctx: ctx, handle: handle}
	if c.bridge != nil {
		c.bridge.canceller = k
	}
	requested := make(chan struct{})
	stopWatching := context.AfterFunc(ctx, func() {
		C.agentsmd_cancel_request(handle)
		close(requested)
	})
	k.requestIfDone()
	return handle, func() {
		// The request may be running on the AfterFunc's goroutine: the token
		// is freed once it has returned.
		if !stopWatching() {
			<-requested
		}
		if c.bridge != nil {
			c.bridge.canceller = nil
		}
		C.agentsmd_cancel_free(handle)
	}, nil
}

// abortedBy is err, the error of a chain run with ctx, as a [KindAborted]
// error wrapping ctx.Err() when ctx stopped it: the library stopped it between
// questions, or a [BatchContextFS] failed with ctx's error.
func abortedBy(ctx context.Context, err error) error {
	e, ok := err.(*Error)
	if !ok || ctx.Err() == nil || (e.Kind != KindAborted && !errors.Is(e, ctx.Err())) {
		return err
	}
	e.Kind = KindAborted
	if !errors.Is(e, ctx.Err()) {
		e.wrapped = append(e.wrapped, ctx.Err())
	}
	return e
}
