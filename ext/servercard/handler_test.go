package servercard

import (
	"fmt"
	"io"
	"maps"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/gomcp/sdk/internal/goldentest"
)

// exchange sends a request to h and returns the response.
func exchange(h http.Handler, method string, header map[string]string) *http.Response {
	req := httptest.NewRequest(method, "https://mcp.example.com/mcp/server-card", nil)
	for k, v := range header {
		req.Header.Set(k, v)
	}
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, req)
	return rec.Result()
}

// dump writes a request and its response as text: the request line and
// headers, the status, every response header sorted, and the body.
func dump(method string, header map[string]string, resp *http.Response) string {
	var b strings.Builder
	fmt.Fprintf(&b, "> %s /mcp/server-card\n", method)
	for _, k := range sortedKeys(header) {
		fmt.Fprintf(&b, "> %s: %s\n", k, header[k])
	}
	fmt.Fprintf(&b, "< %s\n", resp.Status)
	for _, k := range slices.Sorted(maps.Keys(resp.Header)) {
		fmt.Fprintf(&b, "< %s: %s\n", k, strings.Join(resp.Header[k], ", "))
	}
	body, _ := io.ReadAll(resp.Body)
	fmt.Fprintf(&b, "\n%s\n\n", body)
	return b.String()
}

// TestGoldenCardExchanges records what a client sees of the weather card
// on the wire (GET, a revalidation answered 304, HEAD, a CORS preflight,
// a refused POST) and compares it with testdata/golden/card.txt. Run with
// -update to rewrite the file after an intended change.
func TestGoldenCardExchanges(t *testing.T) {
	h := weatherHandler(t)
	var log strings.Builder
	for _, ex := range []struct {
		method string
		header map[string]string
	}{
		{"GET", map[string]string{"Accept": MediaType}},
		{"GET", map[string]string{"Accept": MediaType, "If-None-Match": h.ETag()}},
		{"HEAD", nil},
		{"OPTIONS", map[string]string{"Origin": "https://app.example.org", "Access-Control-Request-Method": "GET", "Access-Control-Request-Headers": "if-none-match"}},
		{"POST", nil},
	} {
		log.WriteString(dump(ex.method, ex.header, exchange(h, ex.method, ex.header)))
	}
	goldentest.Compare(t, filepath.Join("testdata", "golden", "card.txt"), log.String())
}

// The checks of a card endpoint that a conformance test makes (the
// reference's section 3.9), one row each.
func TestCardEndpoint(t *testing.T) {
	h := weatherHandler(t)
	get := exchange(h, "GET", map[string]string{"Accept": MediaType})
	body, _ := io.ReadAll(get.Body)
	tests := []struct {
		check string
		got   string
		want  func(string) bool
	}{
		{"status 200", get.Status, is("200 OK")},
		{"Content-Type is the card's media type", get.Header.Get("Content-Type"), is(MediaType)},
		{"Access-Control-Allow-Origin is *", get.Header.Get("Access-Control-Allow-Origin"), is("*")},
		{"Access-Control-Allow-Methods includes GET", get.Header.Get("Access-Control-Allow-Methods"), hasItem("GET")},
		{"Access-Control-Allow-Headers includes Content-Type", get.Header.Get("Access-Control-Allow-Headers"), hasItem("Content-Type")},
		{"Access-Control-Allow-Headers includes If-None-Match", get.Header.Get("Access-Control-Allow-Headers"), hasItem("If-None-Match")},
		{"Access-Control-Expose-Headers is ETag", get.Header.Get("Access-Control-Expose-Headers"), is("ETag")},
		{"Cache-Control includes public", get.Header.Get("Cache-Control"), hasItem("public")},
		{"Cache-Control includes max-age", get.Header.Get("Cache-Control"), hasItem("max-age=3600")},
		{"ETag is present and strong", get.Header.Get("ETag"), func(s string) bool { return strings.HasPrefix(s, `"`) && len(s) > 2 }},
		{"the body is the card", string(body), is(string(h.Body()))},
	}
	for _, tt := range tests {
		if !tt.want(tt.got) {
			t.Errorf("%s: got %q", tt.check, tt.got)
		}
	}
	if _, _, err := ParseCard(body); err != nil {
		t.Errorf("the body served is not a valid card: %v", err)
	}
}

func is(want string) func(string) bool { return func(s string) bool { return s == want } }

// hasItem reports whether a comma-separated header value lists want.
func hasItem(want string) func(string) bool {
	return func(s string) bool {
		for _, item := range strings.Split(s, ",") {
			if strings.EqualFold(strings.TrimSpace(item), want) {
				return true
			}
		}
		return false
	}
}

// If-None-Match gets 304 without a body when it names the card's ETag,
// compared weakly as RFC 9110 asks; any other value gets the card.
func TestCardRevalidation(t *testing.T) {
	h := weatherHandler(t)
	etag := h.ETag()
	tests := []struct {
		ifNoneMatch string
		want        int
	}{
		{etag, http.StatusNotModified},
		{"W/" + etag, http.StatusNotModified},
		{`"other", ` + etag, http.StatusNotModified},
		{"*", http.StatusNotModified},
		{`"other"`, http.StatusOK},
		{strings.Trim(etag, `"`), http.StatusOK}, // unquoted: not the same tag
	}
	for _, tt := range tests {
		for _, method := range []string{"GET", "HEAD"} {
			resp := exchange(h, method, map[string]string{"If-None-Match": tt.ifNoneMatch})
			body, _ := io.ReadAll(resp.Body)
			if resp.StatusCode != tt.want {
				t.Errorf("%s If-None-Match %s: status %d, want %d", method, tt.ifNoneMatch, resp.StatusCode, tt.want)
			}
			if resp.Header.Get("ETag") != etag {
				t.Errorf("%s If-None-Match %s: ETag %q, want %q", method, tt.ifNoneMatch, resp.Header.Get("ETag"), etag)
			}
			if (tt.want == http.StatusNotModified || method == "HEAD") && len(body) != 0 {
				t.Errorf("%s If-None-Match %s: a body of %d bytes", method, tt.ifNoneMatch, len(body))
			}
		}
	}
}

// A changed card has a new ETag, so a client's revalidation gets it.
func TestChangedCardChangesETag(t *testing.T) {
	old := weatherHandler(t)
	c := weatherCard(t)
	c.Version = "1.4.3"
	changed, err := NewCardHandler(c)
	if err != nil {
		t.Fatal(err)
	}
	if old.ETag() == changed.ETag() {
		t.Fatalf("both versions have ETag %s", old.ETag())
	}
	resp := exchange(changed, "GET", map[string]string{"If-None-Match": old.ETag()})
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("revalidating with the old ETag: status %d, want 200", resp.StatusCode)
	}
	again, err := NewCardHandler(weatherCard(t))
	if err != nil {
		t.Fatal(err)
	}
	if again.ETag() != old.ETag() {
		t.Fatalf("the same card has two ETags: %s and %s", old.ETag(), again.ETag())
	}
}

// Methods other than GET, HEAD and OPTIONS are refused with 405, Allow,
// and no-store; the preflight answers with the CORS headers and no body.
func TestCardMethods(t *testing.T) {
	h := weatherHandler(t)
	tests := []struct {
		method string
		status int
		allow  string
		cache  string
	}{
		{"GET", 200, "", cacheControl},
		{"HEAD", 200, "", cacheControl},
		{"OPTIONS", 204, "GET, HEAD, OPTIONS", ""},
		{"POST", 405, "GET, HEAD, OPTIONS", "no-store"},
		{"PUT", 405, "GET, HEAD, OPTIONS", "no-store"},
		{"DELETE", 405, "GET, HEAD, OPTIONS", "no-store"},
	}
	for _, tt := range tests {
		resp := exchange(h, tt.method, nil)
		if resp.StatusCode != tt.status || resp.Header.Get("Allow") != tt.allow || resp.Header.Get("Cache-Control") != tt.cache {
			t.Errorf("%s: status %d, Allow %q, Cache-Control %q; want %d, %q, %q", tt.method, resp.StatusCode,
				resp.Header.Get("Allow"), resp.Header.Get("Cache-Control"), tt.status, tt.allow, tt.cache)
		}
		if resp.Header.Get("Access-Control-Allow-Origin") != "*" {
			t.Errorf("%s: no Access-Control-Allow-Origin: *", tt.method)
		}
	}
}

// URLFor appends the reserved suffix to the MCP endpoint's URL.
func TestURLFor(t *testing.T) {
	for in, want := range map[string]string{
		"https://host/mcp":      "https://host/mcp/server-card",
		"https://host/mcp/":     "https://host/mcp/server-card",
		"https://host/api/mcp":  "https://host/api/mcp/server-card",
		"http://127.0.0.1:8080": "http://127.0.0.1:8080/server-card",
		"https://host/mcp?t=a":  "https://host/mcp/server-card?t=a",
	} {
		if got := URLFor(in); got != want {
			t.Errorf("URLFor(%q) = %q, want %q", in, got, want)
		}
	}
}
