package webhook

import (
	"crypto/rand"
	"crypto/subtle"
	"encoding/base64"
	"errors"
	"fmt"
	"log/slog"
	"strings"
)

// SecretPrefix begins the text form of every webhook secret.
const SecretPrefix = "whsec_"

// MinSecretBytes and MaxSecretBytes bound the length of a secret's key, the
// bytes its base64 part decodes to.
const (
	MinSecretBytes = 24
	MaxSecretBytes = 64
)

// generatedSecretBytes is the key length GenerateSecret chooses.
const generatedSecretBytes = 32

// redactedSecret is what a Secret prints as, whatever the verb.
const redactedSecret = SecretPrefix + "[redacted]"

// ErrInvalidSecret is the error (tested with errors.Is) of ParseSecret for
// text that is not "whsec_" followed by the base64 of 24 to 64 bytes. A
// server answers such a delivery.secret with InvalidParams.
var ErrInvalidSecret = errors.New("webhook: invalid secret")

// A Secret is the key a server signs deliveries with and a receiver
// verifies them with: the bytes that the base64 part of a "whsec_" secret
// decodes to. The client chooses it and sends it in events/subscribe; the
// server never generates one.
//
// A Secret never prints its value: String, GoString, every fmt verb,
// log/slog and JSON encoding all give "whsec_[redacted]". Reveal gives the
// text form, for storing the secret or sending it in events/subscribe.
// The zero Secret holds no key.
type Secret struct {
	key []byte
}

// ParseSecret reads the text form of a secret: "whsec_" followed by the
// standard base64 (padded or not) of 24 to 64 bytes. Its errors wrap
// ErrInvalidSecret and never contain the text.
func ParseSecret(text string) (Secret, error) {
	rest, ok := strings.CutPrefix(text, SecretPrefix)
	if !ok {
		return Secret{}, fmt.Errorf("%w: it does not begin with %q", ErrInvalidSecret, SecretPrefix)
	}
	if len(rest) > base64.StdEncoding.EncodedLen(MaxSecretBytes) {
		return Secret{}, fmt.Errorf("%w: longer than the base64 of %d bytes", ErrInvalidSecret, MaxSecretBytes)
	}
	enc := base64.StdEncoding
	if len(rest)%4 != 0 {
		enc = base64.RawStdEncoding
	}
	key, err := enc.Strict().DecodeString(rest)
	if err != nil {
		return Secret{}, fmt.Errorf("%w: the part after %q is not standard base64", ErrInvalidSecret, SecretPrefix)
	}
	if n := len(key); n < MinSecretBytes || n > MaxSecretBytes {
		return Secret{}, fmt.Errorf("%w: it decodes to %d bytes; want %d to %d", ErrInvalidSecret, n, MinSecretBytes, MaxSecretBytes)
	}
	return Secret{key: key}, nil
}

// GenerateSecret returns a new random secret of 32 bytes, for a client
// that subscribes.
func GenerateSecret() Secret {
	key := make([]byte, generatedSecretBytes)
	_, _ = rand.Read(key) // crypto/rand.Read never fails (it crashes the program instead)
	return Secret{key: key}
}

// IsZero reports whether s holds no key.
func (s Secret) IsZero() bool { return len(s.key) == 0 }

// Reveal returns the text form of s ("whsec_" and the base64 of its key),
// the one way to see its value: for storing s or sending it in
// events/subscribe. It returns "" for the zero Secret.
func (s Secret) Reveal() string {
	if s.IsZero() {
		return ""
	}
	return SecretPrefix + base64.StdEncoding.EncodeToString(s.key)
}

// Equal reports whether s and o hold the same key, in time that does not
// depend on where they differ.
func (s Secret) Equal(o Secret) bool {
	return subtle.ConstantTimeCompare(s.key, o.key) == 1
}

// String returns "whsec_[redacted]" (or "" for the zero Secret), never the
// key.
func (s Secret) String() string {
	if s.IsZero() {
		return ""
	}
	return redactedSecret
}

// GoString is String, so that %#v does not show the key either.
func (s Secret) GoString() string { return s.String() }

// Format writes String for every verb, so that no fmt verb (%x included)
// shows the key.
func (s Secret) Format(f fmt.State, _ rune) { _, _ = f.Write([]byte(s.String())) }

// LogValue makes log/slog record String instead of the key.
func (s Secret) LogValue() slog.Value { return slog.StringValue(s.String()) }

// MarshalJSON encodes s as the string "whsec_[redacted]", so that a
// structure holding a Secret can be logged as JSON without its key. To
// store a Secret, store Reveal and read it back with ParseSecret.
func (s Secret) MarshalJSON() ([]byte, error) {
	return []byte(`"` + s.String() + `"`), nil
}
