package auth

import (
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/sha256"
	"encoding/asn1"
	"fmt"
	"math/big"
	"reflect"
	"slices"
	"strings"
	"testing"
)

// claimsCases are payloads of every form: those the direct scanner reads
// (scanned true) and those it leaves to the general decoder.
var claimsCases = []struct {
	name, payload string
	scanned       bool // read by the direct scanner
	ok            bool // accepted at all
}{
	{"typical", `{"iss":"https://as","sub":"alice","aud":"https://rs/mcp","client_id":"c","scope":"a b","iat":1700000000,"nbf":1700000000,"exp":1700003600,"jti":"j1"}`, true, true},
	{"white space", " {\n\t\"sub\" : \"alice\" ,\r\n \"exp\":1.5e9 } \n", true, true},
	{"empty object", `{}`, true, true},
	{"empty object with space", `{ }`, true, true},
	{"audience array", `{"aud":["a","b"],"sub":"x"}`, true, true},
	{"empty audience array", `{"aud":[]}`, true, true},
	{"nulls", `{"sub":null,"exp":null,"cnf":null,"scope":null}`, true, true},
	{"cnf", `{"cnf":{"jkt":"abc","x5t#S256":"zzz","nested":{"a":[1,{"b":true}]}}}`, true, true},
	{"scp array", `{"scp":["a","b"]}`, true, true},
	{"scp string", `{"scp":"a b"}`, true, true},
	{"unknown nested claims", `{"realm_access":{"roles":["admin","user"]},"n":-0.5E+3,"t":true,"f":false,"z":null,"e":[]}`, true, true},
	{"non-ASCII", `{"sub":"zoë","名前":"値"}`, true, true},
	{"case differs: unknown", `{"SUB":"alice","Exp":"x"}`, true, true},

	{"escapes in an unknown claim", `{"x":"a\nb\u00e9\"\\\/","y":["\t"],"sub":"a"}`, true, true},
	{"surrogate pair in an unknown claim", `{"x":"\ud83d\ude00"}`, false, true},
	{"bad escape in an unknown claim", `{"x":"\q"}`, false, false},
	{"short escape in an unknown claim", `{"x":"\u12"}`, false, false},
	{"escape in value", `{"sub":"al\u0069ce"}`, false, true},
	{"escape in name", `{"s\u0075b":"alice"}`, false, true},
	{"null audience", `{"aud":null}`, false, true},
	{"number out of range", `{"exp":1e400}`, false, false},
	{"number out of range, unknown claim", `{"x":1e400}`, true, true},
	{"several members", `{"a":1,"b":1,"c":1,"d":1,"e":1,"f":1,"g":1,"h":1,"i":1,"j":1,"k":1,"l":1,"m":1,"n":1,"o":1,"p":1,"q":1}`, true, true},
	{"many members", `{` + manyClaims(40) + `}`, false, true},
	{"nested", `{"a":[[[[[[[[[[[[[[[[[[[[1]]]]]]]]]]]]]]]]]]]]}`, true, true},
	{"deep", `{"a":` + strings.Repeat("[", 130) + strings.Repeat("]", 130) + `}`, false, true},

	{"duplicate registered claim", `{"sub":"a","sub":"b"}`, false, false},
	{"duplicate unknown claim", `{"x":1,"x":2}`, false, false},
	{"duplicate name in cnf", `{"cnf":{"jkt":"a","jkt":"b"}}`, false, false},
	{"duplicate name nested", `{"x":{"y":1,"y":2}}`, false, false},
	{"wrong type", `{"exp":"1700000000"}`, false, false},
	{"wrong audience type", `{"aud":5}`, false, false},
	{"audience of numbers", `{"aud":[1]}`, false, false},
	{"cnf not an object", `{"cnf":"x"}`, false, false},
	{"invalid UTF-8", "{\"sub\":\"\xff\"}", false, false},
	{"control character", "{\"sub\":\"a\x01\"}", false, false},
	{"trailing comma", `{"sub":"a",}`, false, false},
	{"trailing data", `{"sub":"a"} x`, false, false},
	{"two objects", `{}{}`, false, false},
	{"not an object", `["sub"]`, false, false},
	{"leading zero", `{"exp":017}`, false, false},
	{"bare dot", `{"exp":1.}`, false, false},
	{"plus sign", `{"exp":+1}`, false, false},
	{"unterminated", `{"sub":"a"`, false, false},
	{"bad literal", `{"x":nul}`, false, false},
	{"empty", ``, false, false},
}

// manyClaims returns n distinct claims "c0":0,...
func manyClaims(n int) string {
	var b strings.Builder
	for i := range n {
		if i > 0 {
			b.WriteByte(',')
		}
		fmt.Fprintf(&b, `"c%d":%d`, i, i)
	}
	return b.String()
}

// TestDecodeClaims checks both paths of decodeClaims against the general
// strict decoder.
func TestDecodeClaims(t *testing.T) {
	for _, tc := range claimsCases {
		t.Run(tc.name, func(t *testing.T) {
			var scanned jwtClaims
			if got := scanClaims([]byte(tc.payload), &scanned); got != tc.scanned {
				t.Errorf("scanClaims = %v, want %v", got, tc.scanned)
			}
			var c jwtClaims
			err := decodeClaims([]byte(tc.payload), &c)
			if (err == nil) != tc.ok {
				t.Fatalf("decodeClaims error = %v, want ok=%v", err, tc.ok)
			}
			checkSameClaims(t, tc.payload)
		})
	}
}

// checkSameClaims fails t unless decodeClaims and the general decoder
// agree on payload: both refuse it, or both accept it with the same
// claims.
func checkSameClaims(t *testing.T, payload string) {
	t.Helper()
	var got, want jwtClaims
	errGot := decodeClaims([]byte(payload), &got)
	errWant := unmarshalUnbounded([]byte(payload), &want)
	if (errGot == nil) != (errWant == nil) {
		t.Fatalf("decodeClaims(%q) error = %v, general decoder error = %v", payload, errGot, errWant)
	}
	if errGot != nil {
		return
	}
	if gs, ws := tokenScopes(got.Scope, got.Scp), tokenScopes(want.Scope, want.Scp); !reflect.DeepEqual(gs, ws) {
		t.Errorf("decodeClaims(%q) scopes = %q, want %q", payload, gs, ws)
	}
	if len(got.Aud) == 0 && len(want.Aud) == 0 {
		got.Aud, want.Aud = nil, nil
	}
	got.Aud, want.Aud = slices.Clone(got.Aud), slices.Clone(want.Aud) // off their aud1
	got.Scp, want.Scp, got.aud1, want.aud1 = nil, nil, [1]string{}, [1]string{}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("decodeClaims(%q) =\n%+v\nwant\n%+v", payload, got, want)
	}
}

// FuzzDecodeClaims checks that the direct scanner and the general strict
// decoder accept the same claims and read them alike.
func FuzzDecodeClaims(f *testing.F) {
	for _, tc := range claimsCases {
		f.Add(tc.payload)
	}
	f.Fuzz(func(t *testing.T, payload string) {
		checkSameClaims(t, payload)
	})
}

// TestAppendScopes checks the split of "scope" against parseScope.
func TestAppendScopes(t *testing.T) {
	for _, s := range []string{"", " ", "a", "a b", "  a   b  ", "a b c d e f", "a\tb", "a\u00a0b", "a\u2003b c"} {
		var buf [4]string
		got := appendScopes(buf[:0:4], s)
		want := parseScope(s)
		if len(got) != len(want) || (len(want) > 0 && !reflect.DeepEqual(got, want)) {
			t.Errorf("appendScopes(%q) = %q, want %q", s, got, want)
		}
	}
}

// TestP256SigDER checks the DER form of ES256 signatures against
// encoding/asn1, for values with leading zeros, the high bit set, and
// zero.
func TestP256SigDER(t *testing.T) {
	vals := [][]byte{make([]byte, 32), {1}, {0x80}, {0x7f, 0xff}, {0, 0, 0x80, 1}}
	full := make([]byte, 32)
	for i := range full {
		full[i] = 0xff
	}
	vals = append(vals, full)
	for _, r := range vals {
		for _, s := range vals {
			sig := append(pad32(r), pad32(s)...)
			want, err := asn1.Marshal(struct{ R, S *big.Int }{new(big.Int).SetBytes(r), new(big.Int).SetBytes(s)})
			if err != nil {
				t.Fatal(err)
			}
			if got := p256SigDER(nil, sig); string(got) != string(want) {
				t.Errorf("p256SigDER(%x) = %x, want %x", sig, got, want)
			}
		}
	}
	// Real signatures verify, and a changed one does not.
	key, _ := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	jws := &compactJWS{signingInput: "header.payload"}
	h := sha256.Sum256([]byte(jws.signingInput))
	for range 200 {
		r, s, err := ecdsa.Sign(rand.Reader, key, h[:])
		if err != nil {
			t.Fatal(err)
		}
		jws.sig = append(pad32(r.Bytes()), pad32(s.Bytes())...)
		if !jws.verifySignature(AlgES256, &key.PublicKey) {
			t.Fatalf("valid signature %x refused", jws.sig)
		}
		jws.sig[63] ^= 1
		if jws.verifySignature(AlgES256, &key.PublicKey) {
			t.Fatalf("changed signature %x accepted", jws.sig)
		}
	}
}

func pad32(b []byte) []byte {
	return append(make([]byte, 32-len(b), 32), b...)
}
