package auth

import (
	"bytes"
	"log/slog"
	"net/http"
	"runtime"
	"strings"
	"testing"
	"time"
)

// checkNoGoroutineLeak returns a function that fails t if goroutines
// started after the call are still running (after a grace period).
func checkNoGoroutineLeak(t *testing.T) func() {
	before := runtime.NumGoroutine()
	return func() {
		t.Helper()
		var n int
		for i := 0; i < 200; i++ {
			if n = runtime.NumGoroutine(); n <= before {
				return
			}
			time.Sleep(10 * time.Millisecond)
		}
		buf := make([]byte, 1<<16)
		buf = buf[:runtime.Stack(buf, true)]
		t.Errorf("%d goroutines left behind (before %d):\n%s", n-before, before, buf)
	}
}

func TestNoGoroutineAfterClose(t *testing.T) {
	as := newFakeAS(t, "")
	rs := newFakeRS(t, as)
	as.refreshTokens = true
	check := checkNoGoroutineLeak(t)
	base := &http.Transport{}
	tr, _, _ := newCodeTransport(t, rs, &TransportOptions{Base: base, HTTPClient: &http.Client{Transport: &http.Transport{}}})
	for i := 0; i < 3; i++ {
		if status, _, err := postThrough(t, tr, rs.url(), "{}"); err != nil || status != 200 {
			t.Fatalf("got %d, %v", status, err)
		}
	}
	tr.Close()
	http.DefaultClient.CloseIdleConnections() // the headless browser's
	check()
}

func TestSecretsStayOutOfLogsAndErrors(t *testing.T) {
	as := newFakeAS(t, "")
	as.refreshTokens = true
	rs := newFakeRS(t, as)
	var logs bytes.Buffer
	tr, _, _ := newCodeTransport(t, rs, &TransportOptions{
		Logger: slog.New(slog.NewTextHandler(&logs, &slog.HandlerOptions{Level: slog.LevelDebug})),
		Client: &PreRegisteredClient{ClientID: "c", ClientSecret: "very-secret-value"},
	})
	if status, _, err := postThrough(t, tr, rs.url(), "{}"); err != nil || status != 200 {
		t.Fatalf("got %d, %v", status, err)
	}
	tok := tr.Token()
	slog.New(slog.NewTextHandler(&logs, nil)).Info("token", "tok", tok)
	shown := logs.String() + tok.String()
	as.tokenError, as.tokenStatus = "invalid_client", 401
	tr2, _, _ := newCodeTransport(t, rs, &TransportOptions{Client: &PreRegisteredClient{ClientID: "c", ClientSecret: "very-secret-value"}})
	_, _, err := postThrough(t, tr2, rs.url(), "{}")
	if err == nil {
		t.Fatal("no error")
	}
	shown += err.Error()
	for _, secret := range []string{"very-secret-value", tok.AccessToken, tok.RefreshToken} {
		if strings.Contains(shown, secret) {
			t.Errorf("%q shown in logs or errors:\n%s", secret, shown)
		}
	}
	if !strings.Contains(logs.String(), "auth: authorizing") {
		t.Errorf("no debug record logged: %s", logs.String())
	}
}
