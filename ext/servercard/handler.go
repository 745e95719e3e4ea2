package servercard

import (
	"crypto/sha256"
	"encoding/hex"
	"net/http"
	"net/url"
	"strconv"
	"strings"

	"github.com/gomcp/sdk/mcp"
)

// cacheControl is the Cache-Control of a card or catalog: public, fresh
// for an hour, as the extension recommends.
const cacheControl = "public, max-age=3600"

// A Handler serves one public, static JSON document, a card or a catalog,
// as the Server Card extension asks of card endpoints:
//
//   - GET and HEAD get 200 with the document's media type,
//     Cache-Control "public, max-age=3600" and a strong ETag (a SHA-256
//     of the body); a request whose If-None-Match matches the ETag (or is
//     "*") gets 304 Not Modified without a body.
//   - Every answer allows every origin (Access-Control-Allow-Origin: *,
//     Allow-Methods GET, HEAD; Allow-Headers Content-Type, If-None-Match;
//     Expose-Headers ETag), and OPTIONS answers a CORS preflight with 204.
//   - Other methods get 405 with Allow and Cache-Control: no-store.
//
// The document is encoded and validated when the Handler is made, so
// serving it allocates little and cannot fail. A Handler is safe for
// concurrent use. The query string is ignored.
type Handler struct {
	body      []byte
	etag      string
	mediaType string
	length    string
}

var _ http.Handler = (*Handler)(nil)

// NewHandler returns a Handler serving the card of s (see FromServer),
// with the media type MediaType. Mount it at the URL of the server's
// streamable HTTP endpoint plus Suffix: "/mcp/server-card" for a server
// at "/mcp".
func NewHandler(s *mcp.Server, opts *Options) (*Handler, error) {
	c, err := FromServer(s, opts)
	if err != nil {
		return nil, err
	}
	return NewCardHandler(c)
}

// NewCardHandler returns a Handler serving c, which is validated first
// (see Card.Validate). Later changes to c do not change what is served.
func NewCardHandler(c *Card) (*Handler, error) {
	body, err := c.encode()
	if err != nil {
		return nil, err
	}
	return newHandler(body, MediaType), nil
}

func newHandler(body []byte, mediaType string) *Handler {
	sum := sha256.Sum256(body)
	return &Handler{
		body:      body,
		etag:      `"` + hex.EncodeToString(sum[:]) + `"`,
		mediaType: mediaType,
		length:    strconv.Itoa(len(body)),
	}
}

// ETag returns the entity tag of the document, quoted as it is sent.
func (h *Handler) ETag() string { return h.etag }

// Body returns the JSON text served, in a copy the caller owns.
func (h *Handler) Body() []byte { return append([]byte(nil), h.body...) }

// ServeHTTP answers r as the type's documentation says.
func (h *Handler) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	hd := w.Header()
	hd.Set("Access-Control-Allow-Origin", "*")
	hd.Set("Access-Control-Allow-Methods", "GET, HEAD")
	hd.Set("Access-Control-Allow-Headers", "Content-Type, If-None-Match")
	hd.Set("Access-Control-Expose-Headers", "ETag")
	hd.Set("X-Content-Type-Options", "nosniff")
	switch r.Method {
	case http.MethodGet, http.MethodHead:
	case http.MethodOptions:
		hd.Set("Access-Control-Max-Age", "86400")
		hd.Set("Allow", "GET, HEAD, OPTIONS")
		w.WriteHeader(http.StatusNoContent)
		return
	default:
		hd.Set("Allow", "GET, HEAD, OPTIONS")
		hd.Set("Cache-Control", "no-store")
		http.Error(w, "method not allowed: a card is read with GET", http.StatusMethodNotAllowed)
		return
	}
	hd.Set("Cache-Control", cacheControl)
	hd.Set("ETag", h.etag)
	if etagMatches(r.Header.Values("If-None-Match"), h.etag) {
		w.WriteHeader(http.StatusNotModified)
		return
	}
	hd.Set("Content-Type", h.mediaType)
	hd.Set("Content-Length", h.length)
	w.WriteHeader(http.StatusOK)
	if r.Method == http.MethodGet {
		w.Write(h.body)
	}
}

// etagMatches reports whether the If-None-Match header values name etag
// or are "*". If-None-Match compares weakly (RFC 9110, 13.1.2): W/"x"
// matches "x".
func etagMatches(values []string, etag string) bool {
	for _, v := range values {
		for _, tag := range strings.Split(v, ",") {
			tag = strings.TrimSpace(tag)
			if tag == "*" || strings.TrimPrefix(tag, "W/") == etag {
				return true
			}
		}
	}
	return false
}

// URLFor returns the reserved location of the card of the server whose
// streamable HTTP endpoint is at mcpURL: Suffix appended to its path,
// without a doubled slash ("https://host/mcp" gives
// "https://host/mcp/server-card"); a query string stays a query string.
func URLFor(mcpURL string) string {
	u, err := url.Parse(mcpURL)
	if err != nil || u.Opaque != "" {
		return strings.TrimSuffix(mcpURL, "/") + Suffix
	}
	u.Path = strings.TrimSuffix(u.Path, "/") + Suffix
	u.RawPath = ""
	return u.String()
}
