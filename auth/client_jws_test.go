package auth

import (
	"crypto"
	"crypto/ecdsa"
	"crypto/ed25519"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/rsa"
	"crypto/sha256"
	"crypto/sha512"
	"crypto/x509"
	"encoding/base64"
	"encoding/pem"
	"errors"
	"math/big"
	"strings"
	"testing"
)

// TestSignJWTAlgorithms signs with every supported algorithm and checks
// the signature with the standard library's verifiers.
func TestSignJWTAlgorithms(t *testing.T) {
	p256, _ := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	p384, _ := ecdsa.GenerateKey(elliptic.P384(), rand.Reader)
	rsaKey, _ := rsa.GenerateKey(rand.Reader, 2048)
	_, edKey, _ := ed25519.GenerateKey(rand.Reader)
	for _, tt := range []struct {
		alg string
		key crypto.Signer
	}{{"ES256", p256}, {"ES384", p384}, {"RS256", rsaKey}, {"PS256", rsaKey}, {"EdDSA", edKey}} {
		t.Run(tt.alg, func(t *testing.T) {
			alg, err := signingAlgorithm(tt.key, tt.alg)
			if err != nil || alg != tt.alg {
				t.Fatalf("signingAlgorithm = %q, %v", alg, err)
			}
			jws, err := signJWT(tt.key, alg, map[string]any{"typ": "JWT"}, map[string]any{"sub": "x"})
			if err != nil {
				t.Fatal(err)
			}
			parts := strings.Split(jws, ".")
			input := []byte(parts[0] + "." + parts[1])
			sig, _ := base64.RawURLEncoding.DecodeString(parts[2])
			ok := false
			switch k := tt.key.Public().(type) {
			case *ecdsa.PublicKey:
				var digest []byte
				if tt.alg == "ES256" {
					d := sha256.Sum256(input)
					digest = d[:]
				} else {
					d := sha512.Sum384(input)
					digest = d[:]
				}
				n := len(sig) / 2
				ok = ecdsa.Verify(k, digest, new(big.Int).SetBytes(sig[:n]), new(big.Int).SetBytes(sig[n:]))
			case *rsa.PublicKey:
				d := sha256.Sum256(input)
				if tt.alg == "RS256" {
					ok = rsa.VerifyPKCS1v15(k, crypto.SHA256, d[:], sig) == nil
				} else {
					ok = rsa.VerifyPSS(k, crypto.SHA256, d[:], sig, nil) == nil
				}
			case ed25519.PublicKey:
				ok = ed25519.Verify(k, input, sig)
			}
			if !ok {
				t.Error("signature does not verify")
			}
		})
	}
	if _, err := signingAlgorithm(p256, "RS256"); !errors.Is(err, ErrUnsupportedKey) {
		t.Errorf("RS256 with an EC key: %v", err)
	}
	small, _ := rsa.GenerateKey(rand.Reader, 1024)
	if _, err := signingAlgorithm(small, ""); !errors.Is(err, ErrUnsupportedKey) {
		t.Errorf("1024-bit RSA: %v", err)
	}
}

func TestParsePrivateKeyPEMForms(t *testing.T) {
	ec, _ := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	rsaKey, _ := rsa.GenerateKey(rand.Reader, 2048)
	sec1, _ := x509.MarshalECPrivateKey(ec)
	for name, block := range map[string]*pem.Block{
		"SEC 1":   {Type: "EC PRIVATE KEY", Bytes: sec1},
		"PKCS #1": {Type: "RSA PRIVATE KEY", Bytes: x509.MarshalPKCS1PrivateKey(rsaKey)},
	} {
		if _, err := ParsePrivateKeyPEM(pem.EncodeToMemory(block)); err != nil {
			t.Errorf("%s: %v", name, err)
		}
	}
	bad := pem.EncodeToMemory(&pem.Block{Type: "PRIVATE KEY", Bytes: []byte("secret-bytes-garbage")})
	if _, err := ParsePrivateKeyPEM(bad); err == nil || strings.Contains(err.Error(), "secret-bytes") {
		t.Errorf("err = %v", err)
	}
	if _, err := ParsePrivateKeyPEM(pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: []byte{1}})); err == nil {
		t.Error("a certificate was accepted as a key")
	}
}
