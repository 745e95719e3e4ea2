package main

import (
	"strings"
	"testing"
)

func TestParseArgs(t *testing.T) {
	tests := []struct {
		args          string
		addr, server  string
		n             int
		rest, wantErr string
	}{
		{args: "-http 127.0.0.1:0 -stateless", addr: "127.0.0.1:0", n: 3, server: "/s", rest: "-stateless"},
		{args: "-http=:0 -n 2 -server /x -redis r -state-key k", addr: ":0", n: 2, server: "/x", rest: "-redis r -state-key k"},
		{args: "-stateless", wantErr: "-http ADDR is required"},
		{args: "-http :0 -n 0", wantErr: "positive"},
		{args: "-http", wantErr: "needs a value"},
	}
	t.Setenv("SCALEOUT_SERVER", "/s")
	for _, tt := range tests {
		addr, n, server, rest, err := parseArgs(strings.Fields(tt.args))
		if tt.wantErr != "" {
			if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
				t.Errorf("parseArgs(%q) = %v, want %q", tt.args, err, tt.wantErr)
			}
			continue
		}
		if err != nil || addr != tt.addr || n != tt.n || server != tt.server || strings.Join(rest, " ") != tt.rest {
			t.Errorf("parseArgs(%q) = %q %d %q %q %v", tt.args, addr, n, server, rest, err)
		}
	}
}
