package mcp

import (
	"bytes"
	"strings"
	"testing"
)

// TestRequestStateKeyRotation: a state minted with a key verifies on an
// instance that lists that key as previous, and on none that does not
// know it; states are always minted with the current key.
func TestRequestStateKeyRotation(t *testing.T) {
	k1, k2, k3 := bytes.Repeat([]byte{1}, 32), bytes.Repeat([]byte{2}, 32), bytes.Repeat([]byte{3}, 32)
	old := NewServer("s", "v1", &ServerOptions{RequestStateKey: k1})
	rotated := NewServer("s", "v1", &ServerOptions{RequestStateKey: k2, PreviousRequestStateKeys: [][]byte{k3, k1}})
	stranger := NewServer("s", "v1", &ServerOptions{RequestStateKey: k3})

	tests := []struct {
		name    string
		minter  *Server
		checker *Server
		wantErr string
	}{
		{"same key", old, old, ""},
		{"previous key accepted", old, rotated, ""},
		{"current key minted", rotated, rotated, ""},
		{"new key unknown to an old instance", rotated, old, "signature does not match"},
		{"unrelated key", old, stranger, "signature does not match"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			state, err := tt.minter.sealState("tools/call", "d", nil, []string{"q"})
			if err != nil {
				t.Fatal(err)
			}
			_, err = tt.checker.openState(state, "tools/call", "d")
			switch {
			case tt.wantErr == "" && err != nil:
				t.Fatalf("openState: %v", err)
			case tt.wantErr != "" && (err == nil || !strings.Contains(err.Error(), tt.wantErr)):
				t.Fatalf("openState = %v, want %q", err, tt.wantErr)
			}
		})
	}
}

// FuzzValidSessionID: ids accepted for a store lookup never hold a byte
// outside the safe set, whatever the client sends.
func FuzzValidSessionID(f *testing.F) {
	for _, s := range []string{"ABCDEFGHIJKLMNOPQRSTUVWXYZ", "a:b", "*", "", strings.Repeat("A", 200), "x\r\ny"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, id string) {
		if !validSessionID(id) {
			return
		}
		if len(id) > maxSessionIDLen || strings.ContainsAny(id, ":*?[]{} \r\n\t/\\") {
			t.Fatalf("accepted %q", id)
		}
	})
}
