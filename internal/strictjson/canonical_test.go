package strictjson

import (
	"errors"
	"strings"
	"testing"
)

// TestCanonical: equal JSON values give equal bytes (RFC 8785), and what
// Unmarshal refuses is refused.
func TestCanonical(t *testing.T) {
	tests := []struct {
		in, want string
	}{
		{`{"b":1,"a":2}`, `{"a":2,"b":1}`},
		{" { \"a\" : [ 1 , 2.50 , 1e2 ] } ", `{"a":[1,2.5,100]}`},
		{`{"\u0041":"\u00e9"}`, `{"A":"é"}`},
		{`{"a":{"d":null,"c":true}}`, `{"a":{"c":true,"d":null}}`},
		{`"x"`, `"x"`},
	}
	for _, tt := range tests {
		got, err := Canonical([]byte(tt.in))
		if err != nil || string(got) != tt.want {
			t.Errorf("Canonical(%s) = %s, %v; want %s", tt.in, got, err, tt.want)
		}
	}
	for _, bad := range []string{`{"a":1,"a":2}`, `{`, "\"\xff\"", `{} {}`, ``} {
		if _, err := Canonical([]byte(bad)); err == nil {
			t.Errorf("Canonical(%q) succeeded", bad)
		}
	}
	deep := strings.Repeat("[", DefaultMaxDepth+1) + strings.Repeat("]", DefaultMaxDepth+1)
	if _, err := Canonical([]byte(deep)); !errors.Is(err, ErrTooDeep) {
		t.Errorf("Canonical of %d levels = %v, want ErrTooDeep", DefaultMaxDepth+1, err)
	}
}
