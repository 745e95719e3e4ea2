package auth

import (
	"fmt"
	"net/url"
	"strings"
)

// CanonicalResourceURL returns the canonical form of an MCP server's URL
// (RFC 8707 section 2, as the MCP specification uses it): absolute, with
// a lowercase scheme and host, no default port, no fragment, and no
// trailing slash on an empty path. It fails for URLs that cannot identify
// a resource (relative, or with a fragment).
func CanonicalResourceURL(raw string) (string, error) {
	u, err := url.Parse(raw)
	if err != nil {
		return "", fmt.Errorf("auth: resource URL %q: %w", raw, err)
	}
	if u.Scheme == "" || u.Host == "" || u.Opaque != "" {
		return "", fmt.Errorf("auth: resource URL %q is not absolute", raw)
	}
	if u.Fragment != "" || strings.Contains(raw, "#") {
		return "", fmt.Errorf("auth: resource URL %q has a fragment", raw)
	}
	if u.User != nil {
		return "", fmt.Errorf("auth: resource URL %q has user information", raw)
	}
	u.Scheme = strings.ToLower(u.Scheme)
	host := strings.ToLower(u.Hostname())
	port := u.Port()
	if (u.Scheme == "https" && port == "443") || (u.Scheme == "http" && port == "80") {
		port = ""
	}
	if strings.Contains(host, ":") {
		host = "[" + host + "]"
	}
	if port != "" {
		host += ":" + port
	}
	u.Host = host
	if u.Path == "/" && u.RawQuery == "" {
		u.Path, u.RawPath = "", ""
	}
	return u.String(), nil
}

// sameResource reports whether a (an audience or htu value) names the
// resource whose canonical URL is canon: equal as is, or equal once
// canonicalized, ignoring one trailing slash.
func sameResource(a, canon string) bool {
	if a == canon {
		return true
	}
	c, err := CanonicalResourceURL(a)
	if err != nil {
		return false
	}
	return strings.TrimSuffix(c, "/") == strings.TrimSuffix(canon, "/")
}
