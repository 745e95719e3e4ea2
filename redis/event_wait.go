package redis

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"time"

	goredis "github.com/redis/go-redis/v9"

	"github.com/gomcp/sdk/mcp"
)

var _ mcp.EventWaiter = (*EventStore)(nil)

var errTooManyWaiters = errors.New("mcp/redis: too many waits for events in progress")

// maxBlock bounds one blocking read (XREAD BLOCK) of WaitEvents, so that a
// connection is never held long by a reader that has gone: a longer wait
// is made of several reads.
const maxBlock = 2 * time.Second

// WaitEvents waits, with blocking reads of the stream (XREAD BLOCK), until
// it holds more than index events. When ctx ends, it returns at once; the
// read in progress ends within two seconds. Each blocking read holds a
// connection of the client's pool: with MaxWaiters waits in progress
// already, WaitEvents fails at once (the caller then reads the store at an
// interval).
func (s *EventStore) WaitEvents(ctx context.Context, sessionID, streamID string, index int) error {
	if !validID(sessionID) || !validID(streamID) || index < 0 {
		return fmt.Errorf("%w: session %q stream %q", mcp.ErrUnknownStream, sessionID, streamID)
	}
	select {
	case s.b.waiters <- struct{}{}:
	default:
		return errTooManyWaiters
	}
	// The token is given back when no read of this wait holds a
	// connection any more: at once, or when an abandoned read ends.
	release := func() { <-s.b.waiters }
	defer func() {
		if release != nil {
			release()
		}
	}()
	stream := s.b.streamKey(sessionID, streamID)
	after := "0-" + strconv.Itoa(index)
	for {
		block := maxBlock
		if d, ok := ctx.Deadline(); ok {
			block = min(block, time.Until(d))
		}
		if block < time.Millisecond {
			return context.DeadlineExceeded
		}
		done := make(chan error, 1)
		go func() {
			// Not ctx: go-redis does not end a blocking read when its
			// context ends; the read ends within block anyway.
			rctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), block+opTimeout)
			defer cancel()
			_, err := s.b.client.XRead(rctx, &goredis.XReadArgs{Streams: []string{stream, after}, Count: 1, Block: block}).Result()
			done <- err
		}()
		select {
		case <-ctx.Done():
			r := release
			release = nil
			go func() {
				<-done
				r()
			}()
			return ctx.Err()
		case err := <-done:
			switch {
			case err == nil:
				return nil
			case errors.Is(err, goredis.Nil): // nothing within block
				if ctx.Err() != nil {
					return ctx.Err()
				}
			default:
				return fmt.Errorf("mcp/redis: waiting for events: %w", err)
			}
		}
	}
}
