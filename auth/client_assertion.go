package auth

import (
	"crypto"
	"crypto/x509"
	"encoding/pem"
	"errors"
	"fmt"
	"time"
)

// Client assertion and grant type URNs (RFC 7523, RFC 8693).
const (
	ClientAssertionTypeJWTBearer = "urn:ietf:params:oauth:client-assertion-type:jwt-bearer"
	GrantTypeJWTBearer           = "urn:ietf:params:oauth:grant-type:jwt-bearer"
	GrantTypeTokenExchange       = "urn:ietf:params:oauth:grant-type:token-exchange"
	TokenTypeIDToken             = "urn:ietf:params:oauth:token-type:id_token"
	TokenTypeIDJAG               = "urn:ietf:params:oauth:token-type:id-jag"
)

// ParsePrivateKeyPEM parses a PEM private key (PKCS #8, or SEC 1 "EC
// PRIVATE KEY", or PKCS #1 "RSA PRIVATE KEY") for private_key_jwt or DPoP.
// Errors never include key material.
func ParsePrivateKeyPEM(data []byte) (crypto.Signer, error) {
	block, _ := pem.Decode(data)
	if block == nil {
		return nil, errors.New("auth: no PEM block in private key")
	}
	var key any
	var err error
	switch block.Type {
	case "PRIVATE KEY":
		key, err = x509.ParsePKCS8PrivateKey(block.Bytes)
	case "EC PRIVATE KEY":
		key, err = x509.ParseECPrivateKey(block.Bytes)
	case "RSA PRIVATE KEY":
		key, err = x509.ParsePKCS1PrivateKey(block.Bytes)
	default:
		return nil, fmt.Errorf("auth: unsupported PEM block type %q", block.Type)
	}
	if err != nil {
		return nil, errors.New("auth: malformed private key")
	}
	s, ok := key.(crypto.Signer)
	if !ok {
		return nil, fmt.Errorf("%w: %T", ErrUnsupportedKey, key)
	}
	if _, err := signingAlgorithm(s, ""); err != nil {
		return nil, err
	}
	return s, nil
}

// clientAssertion returns a private_key_jwt client assertion (RFC 7523
// section 2.2): iss and sub are the client id, aud the authorization
// server's issuer, valid for one minute.
func clientAssertion(key crypto.Signer, alg, keyID, clientID, audience string, now time.Time) (string, error) {
	alg, err := signingAlgorithm(key, alg)
	if err != nil {
		return "", err
	}
	header := map[string]any{"typ": "JWT"}
	if keyID != "" {
		header["kid"] = keyID
	}
	return signJWT(key, alg, header, map[string]any{
		"iss": clientID,
		"sub": clientID,
		"aud": audience,
		"jti": randomString(16),
		"iat": now.Unix(),
		"exp": now.Add(time.Minute).Unix(),
	})
}
