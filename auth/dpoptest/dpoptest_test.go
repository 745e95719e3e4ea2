package dpoptest_test

import (
	"testing"

	"github.com/gomcp/sdk/auth"
	"github.com/gomcp/sdk/auth/dpoptest"
)

// The contract tests run against the in-memory implementation.
func TestMemoryDPoPReplayCache(t *testing.T) {
	dpoptest.TestDPoPReplayCache(t, func(*testing.T) auth.DPoPReplayCache { return auth.NewMemoryDPoPReplayCache(0) })
}
