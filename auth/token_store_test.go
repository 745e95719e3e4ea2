package auth

import (
	"context"
	"os"
	"path/filepath"
	"testing"
	"time"
)

func TestTokenStores(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	for name, s := range map[string]TokenStore{
		"memory": &MemoryTokenStore{},
		"file":   NewFileTokenStore(filepath.Join(dir, "tokens.json")),
	} {
		t.Run(name, func(t *testing.T) {
			if tok, err := s.Load(ctx, "https://a/mcp"); tok != nil || err != nil {
				t.Fatalf("empty store: %v, %v", tok, err)
			}
			want := &Token{AccessToken: "at", TokenType: "Bearer", RefreshToken: "rt", Expiry: time.Unix(1e9, 0).UTC(), Scopes: []string{"a"}, Issuer: "https://as"}
			if err := s.Save(ctx, "https://a/mcp", want); err != nil {
				t.Fatal(err)
			}
			s.Save(ctx, "https://b/mcp", &Token{AccessToken: "other", TokenType: "Bearer"})
			got, err := s.Load(ctx, "https://a/mcp")
			if err != nil || got.AccessToken != "at" || got.RefreshToken != "rt" || !got.Expiry.Equal(want.Expiry) || got.Issuer != "https://as" {
				t.Fatalf("Load = %+v, %v", got, err)
			}
			if err := s.Save(ctx, "https://a/mcp", nil); err != nil {
				t.Fatal(err)
			}
			if tok, _ := s.Load(ctx, "https://a/mcp"); tok != nil {
				t.Errorf("deleted token still there: %v", tok)
			}
			if tok, _ := s.Load(ctx, "https://b/mcp"); tok == nil || tok.AccessToken != "other" {
				t.Errorf("other entry lost: %v", tok)
			}
		})
	}
}

// TestFileTokenStoreIsAtomic checks that a save leaves no temporary file
// and that a malformed file is refused; the file's access is checked by
// TestFileTokenStoreAccess, one per platform.
func TestFileTokenStoreIsAtomic(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "tokens.json")
	s := NewFileTokenStore(path)
	if err := s.Save(context.Background(), "k", &Token{AccessToken: "at", TokenType: "Bearer"}); err != nil {
		t.Fatal(err)
	}
	entries, _ := os.ReadDir(dir)
	if len(entries) != 1 {
		t.Errorf("directory holds %d files, want only the store (no temporary left)", len(entries))
	}
	os.WriteFile(path, []byte(`{"k":{"access_token":"a","access_token":"b"}}`), 0o600)
	if _, err := s.Load(context.Background(), "k"); err == nil {
		t.Error("a file with duplicate members was accepted")
	}
}

func TestTransportKeepsTokensAcrossRuns(t *testing.T) {
	as := newFakeAS(t, "")
	rs := newFakeRS(t, as)
	store := NewFileTokenStore(filepath.Join(t.TempDir(), "tokens.json"))
	tr1, calls1, _ := newCodeTransport(t, rs, &TransportOptions{Store: store})
	if status, _, err := postThrough(t, tr1, rs.url(), "{}"); err != nil || status != 200 {
		t.Fatalf("got %d, %v", status, err)
	}
	tr1.Close()
	tr2, calls2, _ := newCodeTransport(t, rs, &TransportOptions{Store: store})
	if status, _, err := postThrough(t, tr2, rs.url(), "{}"); err != nil || status != 200 {
		t.Fatalf("second run: %d, %v", status, err)
	}
	if *calls1 != 1 || *calls2 != 0 {
		t.Errorf("authorizations %d then %d, want 1 then 0", *calls1, *calls2)
	}
}

func TestStoredTokenRefreshedInTheNextRun(t *testing.T) {
	as := newFakeAS(t, "")
	as.refreshTokens, as.expiresIn = true, 30 // due for refresh at once
	rs := newFakeRS(t, as)
	store := &MemoryTokenStore{}
	tr1, _, _ := newCodeTransport(t, rs, &TransportOptions{Store: store})
	if status, _, err := postThrough(t, tr1, rs.url(), "{}"); err != nil || status != 200 {
		t.Fatalf("got %d, %v", status, err)
	}
	tr1.Close()
	tr2, calls, _ := newCodeTransport(t, rs, &TransportOptions{Store: store})
	if status, _, err := postThrough(t, tr2, rs.url(), "{}"); err != nil || status != 200 {
		t.Fatalf("second run: %d, %v", status, err)
	}
	last := as.tokenForms[len(as.tokenForms)-1]
	if *calls != 0 || len(as.registered) != 1 || last.Get("grant_type") != "refresh_token" || last.Get("client_id") != as.authorizeQ[0].Get("client_id") {
		t.Errorf("authorizations %d, registrations %d, last grant %v; want a refresh by the first run's client", *calls, len(as.registered), last)
	}
}
