package service

import "testing"

// A symbol is asked as Rust users write it.
func TestRustSymbol(t *testing.T) {
	tests := []struct{ crate, symbol, want string }{
		{"anyhow", "anyhow!", "anyhow"},
		{"serde_json", "serde_json::json!", "json"},
		{"serde-json", "serde_json::Value.get", "Value::get"},
		{"clap", "Command.arg", "Command::arg"},
		{"tokio", "tokio::net::TcpListener::bind", "net::TcpListener::bind"},
		{"tokio", " tokio.spawn ", "spawn"},
		{"tokio", "tokio", "tokio"},
		{"log", "Level", "Level"},
	}
	for _, tt := range tests {
		if got := rustSymbol(tt.crate, tt.symbol); got != tt.want {
			t.Errorf("rustSymbol(%q, %q) = %q, want %q", tt.crate, tt.symbol, got, tt.want)
		}
	}
}
