package main

import (
	"strings"
	"testing"

	"github.com/alicebob/miniredis/v2"

	"github.com/gomcp/sdk/mcp"
)

func TestScaleOutFlags(t *testing.T) {
	key := strings.Repeat("ab", 32)
	m := miniredis.RunT(t)
	tests := []struct {
		redis, key, wantErr string
		shared              bool
	}{
		{"", "", "", false},
		{"", key, "", false},
		{"redis://" + m.Addr() + "/0", key, "", true},
		{"redis://" + m.Addr() + "/0", "", "needs -state-key", false},
		{"", "zz", "not hex", false},
		{"", "abcd", "want at least 32", false},
		{"http://" + m.Addr(), key, "-redis", false},
	}
	for _, tt := range tests {
		s, err := newScaleOut(tt.redis, tt.key)
		if tt.wantErr != "" {
			if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
				t.Errorf("newScaleOut(%q, %q) = %v, want %q", tt.redis, tt.key, err, tt.wantErr)
			}
			continue
		}
		if err != nil {
			t.Fatalf("newScaleOut(%q, %q): %v", tt.redis, tt.key, err)
		}
		var so mcp.ServerOptions
		s.tuneServer(&so)
		ho := s.tuneHandler(&mcp.StreamableHTTPOptions{})
		if got := ho.SessionStore != nil && so.EventBus != nil && so.Tasks != nil && so.Tasks.Store != nil; got != tt.shared {
			t.Errorf("newScaleOut(%q, %q): shared state set = %v, want %v", tt.redis, tt.key, got, tt.shared)
		}
		if tt.key != "" && len(so.RequestStateKey) != 32 {
			t.Errorf("newScaleOut(%q, %q): RequestStateKey of %d bytes", tt.redis, tt.key, len(so.RequestStateKey))
		}
		s.close()
	}
}
