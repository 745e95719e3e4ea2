package webhook

import (
	"crypto/hmac"
	"crypto/sha256"
	"encoding/base64"
	"errors"
	"net/http"
	"strings"
	"testing"
	"time"
)

// The published Standard Webhooks test vector.
const (
	vectorSecret    = "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw"
	vectorID        = "msg_p5jXN8AQM9LWM0D4loKWxJek"
	vectorTimestamp = 1614265330
	vectorBody      = `{"test": 2432232314}`
	vectorSignature = "v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE="
)

// TestSignStandardVector: Sign reproduces the Standard Webhooks vector, so
// any Standard Webhooks library verifies what a Sender sends.
func TestSignStandardVector(t *testing.T) {
	got := Sign(vectorID, time.Unix(vectorTimestamp, 0), []byte(vectorBody), mustSecret(t, vectorSecret))
	if got != vectorSignature {
		t.Fatalf("Sign = %q, want %q", got, vectorSignature)
	}
	if err := VerifySignature(vectorID, "1614265330", vectorSignature, []byte(vectorBody), mustSecret(t, vectorSecret)); err != nil {
		t.Fatal(err)
	}
}

// TestLiteralSecretNegativeControl: the key is the decoded bytes after
// whsec_, never the literal string. A signature made with the literal
// string (a common mistake) is refused.
func TestLiteralSecretNegativeControl(t *testing.T) {
	h := hmac.New(sha256.New, []byte(vectorSecret))
	h.Write([]byte(vectorID + ".1614265330." + vectorBody))
	literal := "v1," + base64.StdEncoding.EncodeToString(h.Sum(nil))
	if literal == vectorSignature {
		t.Fatal("the negative control signs like the real key")
	}
	err := VerifySignature(vectorID, "1614265330", literal, []byte(vectorBody), mustSecret(t, vectorSecret))
	if !errors.Is(err, ErrSignatureMismatch) {
		t.Fatalf("VerifySignature of a literal-string signature = %v, want ErrSignatureMismatch", err)
	}
}

// TestVerifySignature: any matching signature of any secret verifies;
// anything changed in id, timestamp or body does not.
func TestVerifySignature(t *testing.T) {
	key := mustSecret(t, vectorSecret)
	other := GenerateSecret()
	body := []byte(vectorBody)
	ts := "1614265330"
	bySecret := Sign(vectorID, time.Unix(vectorTimestamp, 0), body, other)
	tests := []struct {
		name    string
		id, ts  string
		sig     string
		body    string
		secrets []Secret
		want    error
	}{
		{"the vector", vectorID, ts, vectorSignature, vectorBody, []Secret{key}, nil},
		{"second of two signatures (rotation)", vectorID, ts, bySecret + " " + vectorSignature, vectorBody, []Secret{key}, nil},
		{"first of two signatures", vectorID, ts, vectorSignature + " " + bySecret, vectorBody, []Secret{key}, nil},
		{"second of two secrets", vectorID, ts, vectorSignature, vectorBody, []Secret{other, key}, nil},
		{"a v1a signature is skipped", vectorID, ts, "v1a,AAAA " + vectorSignature, vectorBody, []Secret{key}, nil},
		{"malformed ones are skipped", vectorID, ts, "v1 v1,!!! v1,AAAA " + vectorSignature, vectorBody, []Secret{key}, nil},
		{"body changed", vectorID, ts, vectorSignature, vectorBody + " ", []Secret{key}, ErrSignatureMismatch},
		{"id changed", vectorID + "x", ts, vectorSignature, vectorBody, []Secret{key}, ErrSignatureMismatch},
		{"timestamp changed", vectorID, "1614265331", vectorSignature, vectorBody, []Secret{key}, ErrSignatureMismatch},
		{"other secret", vectorID, ts, vectorSignature, vectorBody, []Secret{other}, ErrSignatureMismatch},
		{"no secret", vectorID, ts, vectorSignature, vectorBody, nil, ErrSignatureMismatch},
		{"empty header", vectorID, ts, "", vectorBody, []Secret{key}, ErrNoSignature},
		{"only v1a", vectorID, ts, "v1a,AAAA", vectorBody, []Secret{key}, ErrNoSignature},
		{"hex instead of base64", vectorID, ts, "v1,836c4cf52b04f8e3d325", vectorBody, []Secret{key}, ErrNoSignature},
		{"too many signatures", vectorID, ts, strings.Repeat("v1,AAAA ", 17) + vectorSignature, vectorBody, []Secret{key}, ErrMalformedHeader},
		{"too long", vectorID, ts, strings.Repeat(" ", 4097) + vectorSignature, vectorBody, []Secret{key}, ErrMalformedHeader},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := VerifySignature(tt.id, tt.ts, tt.sig, []byte(tt.body), tt.secrets...)
			if tt.want == nil && err != nil || tt.want != nil && !errors.Is(err, tt.want) {
				t.Fatalf("VerifySignature = %v, want %v", err, tt.want)
			}
		})
	}
}

// TestCheckTimestamp: 5 minutes of tolerance either way, digits only.
func TestCheckTimestamp(t *testing.T) {
	now := time.Unix(1_800_000_000, 0)
	tests := []struct {
		value string
		want  error
	}{
		{"1800000000", nil},
		{"1799999700", nil}, // 5 min old
		{"1800000300", nil}, // 5 min ahead
		{"1799999699", ErrTimestamp},
		{"1800000301", ErrTimestamp},
		{"0", ErrTimestamp},
		{"", ErrMalformedHeader},
		{"+1800000000", ErrMalformedHeader},
		{"-1", ErrMalformedHeader},
		{"1800000000.5", ErrMalformedHeader},
		{"1.8e9", ErrMalformedHeader},
		{"99999999999999999999", ErrMalformedHeader},
		{" 1800000000", ErrMalformedHeader},
	}
	for _, tt := range tests {
		_, err := CheckTimestamp(tt.value, now, DefaultTolerance)
		if tt.want == nil && err != nil || tt.want != nil && !errors.Is(err, tt.want) {
			t.Errorf("CheckTimestamp(%q) = %v, want %v", tt.value, err, tt.want)
		}
	}
}

// TestVerifyHeaders: Verify reads the three headers of a request.
func TestVerifyHeaders(t *testing.T) {
	key := GenerateSecret()
	now := time.Unix(1_800_000_000, 0)
	body := []byte(`{"eventId":"e1"}`)
	h := http.Header{}
	h.Set(HeaderID, "e1")
	h.Set(HeaderTimestamp, "1800000000")
	h.Set(HeaderSignature, Sign("e1", now, body, key))
	if _, err := Verify(h, body, now, DefaultTolerance, key); err != nil {
		t.Fatal(err)
	}
	if _, err := Verify(h, body, now.Add(6*time.Minute), DefaultTolerance, key); !errors.Is(err, ErrTimestamp) {
		t.Fatalf("Verify 6 min later = %v, want ErrTimestamp", err)
	}
	h.Del(HeaderID)
	if _, err := Verify(h, body, now, DefaultTolerance, key); !errors.Is(err, ErrMalformedHeader) {
		t.Fatalf("Verify without webhook-id = %v, want ErrMalformedHeader", err)
	}
}

// FuzzParseSignatureHeader: the parser never panics, returns only 32-byte
// signatures, at most 16, and reads back what Sign writes.
func FuzzParseSignatureHeader(f *testing.F) {
	f.Add(vectorSignature)
	f.Add(vectorSignature + " v1a,AAAA v1,")
	f.Add("v1,,, ,v1 v1,====")
	f.Add(strings.Repeat("v1,AAAA ", 20))
	f.Fuzz(func(t *testing.T, header string) {
		sigs, err := ParseSignatureHeader(header)
		if err != nil {
			if sigs != nil || !errors.Is(err, ErrNoSignature) && !errors.Is(err, ErrMalformedHeader) {
				t.Fatalf("ParseSignatureHeader = %v, %v", sigs, err)
			}
			return
		}
		if len(sigs) == 0 || len(sigs) > maxSignatures {
			t.Fatalf("%d signatures", len(sigs))
		}
		for _, s := range sigs {
			if len(s) != sha256.Size {
				t.Fatalf("a signature of %d bytes", len(s))
			}
		}
		k := GenerateSecret()
		signed := Sign(header, time.Unix(1, 0), []byte(header), k, k)
		back, err := ParseSignatureHeader(signed)
		if err != nil || len(back) != 2 {
			t.Fatalf("ParseSignatureHeader(Sign(...)) = %d, %v", len(back), err)
		}
	})
}
