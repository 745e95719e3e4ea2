package mcp

import (
	"context"
	"errors"
	"testing"
	"time"
)

// slowCancelTransport delays the client's notifications/cancelled by
// delay, as a busy peer's slow POST would.
type slowCancelTransport struct {
	Transport
	delay time.Duration
}

func (t slowCancelTransport) Connect(ctx context.Context) (Connection, error) {
	c, err := t.Transport.Connect(ctx)
	if err != nil {
		return nil, err
	}
	return slowCancelConn{c, t.delay}, nil
}

type slowCancelConn struct {
	Connection
	delay time.Duration
}

func (c slowCancelConn) Write(ctx context.Context, msg JSONRPCMessage) error {
	if r, ok := msg.(*JSONRPCRequest); ok && r.Method == NotificationCancelled {
		select {
		case <-time.After(c.delay):
		case <-ctx.Done():
			return ctx.Err()
		}
	}
	return c.Connection.Write(ctx, msg)
}

// A cancelled call returns at once, and its notifications/cancelled still
// reaches a peer that takes a while to take it (here 2 s, longer than the
// 1 s the notification used to be given, in the call's own return path).
func TestCancelledCallReturnsAtOnce(t *testing.T) {
	started := make(chan struct{}, 1)
	cancelled := make(chan error, 1)
	server := NewServer("s", "v1", nil)
	server.AddTools(slowTool(started, cancelled))
	ct, st := NewInMemoryTransports()
	ss, err := server.Connect(context.Background(), st)
	if err != nil {
		t.Fatal(err)
	}
	cs, err := NewClient("c", "v1", &ClientOptions{ProtocolVersion: Version20251125}).Connect(context.Background(), slowCancelTransport{ct, 2 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cs.Close(); ss.Wait() })
	ctx, cancel := context.WithCancel(context.Background())
	errc := make(chan error, 1)
	go func() {
		_, err := cs.CallTool(ctx, "slow", nil, &CallToolOptions{ProgressHandler: func(context.Context, *ProgressNotificationParams) {}})
		errc <- err
	}()
	<-started
	cancel()
	select {
	case err := <-errc:
		if !errors.Is(err, context.Canceled) {
			t.Fatalf("cancelled call returned %v", err)
		}
	case <-time.After(time.Second):
		t.Fatal("the cancelled call waited for its notifications/cancelled to be sent")
	}
	select {
	case err := <-cancelled:
		if !errors.Is(err, context.Canceled) {
			t.Fatalf("handler context: %v", err)
		}
	case <-time.After(cancelledNotificationTimeout + time.Second):
		t.Fatal("the server never saw notifications/cancelled")
	}
}
