package webhook_test

import (
	"sync"
	"testing"
	"time"

	"github.com/gomcp/sdk/ext/events/webhook"
	"github.com/gomcp/sdk/ext/events/webhook/webhooktest"
)

// fakeClock is a clock the contract tests move forward.
type fakeClock struct {
	mu     sync.Mutex
	offset time.Duration
}

func (c *fakeClock) now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return time.Now().Add(c.offset)
}

func (c *fakeClock) Advance(_ *testing.T, d time.Duration) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.offset += d
}

// TestMemoryRegistry runs the Registry contract tests against the
// in-memory registry.
func TestMemoryRegistry(t *testing.T) {
	clock := &fakeClock{}
	webhooktest.TestRegistry(t, func(*testing.T) webhook.Registry { return webhook.NewMemoryRegistry(clock.now) }, clock)
}
