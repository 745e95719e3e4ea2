package mcp

import (
	"slices"
	"testing"
)

// Implementation returns what NewServer and ServerOptions set, in a copy
// the caller may change without changing the server.
func TestServerImplementation(t *testing.T) {
	s := NewServer("weather", "v1.2.0", &ServerOptions{
		Title:       "Weather",
		Description: "Forecasts",
		WebsiteURL:  "https://example.com",
		Icons:       []Icon{{Src: "https://example.com/i.png", Sizes: []string{"48x48"}}},
	})
	got := s.Implementation()
	if got.Name != "weather" || got.Version != "v1.2.0" || got.Title != "Weather" ||
		got.Description != "Forecasts" || got.WebsiteURL != "https://example.com" ||
		len(got.Icons) != 1 || got.Icons[0].Src != "https://example.com/i.png" {
		t.Fatalf("Implementation() = %+v", got)
	}
	got.Icons[0].Src = "changed"
	got.Icons[0].Sizes[0] = "changed"
	again := s.Implementation()
	if again.Icons[0].Src != "https://example.com/i.png" || again.Icons[0].Sizes[0] != "48x48" {
		t.Fatalf("changing the copy changed the server: %+v", again)
	}
}

// ProtocolVersions returns the versions the server serves, newest first,
// in a slice the caller owns.
func TestServerProtocolVersions(t *testing.T) {
	tests := []struct {
		name string
		opts *ServerOptions
		want []string
	}{
		{"default", nil, SupportedVersions()},
		{"restricted", &ServerOptions{ProtocolVersions: []string{Version20251125, Version20250618}}, []string{Version20251125, Version20250618}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := NewServer("s", "v1", tt.opts)
			got := s.ProtocolVersions()
			if !slices.Equal(got, tt.want) {
				t.Fatalf("ProtocolVersions() = %v, want %v", got, tt.want)
			}
			got[0] = "changed"
			if s.ProtocolVersions()[0] == "changed" {
				t.Fatal("changing the slice changed the server")
			}
		})
	}
}
