package main

import (
	"encoding/json"
	"testing"
)

// TestNamesProjectPath: which tool arguments a team server refuses.
func TestNamesProjectPath(t *testing.T) {
	tests := []struct {
		args any
		want bool
	}{
		{json.RawMessage(`{"package":"express","projectPath":"/srv/app"}`), true},
		{json.RawMessage(`{"package":"express","projectpath":"/srv/app"}`), true}, // whatever the case
		{json.RawMessage(`{"projectPath":5}`), true},                              // not a string: refused all the same
		{json.RawMessage(`{"package":"express","projectPath":""}`), false},
		{json.RawMessage(`{"projectPath":"  "}`), false},
		{json.RawMessage(`{"projectPath":null}`), false},
		{json.RawMessage(`{"package":"express"}`), false},
		{json.RawMessage(`[1,2]`), false},
		{json.RawMessage(`{"projectPath":`), false},
		{nil, false},
		{map[string]any{"projectPath": "/srv/app"}, true},
		{map[string]any{"package": "express"}, false},
	}
	for _, tt := range tests {
		if got := namesProjectPath(tt.args); got != tt.want {
			t.Errorf("namesProjectPath(%s) = %v, want %v", tt.args, got, tt.want)
		}
	}
}
