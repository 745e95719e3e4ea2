package webhook

import (
	"crypto/hmac"
	"crypto/sha256"
	"encoding/base64"
	"errors"
	"fmt"
	"hash"
	"io"
	"net/http"
	"strconv"
	"strings"
	"time"
)

// The headers of every delivery, events and envelopes alike (Standard
// Webhooks, as the events extension profiles it).
const (
	// HeaderID carries the message id: the eventId of an event, or
	// "msg_<type>_<random>" for an envelope. Retries keep it.
	HeaderID = "webhook-id"
	// HeaderTimestamp carries the time of the attempt in Unix seconds.
	HeaderTimestamp = "webhook-timestamp"
	// HeaderSignature carries one or more space-separated signatures,
	// "v1,<base64 HMAC-SHA256>".
	HeaderSignature = "webhook-signature"
	// HeaderSubscriptionID carries the id of the subscription the delivery
	// belongs to, as the subscribe result gave it.
	HeaderSubscriptionID = "X-MCP-Subscription-Id"
)

// DefaultTolerance is how far a delivery's timestamp may lie from the
// receiver's clock, in the past or the future, before it is refused.
const DefaultTolerance = 5 * time.Minute

// signatureVersion is the Standard Webhooks version of an HMAC-SHA256
// signature; other versions (v1a, ed25519) are skipped.
const signatureVersion = "v1"

// Limits on the signature header a receiver accepts.
const (
	maxSignatureHeader = 4096
	maxSignatures      = 16
	maxTimestampDigits = 12
)

// Errors of signature verification, tested with errors.Is.
var (
	// ErrMalformedHeader reports a webhook header that is missing, too long
	// or not of its format.
	ErrMalformedHeader = errors.New("webhook: malformed header")
	// ErrNoSignature reports a signature header without a well-formed v1
	// signature.
	ErrNoSignature = errors.New("webhook: no v1 signature")
	// ErrSignatureMismatch reports that no signature matches any secret.
	ErrSignatureMismatch = errors.New("webhook: no signature matches")
	// ErrTimestamp reports a timestamp further than the tolerance from now.
	ErrTimestamp = errors.New("webhook: timestamp outside the tolerance")
)

// Sign returns the value of the webhook-signature header for a message:
// one "v1,<signature>" per secret, space-separated, each the base64 of
// HMAC-SHA256 under the secret's key of id, ".", the timestamp in Unix
// seconds, ".", and the body exactly as sent. During a rotation, pass the
// new secret and the previous one, and the receiver accepts either. Zero
// secrets are skipped; with none, Sign returns "".
func Sign(id string, timestamp time.Time, body []byte, secrets ...Secret) string {
	return signWith(id, strconv.FormatInt(timestamp.Unix(), 10), body, secrets)
}

func signWith(id, ts string, body []byte, secrets []Secret) string {
	var b strings.Builder
	for _, s := range secrets {
		if s.IsZero() {
			continue
		}
		if b.Len() > 0 {
			b.WriteByte(' ')
		}
		b.WriteString(signatureVersion + ",")
		b.WriteString(base64.StdEncoding.EncodeToString(signatureMAC(s.key, id, ts, body)))
	}
	return b.String()
}

// signatureMAC is HMAC-SHA256(key, id "." ts "." body).
func signatureMAC(key []byte, id, ts string, body []byte) []byte {
	h := hmac.New(sha256.New, key)
	writeSigned(h, id, ts, body)
	return h.Sum(make([]byte, 0, sha256.Size))
}

func writeSigned(h hash.Hash, id, ts string, body []byte) {
	_, _ = io.WriteString(h, id)
	_, _ = h.Write([]byte{'.'})
	_, _ = io.WriteString(h, ts)
	_, _ = h.Write([]byte{'.'})
	_, _ = h.Write(body)
}

// ParseSignatureHeader returns the decoded v1 signatures of a
// webhook-signature header value. Signatures of other versions and
// malformed ones are skipped; the error wraps ErrNoSignature if none is
// left, and ErrMalformedHeader if the header is longer than 4 KiB or holds
// more than 16 signatures.
func ParseSignatureHeader(value string) ([][]byte, error) {
	if len(value) > maxSignatureHeader {
		return nil, fmt.Errorf("%w: %s is longer than %d bytes", ErrMalformedHeader, HeaderSignature, maxSignatureHeader)
	}
	var sigs [][]byte
	n := 0
	for tok := range strings.FieldsSeq(value) {
		if n++; n > maxSignatures {
			return nil, fmt.Errorf("%w: %s holds more than %d signatures", ErrMalformedHeader, HeaderSignature, maxSignatures)
		}
		version, enc, ok := strings.Cut(tok, ",")
		if !ok || version != signatureVersion || len(enc) != base64.StdEncoding.EncodedLen(sha256.Size) {
			continue
		}
		sig, err := base64.StdEncoding.DecodeString(enc)
		if err != nil || len(sig) != sha256.Size {
			continue
		}
		sigs = append(sigs, sig)
	}
	if len(sigs) == 0 {
		return nil, ErrNoSignature
	}
	return sigs, nil
}

// VerifySignature checks the webhook-signature header value sigHeader of a
// message with the given id, webhook-timestamp value and raw body: it
// succeeds if any signature is the HMAC of the message under any of the
// secrets. Signatures are compared in constant time. Its errors wrap
// ErrNoSignature, ErrMalformedHeader or ErrSignatureMismatch.
func VerifySignature(id, timestamp, sigHeader string, body []byte, secrets ...Secret) error {
	sigs, err := ParseSignatureHeader(sigHeader)
	if err != nil {
		return err
	}
	match := 0
	for _, s := range secrets {
		if s.IsZero() {
			continue
		}
		want := signatureMAC(s.key, id, timestamp, body)
		for _, sig := range sigs {
			if hmac.Equal(sig, want) {
				match = 1
			}
		}
	}
	if match == 0 {
		return ErrSignatureMismatch
	}
	return nil
}

// CheckTimestamp parses a webhook-timestamp value (Unix seconds, decimal
// digits only) and checks that it lies within tolerance of now, either way.
// Its errors wrap ErrMalformedHeader or ErrTimestamp.
func CheckTimestamp(value string, now time.Time, tolerance time.Duration) (time.Time, error) {
	if value == "" || len(value) > maxTimestampDigits || strings.TrimLeft(value, "0123456789") != "" {
		return time.Time{}, fmt.Errorf("%w: %s is not a number of seconds", ErrMalformedHeader, HeaderTimestamp)
	}
	sec, err := strconv.ParseInt(value, 10, 64)
	if err != nil {
		return time.Time{}, fmt.Errorf("%w: %s: %w", ErrMalformedHeader, HeaderTimestamp, err)
	}
	ts := time.Unix(sec, 0)
	switch d := now.Sub(ts); {
	case d > tolerance:
		return ts, fmt.Errorf("%w: %s is %s old", ErrTimestamp, HeaderTimestamp, d.Truncate(time.Second))
	case d < -tolerance:
		return ts, fmt.Errorf("%w: %s is %s in the future", ErrTimestamp, HeaderTimestamp, (-d).Truncate(time.Second))
	}
	return ts, nil
}

// Verify checks the webhook headers of a delivery against its raw body: the
// id and timestamp are present, the timestamp lies within tolerance of now,
// and a signature matches one of the secrets. It returns the timestamp.
func Verify(h http.Header, body []byte, now time.Time, tolerance time.Duration, secrets ...Secret) (time.Time, error) {
	id, tsValue := h.Get(HeaderID), h.Get(HeaderTimestamp)
	if id == "" {
		return time.Time{}, fmt.Errorf("%w: %s is missing", ErrMalformedHeader, HeaderID)
	}
	ts, err := CheckTimestamp(tsValue, now, tolerance)
	if err != nil {
		return time.Time{}, err
	}
	if err := VerifySignature(id, tsValue, h.Get(HeaderSignature), body, secrets...); err != nil {
		return time.Time{}, err
	}
	return ts, nil
}
