package storetest_test

import (
	"testing"

	"github.com/gomcp/sdk/mcp"
	"github.com/gomcp/sdk/mcp/storetest"
)

// The contract tests run against the in-memory implementations.

func TestMemoryEventBus(t *testing.T) {
	storetest.TestEventBus(t, func(*testing.T) mcp.EventBus { return mcp.NewMemoryEventBus() })
}

func TestMemorySessionRouter(t *testing.T) {
	storetest.TestSessionRouter(t, func(*testing.T) mcp.SessionRouter { return mcp.NewMemorySessionRouter() })
}

func TestMemorySessionStore(t *testing.T) {
	storetest.TestSessionStore(t, func(*testing.T) mcp.SessionStore { return mcp.NewMemorySessionStore() }, nil)
}

func TestMemoryEventStore(t *testing.T) {
	storetest.TestEventStore(t, func(*testing.T) mcp.EventStore { return mcp.NewMemoryEventStore(nil) })
}

func TestMemoryEventWaiter(t *testing.T) {
	storetest.TestEventWaiter(t, func(*testing.T) mcp.EventStore { return mcp.NewMemoryEventStore(nil) })
}

func TestMemoryTaskStore(t *testing.T) {
	storetest.TestTaskStore(t, func(*testing.T) mcp.TaskStore { return mcp.NewMemoryTaskStore(nil) }, nil)
}

// TestMemoryScaleOut runs the multi-instance scenarios with three
// handlers of one process joined by the in-memory implementations.
func TestMemoryScaleOut(t *testing.T) {
	storetest.TestScaleOut(t, func(*testing.T) func(int) storetest.Backends {
		b := storetest.Backends{
			EventBus:      mcp.NewMemoryEventBus(),
			SessionRouter: mcp.NewMemorySessionRouter(),
			SessionStore:  mcp.NewMemorySessionStore(),
			EventStore:    mcp.NewMemoryEventStore(nil),
			TaskStore:     mcp.NewMemoryTaskStore(nil),
		}
		return func(int) storetest.Backends { return b }
	})
}

// pollOnly hides the EventWaiter of a store: instances then read it at an
// interval to resume each other's streams.
type pollOnly struct{ mcp.EventStore }

// TestMemoryScaleOutPolling runs the multi-instance scenarios with an
// event store that cannot wait for events.
func TestMemoryScaleOutPolling(t *testing.T) {
	storetest.TestScaleOut(t, func(*testing.T) func(int) storetest.Backends {
		b := storetest.Backends{
			EventBus:      mcp.NewMemoryEventBus(),
			SessionRouter: mcp.NewMemorySessionRouter(),
			SessionStore:  mcp.NewMemorySessionStore(),
			EventStore:    pollOnly{mcp.NewMemoryEventStore(nil)},
			TaskStore:     mcp.NewMemoryTaskStore(nil),
		}
		return func(int) storetest.Backends { return b }
	})
}
