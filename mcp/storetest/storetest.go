// Package storetest holds the contract tests of the interfaces through
// which several instances of an MCP server share state: mcp.EventBus,
// mcp.SessionRouter, mcp.SessionStore, mcp.EventStore (and mcp.EventWaiter,
// which an event store may implement) and mcp.TaskStore.
// A backend passes them all before it is used behind a load balancer:
//
//	func TestEventBus(t *testing.T) {
//		storetest.TestEventBus(t, func(t *testing.T) mcp.EventBus { return newBus(t) })
//	}
//
// The same tests run against the in-memory implementations of package mcp
// and against the Redis ones of module github.com/gomcp/sdk/redis.
package storetest

import (
	"testing"
	"time"
)

// waitFor is how long a test waits for an asynchronous delivery.
const waitFor = 5 * time.Second

// quiet is how long a test waits to see that nothing is delivered.
const quiet = 100 * time.Millisecond

// A Clock lets expiry tests run without waiting: Advance moves the
// store's notion of time forward by d. Pass nil to wait in real time.
type Clock interface {
	Advance(t *testing.T, d time.Duration)
}

// realClock sleeps.
type realClock struct{}

var _ Clock = realClock{}

func (realClock) Advance(_ *testing.T, d time.Duration) { time.Sleep(d) }

func clockOr(c Clock) Clock {
	if c == nil {
		return realClock{}
	}
	return c
}
