package mcp

import (
	"context"
	"errors"
	"strconv"
	"sync"
)

// AskAll makes several requests of the client at once and waits for all
// of them. Each ask is a function that makes one request (Elicit,
// CreateMessage or ListRoots) with the context it is given and keeps the
// answer, for example in a variable of the handler:
//
//	var name, color *mcp.ElicitResult
//	err := ss.AskAll(ctx,
//		func(ctx context.Context) (err error) { name, err = ss.Elicit(ctx, askName); return err },
//		func(ctx context.Context) (err error) { color, err = ss.Elicit(ctx, askColor); return err },
//	)
//	if err != nil {
//		return nil, err
//	}
//
// Before 2026-07-28 the requests go to the client concurrently. In
// 2026-07-28 they come back to the client together: in one input-required
// result, or, in a task, as the task's input requests, which the client may
// answer one by one. The error is the SDK's input-required error if some
// request awaits an answer (return it unchanged), or else the first error of
// the asks, in order.
//
// Unless an ask names its request with InputKey, the SDK numbers it by its
// position, as if the asks ran one after the other; each ask should then
// make exactly one request.
func (ss *ServerSession) AskAll(ctx context.Context, asks ...func(ctx context.Context) error) error {
	ctxs := make([]context.Context, len(asks))
	for i := range asks {
		ctxs[i] = ctx
	}
	if ss.request != nil && (ss.request.input.task == nil || !ss.request.input.task.running()) {
		// Input-required results: keys must come out the same on every run
		// of the handler, whatever order the goroutines run in.
		st := &ss.request.input
		st.mu.Lock()
		base := st.asked
		st.mu.Unlock()
		for i := range asks {
			ctxs[i] = InputKey(ctx, "input-"+strconv.Itoa(base+i+1))
		}
	}
	errs := make([]error, len(asks))
	panics := make([]any, len(asks))
	var wg sync.WaitGroup
	for i, ask := range asks {
		wg.Add(1)
		go func() {
			defer wg.Done()
			defer func() { panics[i] = recover() }()
			errs[i] = ask(ctxs[i])
		}()
	}
	wg.Wait()
	for _, v := range panics {
		if v != nil {
			panic(v) // on the handler's goroutine, as if the ask ran there
		}
	}
	for _, err := range errs {
		if errors.Is(err, errInputRequired) {
			return errInputRequired
		}
	}
	for _, err := range errs {
		if err != nil {
			return err
		}
	}
	return nil
}
