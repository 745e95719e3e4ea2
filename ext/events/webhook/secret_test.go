package webhook

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"strings"
	"testing"
)

func b64(n int) string { return base64.StdEncoding.EncodeToString(bytes.Repeat([]byte{0xa7}, n)) }

// TestParseSecret: whsec_ followed by the base64 of 24 to 64 bytes, and
// nothing else.
func TestParseSecret(t *testing.T) {
	tests := []struct {
		name  string
		text  string
		bytes int // 0: invalid
	}{
		{"the Standard Webhooks example (24 bytes)", "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw", 24},
		{"32 bytes, padded", "whsec_" + b64(32), 32},
		{"32 bytes, unpadded", "whsec_" + strings.TrimRight(b64(32), "="), 32},
		{"64 bytes", "whsec_" + b64(64), 64},
		{"23 bytes", "whsec_" + b64(23), 0},
		{"65 bytes", "whsec_" + b64(65), 0},
		{"no prefix", b64(32), 0},
		{"another prefix", "whsek_" + b64(32), 0},
		{"upper-case prefix", "WHSEC_" + b64(32), 0},
		{"empty", "", 0},
		{"prefix only", "whsec_", 0},
		{"URL-safe alphabet", "whsec_" + base64.URLEncoding.EncodeToString(bytes.Repeat([]byte{0xff}, 32)), 0},
		{"spaces", "whsec_ " + b64(32), 0},
		{"not base64", "whsec_" + strings.Repeat("!", 44), 0},
		{"very long", "whsec_" + b64(4096), 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s, err := ParseSecret(tt.text)
			if tt.bytes == 0 {
				if !errors.Is(err, ErrInvalidSecret) {
					t.Fatalf("ParseSecret = %v, want ErrInvalidSecret", err)
				}
				if len(tt.text) > 10 && strings.Contains(err.Error(), tt.text[6:]) {
					t.Fatalf("the error shows the secret: %v", err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if len(s.key) != tt.bytes {
				t.Fatalf("key of %d bytes, want %d", len(s.key), tt.bytes)
			}
			if back := mustSecret(t, s.Reveal()); !back.Equal(s) {
				t.Fatal("ParseSecret(Reveal()) differs")
			}
		})
	}
}

// TestGenerateSecret: 32 random bytes, different every time, valid text.
func TestGenerateSecret(t *testing.T) {
	a, b := GenerateSecret(), GenerateSecret()
	if len(a.key) != 32 || a.Equal(b) {
		t.Fatalf("GenerateSecret: %d bytes, equal to the next: %v", len(a.key), a.Equal(b))
	}
	if _, err := ParseSecret(a.Reveal()); err != nil {
		t.Fatal(err)
	}
}

// TestSecretRedacted: no way of printing a Secret but Reveal shows its key.
func TestSecretRedacted(t *testing.T) {
	s := GenerateSecret()
	text := s.Reveal()
	enc := strings.TrimPrefix(text, SecretPrefix)
	var logged bytes.Buffer
	slog.New(slog.NewJSONHandler(&logged, nil)).Info("subscribed", "secret", s, "sub", &Subscription{Secret: s})
	type holder struct{ Secret Secret }
	j, err := json.Marshal(holder{s})
	if err != nil {
		t.Fatal(err)
	}
	outputs := map[string]string{
		"String": s.String(), "GoString": s.GoString(), "slog": logged.String(), "json": string(j),
	}
	for _, verb := range []string{"%v", "%s", "%q", "%x", "%X", "%#v", "%+v", "%d", "%10.3s"} {
		outputs[verb] = fmt.Sprintf(verb, s)
		outputs[verb+" of a struct"] = fmt.Sprintf(verb, holder{s})
		outputs[verb+" of a pointer"] = fmt.Sprintf(verb, &s)
	}
	hexKey := fmt.Sprintf("%x", string(s.key))
	for name, out := range outputs {
		if strings.Contains(out, enc) || strings.Contains(strings.ToLower(out), hexKey) || strings.Contains(out, string(s.key)) {
			t.Errorf("%s shows the key: %s", name, out)
		}
		if !strings.Contains(out, "[redacted]") {
			t.Errorf("%s = %q, want it to say [redacted]", name, out)
		}
	}
	if (Secret{}).String() != "" || (Secret{}).Reveal() != "" {
		t.Error("the zero Secret prints something")
	}
}
