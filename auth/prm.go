package auth

import (
	"fmt"
	"net/http"
	"net/url"
	"strconv"
	"strings"

	"github.com/gomcp/sdk/strictjson"
)

// wellKnownPRM is the well-known path prefix of RFC 9728.
const wellKnownPRM = "/.well-known/oauth-protected-resource"

// ProtectedResourceMetadataURL returns the URL where the Protected
// Resource Metadata of resource is served (RFC 9728 section 3.1): the
// well-known prefix inserted between the host and the path, so
// "https://example.com/mcp" has its metadata at
// "https://example.com/.well-known/oauth-protected-resource/mcp".
func ProtectedResourceMetadataURL(resource string) (string, error) {
	c, err := CanonicalResourceURL(resource)
	if err != nil {
		return "", err
	}
	u, _ := url.Parse(c)
	if u.RawQuery != "" {
		return "", fmt.Errorf("auth: resource URL %q has a query", resource)
	}
	path := strings.TrimSuffix(u.EscapedPath(), "/")
	return u.Scheme + "://" + u.Host + wellKnownPRM + path, nil
}

// ProtectedResourceMetadataPath returns the path part of
// ProtectedResourceMetadataURL(resource), to register the handler on a
// mux.
func ProtectedResourceMetadataPath(resource string) (string, error) {
	s, err := ProtectedResourceMetadataURL(resource)
	if err != nil {
		return "", err
	}
	u, _ := url.Parse(s)
	return u.EscapedPath(), nil
}

// ProtectedResourceMetadataHandler returns an http.Handler serving md as
// JSON, for the path-aware well-known URL of the endpoint (see
// ProtectedResourceMetadataPath) and, if the server has one endpoint, the
// root well-known URL too. The document is encoded once. It is readable
// from any origin (CORS), since it is public: GET and HEAD get it, OPTIONS
// answers a preflight, and other methods get 405 with an Allow header.
//
// It returns an error if md lacks resource or authorization_servers
// (the MCP specification requires at least one).
func ProtectedResourceMetadataHandler(md *ProtectedResourceMetadata) (http.Handler, error) {
	if md == nil || md.Resource == "" {
		return nil, fmt.Errorf("auth: protected resource metadata needs a resource")
	}
	if len(md.AuthorizationServers) == 0 {
		return nil, fmt.Errorf("auth: protected resource metadata needs at least one authorization server")
	}
	doc := *md
	if len(doc.BearerMethodsSupported) == 0 {
		doc.BearerMethodsSupported = []string{"header"}
	}
	body, err := strictjson.Marshal(&doc)
	if err != nil {
		return nil, err
	}
	return &prmHandler{body: append(body, '\n')}, nil
}

type prmHandler struct {
	body []byte
}

var _ http.Handler = (*prmHandler)(nil)

const prmAllow = "GET, HEAD, OPTIONS"

func (h *prmHandler) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	hdr := w.Header()
	hdr.Set("Access-Control-Allow-Origin", "*")
	switch r.Method {
	case http.MethodGet, http.MethodHead:
		hdr.Set("Content-Type", "application/json")
		hdr.Set("Cache-Control", "public, max-age=3600")
		hdr.Set("Content-Length", strconv.Itoa(len(h.body)))
		hdr.Set("X-Content-Type-Options", "nosniff")
		w.WriteHeader(http.StatusOK)
		if r.Method == http.MethodGet {
			w.Write(h.body)
		}
	case http.MethodOptions:
		hdr.Set("Access-Control-Allow-Methods", prmAllow)
		hdr.Set("Access-Control-Allow-Headers", "Mcp-Protocol-Version, Content-Type")
		hdr.Set("Access-Control-Max-Age", "86400")
		hdr.Set("Allow", prmAllow)
		w.WriteHeader(http.StatusNoContent)
	default:
		hdr.Set("Allow", prmAllow)
		hdr.Set("Content-Type", "text/plain; charset=utf-8")
		w.WriteHeader(http.StatusMethodNotAllowed)
		w.Write([]byte("method " + strconv.Quote(r.Method) + " not allowed\n"))
	}
}
