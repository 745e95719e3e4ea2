package auth

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"testing"
)

func TestClientMetadataDocumentHandler(t *testing.T) {
	md := &ClientMetadata{ClientID: "https://app.example.com/oauth/client.json", ClientName: "App", RedirectURIs: []string{"http://127.0.0.1/callback"}}
	h, err := ClientMetadataDocumentHandler(md)
	if err != nil {
		t.Fatal(err)
	}
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, httptest.NewRequest(http.MethodGet, "/oauth/client.json", nil))
	var got map[string]any
	if err := json.Unmarshal(rec.Body.Bytes(), &got); err != nil || got["client_id"] != md.ClientID || got["token_endpoint_auth_method"] != "none" || rec.Header().Get("Content-Type") != "application/json" {
		t.Errorf("document %s, %v", rec.Body, err)
	}
	rec = httptest.NewRecorder()
	h.ServeHTTP(rec, httptest.NewRequest(http.MethodPost, "/oauth/client.json", nil))
	if rec.Code != http.StatusMethodNotAllowed {
		t.Errorf("POST: %d", rec.Code)
	}
	for _, bad := range []*ClientMetadata{
		{ClientID: "http://app.example.com/c.json", ClientName: "A", RedirectURIs: []string{"x"}},
		{ClientID: "https://app.example.com", ClientName: "A", RedirectURIs: []string{"x"}},
		{ClientID: "https://app.example.com/c.json", RedirectURIs: []string{"x"}},
		{ClientID: "https://app.example.com/c.json", ClientName: "A"},
	} {
		if _, err := ClientMetadataDocumentHandler(bad); err == nil {
			t.Errorf("%+v accepted", bad)
		}
	}
	if _, err := NewTransport("https://mcp.example.com/mcp", &TransportOptions{Grant: ClientCredentialsGrant{}, ClientMetadataURL: "https://app.example.com/"}); err == nil {
		t.Error("a client metadata URL without a path was accepted")
	}
}

func TestApplicationType(t *testing.T) {
	for redirects, want := range map[string]string{
		"http://127.0.0.1:8080/cb": "native", "http://localhost/cb": "native", "com.example.app:/cb": "native",
		"https://app.example.com/cb": "web", "http://app.example.com/cb": "web",
	} {
		if got := applicationType([]string{redirects}); got != want {
			t.Errorf("%s: %s, want %s", redirects, got, want)
		}
	}
}
