package webhook

import (
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"errors"
	"fmt"

	"github.com/gomcp/sdk/internal/strictjson"
)

// ErrInvalidArguments is the error (tested with errors.Is) of NewKey for
// arguments that are not a JSON object.
var ErrInvalidArguments = errors.New("webhook: arguments must be a JSON object")

// A Key names a webhook subscription: a second events/subscribe with the
// same key refreshes it, and a different name, arguments or URL addresses a
// different subscription. Arguments are held in canonical JSON, so that
// arguments equal as JSON give equal keys.
type Key struct {
	// Principal is the authenticated subscriber (from auth).
	Principal string
	// URL is delivery.url.
	URL string
	// Name is the event type's name.
	Name string
	// Arguments are the subscription's arguments in canonical JSON
	// (RFC 8785).
	Arguments string
}

// NewKey returns the key of a subscription, canonicalizing its arguments,
// which must be a JSON object (absent arguments, nil or empty, are {}).
func NewKey(principal, url, name string, arguments []byte) (Key, error) {
	if len(arguments) == 0 {
		arguments = []byte("{}")
	}
	canon, err := strictjson.Canonical(arguments)
	if err != nil {
		return Key{}, fmt.Errorf("%w: %w", ErrInvalidArguments, err)
	}
	if canon[0] != '{' {
		return Key{}, ErrInvalidArguments
	}
	return Key{Principal: principal, URL: url, Name: name, Arguments: string(canon)}, nil
}

// idDomain separates subscription ids from other hashes of the same
// fields.
const idDomain = "io.modelcontextprotocol/events webhook subscription v1"

// ID returns the subscription's id: the first 16 bytes of a SHA-256 over
// the key's four fields (each prefixed by its length), in hex. It is the
// same for the same key on every instance and after every restart, and it
// is a routing handle, not a capability: a server derives it and never
// accepts it as input.
func (k Key) ID() string {
	h := sha256.New()
	var n [8]byte
	for _, f := range [...]string{idDomain, k.Principal, k.URL, k.Name, k.Arguments} {
		binary.BigEndian.PutUint64(n[:], uint64(len(f)))
		h.Write(n[:])
		h.Write([]byte(f))
	}
	return hex.EncodeToString(h.Sum(nil)[:16])
}
