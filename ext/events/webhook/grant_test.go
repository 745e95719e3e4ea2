package webhook

import (
	"encoding/json"
	"testing"
	"time"

	"github.com/gomcp/sdk/internal/strictjson"
)

// TestGrant: refreshBefore from a requested ttlMs, as events/subscribe
// grants it.
func TestGrant(t *testing.T) {
	now := time.Date(2026, 12, 2, 6, 0, 0, 0, time.UTC)
	policy := GrantPolicy{Default: time.Hour, Min: time.Minute, Max: 24 * time.Hour}
	allowing := policy
	allowing.AllowNoExpiry = true
	tests := []struct {
		name   string
		policy GrantPolicy
		ttl    TTL
		want   time.Duration // -1: no expiry
	}{
		{"absent: the default", policy, TTL{}, time.Hour},
		{"10 minutes", policy, TTL{Set: true, Millis: 600_000}, 10 * time.Minute},
		{"below the minimum: clamped up", policy, TTL{Set: true, Millis: 5}, time.Minute},
		{"zero: clamped up", policy, TTL{Set: true}, time.Minute},
		{"negative: clamped up", policy, TTL{Set: true, Millis: -1}, time.Minute},
		{"above the maximum: the maximum", policy, TTL{Set: true, Millis: 7 * 24 * 3600_000}, 24 * time.Hour},
		{"huge: the maximum", policy, TTL{Set: true, Millis: 1 << 62}, 24 * time.Hour},
		{"null without AllowNoExpiry: the maximum", policy, TTL{Set: true, NoExpiry: true}, 24 * time.Hour},
		{"null with AllowNoExpiry: no expiry", allowing, TTL{Set: true, NoExpiry: true}, -1},
		{"absent with AllowNoExpiry: still the default", allowing, TTL{}, time.Hour},
		{"zero policy: defaults", GrantPolicy{}, TTL{}, DefaultGrantTTL},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			g := tt.policy.Grant(now, tt.ttl)
			if tt.want < 0 {
				if !g.NoExpiry() {
					t.Fatalf("refreshBefore %v, want null", g.RefreshBefore)
				}
				return
			}
			if g.NoExpiry() || g.RefreshBefore.Sub(now) != tt.want {
				t.Fatalf("refreshBefore now+%v, want now+%v", g.RefreshBefore.Sub(now), tt.want)
			}
			if !g.Expired(now.Add(tt.want)) || g.Expired(now.Add(tt.want-time.Millisecond)) {
				t.Fatal("Expired does not switch at refreshBefore")
			}
		})
	}
}

// TestGrantJSON: refreshBefore is always present: an ISO 8601 time, or null
// for no expiry.
func TestGrantJSON(t *testing.T) {
	type result struct {
		RefreshBefore Grant `json:"refreshBefore"`
	}
	for g, want := range map[Grant]string{
		{}: `{"refreshBefore":null}`,
		{RefreshBefore: time.Date(2026, 12, 2, 7, 0, 0, 5e6, time.FixedZone("x", 3600))}: `{"refreshBefore":"2026-12-02T06:00:00.005Z"}`,
	} {
		b, err := strictjson.Marshal(result{g})
		if err != nil || string(b) != want {
			t.Errorf("Marshal = %s, %v; want %s", b, err, want)
		}
	}
}

// TestTTLJSON: ttlMs absent, null and a number decode apart, with the
// SDK's codec and the standard library's.
func TestTTLJSON(t *testing.T) {
	type params struct {
		TTLMs TTL `json:"ttlMs,omitzero"`
	}
	tests := map[string]TTL{
		`{}`:              {},
		`{"ttlMs":null}`:  {Set: true, NoExpiry: true},
		`{"ttlMs":60000}`: {Set: true, Millis: 60000},
		`{"ttlMs":6e4}`:   {Set: true, Millis: 60000},
		`{"ttlMs":-5}`:    {Set: true, Millis: -5},
	}
	for in, want := range tests {
		var p params
		if err := strictjson.Unmarshal([]byte(in), &p); err != nil || p.TTLMs != want {
			t.Errorf("strictjson %s = %+v, %v; want %+v", in, p.TTLMs, err, want)
		}
		var q params
		if err := json.Unmarshal([]byte(in), &q); err != nil || q.TTLMs != want {
			t.Errorf("encoding/json %s = %+v, %v; want %+v", in, q.TTLMs, err, want)
		}
		b, err := strictjson.Marshal(p)
		if err != nil || string(b) != in && in != `{"ttlMs":6e4}` {
			t.Errorf("Marshal(%+v) = %s, %v; want %s", p, b, err, in)
		}
	}
	for _, bad := range []string{`{"ttlMs":"60000"}`, `{"ttlMs":1.5}`, `{"ttlMs":true}`} {
		var p params
		if err := strictjson.Unmarshal([]byte(bad), &p); err == nil {
			t.Errorf("%s decoded to %+v", bad, p.TTLMs)
		}
	}
}
