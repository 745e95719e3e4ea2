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
	"encoding/asn1"
	"encoding/base64"
	"errors"
	"fmt"
	"math/big"

	"github.com/gomcp/sdk/strictjson"
)

// ErrUnsupportedKey reports a signing key whose type or algorithm the client
// cannot use for JWS signatures.
var ErrUnsupportedKey = errors.New("auth: unsupported signing key")

var b64url = base64.RawURLEncoding

// signingAlgorithm returns the JWS algorithm for key: alg when given and
// compatible with the key, else the key's natural algorithm (ES256 for
// P-256, ES384 for P-384, RS256 for RSA, EdDSA for Ed25519).
func signingAlgorithm(key crypto.Signer, alg string) (string, error) {
	var natural []string
	switch k := key.Public().(type) {
	case *ecdsa.PublicKey:
		switch k.Curve {
		case elliptic.P256():
			natural = []string{"ES256"}
		case elliptic.P384():
			natural = []string{"ES384"}
		}
	case *rsa.PublicKey:
		if k.N.BitLen() < 2048 {
			return "", fmt.Errorf("%w: RSA keys need at least 2048 bits", ErrUnsupportedKey)
		}
		natural = []string{"RS256", "PS256"}
	case ed25519.PublicKey:
		natural = []string{"EdDSA"}
	}
	if len(natural) == 0 {
		return "", fmt.Errorf("%w: %T", ErrUnsupportedKey, key.Public())
	}
	if alg == "" {
		return natural[0], nil
	}
	for _, a := range natural {
		if a == alg {
			return alg, nil
		}
	}
	return "", fmt.Errorf("%w: algorithm %q does not fit a %T key", ErrUnsupportedKey, alg, key.Public())
}

// signJWT returns the compact JWS of claims, signed by key with alg, with
// the given extra header members (alg is always set).
func signJWT(key crypto.Signer, alg string, header map[string]any, claims any) (string, error) {
	h := map[string]any{"alg": alg}
	for k, v := range header {
		h[k] = v
	}
	hb, err := strictjson.Marshal(h)
	if err != nil {
		return "", fmt.Errorf("auth: encoding JWS header: %w", err)
	}
	cb, err := strictjson.Marshal(claims)
	if err != nil {
		return "", fmt.Errorf("auth: encoding JWT claims: %w", err)
	}
	input := b64url.EncodeToString(hb) + "." + b64url.EncodeToString(cb)
	sig, err := jwsSign(key, alg, []byte(input))
	if err != nil {
		return "", err
	}
	return input + "." + b64url.EncodeToString(sig), nil
}

// jwsSign signs input as JWS algorithm alg requires (RFC 7518 section 3).
func jwsSign(key crypto.Signer, alg string, input []byte) ([]byte, error) {
	switch alg {
	case "ES256", "ES384":
		k, ok := key.(*ecdsa.PrivateKey)
		var digest []byte
		size := 32
		if alg == "ES256" {
			d := sha256.Sum256(input)
			digest = d[:]
		} else {
			d := sha512.Sum384(input)
			digest, size = d[:], 48
		}
		if !ok {
			// Another signer (an HSM, for example) returns ASN.1 DER.
			der, err := key.Sign(rand.Reader, digest, cryptoHash(alg))
			if err != nil {
				return nil, fmt.Errorf("auth: signing: %w", err)
			}
			return derToRaw(der, size)
		}
		r, s, err := ecdsa.Sign(rand.Reader, k, digest)
		if err != nil {
			return nil, fmt.Errorf("auth: signing: %w", err)
		}
		out := make([]byte, 2*size)
		r.FillBytes(out[:size])
		s.FillBytes(out[size:])
		return out, nil
	case "RS256", "PS256":
		d := sha256.Sum256(input)
		var opts crypto.SignerOpts = crypto.SHA256
		if alg == "PS256" {
			opts = &rsa.PSSOptions{SaltLength: rsa.PSSSaltLengthEqualsHash, Hash: crypto.SHA256}
		}
		sig, err := key.Sign(rand.Reader, d[:], opts)
		if err != nil {
			return nil, fmt.Errorf("auth: signing: %w", err)
		}
		return sig, nil
	case "EdDSA":
		sig, err := key.Sign(rand.Reader, input, crypto.Hash(0))
		if err != nil {
			return nil, fmt.Errorf("auth: signing: %w", err)
		}
		return sig, nil
	}
	return nil, fmt.Errorf("%w: algorithm %q", ErrUnsupportedKey, alg)
}

func cryptoHash(alg string) crypto.Hash {
	if alg == "ES384" {
		return crypto.SHA384
	}
	return crypto.SHA256
}

// derToRaw turns an ASN.1 ECDSA signature into the fixed-size r||s form.
func derToRaw(der []byte, size int) ([]byte, error) {
	var sig struct{ R, S *big.Int }
	if _, err := asn1.Unmarshal(der, &sig); err != nil || sig.R == nil || sig.S == nil {
		return nil, fmt.Errorf("%w: signer returned a malformed ECDSA signature", ErrUnsupportedKey)
	}
	if sig.R.Sign() <= 0 || sig.S.Sign() <= 0 || sig.R.BitLen() > 8*size || sig.S.BitLen() > 8*size {
		return nil, fmt.Errorf("%w: signer returned an out-of-range ECDSA signature", ErrUnsupportedKey)
	}
	out := make([]byte, 2*size)
	sig.R.FillBytes(out[:size])
	sig.S.FillBytes(out[size:])
	return out, nil
}

// publicJWK returns the public JWK of key (RFC 7517), with members in the
// order RFC 7638 uses for thumbprints.
func publicJWK(key crypto.PublicKey) (map[string]string, error) {
	switch k := key.(type) {
	case *ecdsa.PublicKey:
		size := (k.Curve.Params().BitSize + 7) / 8
		crv := map[int]string{256: "P-256", 384: "P-384"}[k.Curve.Params().BitSize]
		if crv == "" {
			return nil, fmt.Errorf("%w: curve %s", ErrUnsupportedKey, k.Curve.Params().Name)
		}
		ecdhKey, err := k.ECDH()
		if err != nil {
			return nil, fmt.Errorf("%w: %v", ErrUnsupportedKey, err)
		}
		raw := ecdhKey.Bytes() // 0x04 || X || Y
		return map[string]string{"crv": crv, "kty": "EC", "x": b64url.EncodeToString(raw[1 : 1+size]), "y": b64url.EncodeToString(raw[1+size:])}, nil
	case *rsa.PublicKey:
		return map[string]string{"e": b64url.EncodeToString(big.NewInt(int64(k.E)).Bytes()), "kty": "RSA", "n": b64url.EncodeToString(k.N.Bytes())}, nil
	case ed25519.PublicKey:
		return map[string]string{"crv": "Ed25519", "kty": "OKP", "x": b64url.EncodeToString(k)}, nil
	}
	return nil, fmt.Errorf("%w: %T", ErrUnsupportedKey, key)
}

// jwkThumbprint returns the RFC 7638 SHA-256 thumbprint of a public JWK,
// base64url-encoded.
func jwkThumbprint(jwk map[string]string) (string, error) {
	// strictjson sorts map keys, which is the member order RFC 7638 needs.
	b, err := strictjson.Marshal(jwk)
	if err != nil {
		return "", err
	}
	sum := sha256.Sum256(b)
	return b64url.EncodeToString(sum[:]), nil
}
