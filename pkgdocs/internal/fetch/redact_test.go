package fetch

import (
	"context"
	"net"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"
)

func TestRedacted(t *testing.T) {
	tests := []struct{ in, want string }{
		{"https://registry.example.com/x", "https://registry.example.com/x"},
		{"https://user:s3cret@registry.example.com/x", "https://registry.example.com/x"},
		{"https://t0ken@goproxy.example.com/m/@v/list", "https://goproxy.example.com/m/@v/list"}, // a token as the user name
		{"https://t0ken:@pypi.example.com/simple/", "https://pypi.example.com/simple/"},
	}
	for _, tt := range tests {
		u, err := url.Parse(tt.in)
		if err != nil {
			t.Fatal(err)
		}
		if got := redacted(u); got != tt.want {
			t.Errorf("redacted(%s) = %s, want %s", tt.in, got, tt.want)
		}
		if got := redactedString(tt.in); got != tt.want {
			t.Errorf("redactedString(%s) = %s, want %s", tt.in, got, tt.want)
		}
	}
}

// TestErrorsHideUserInfo: whether the registry refuses, lacks the file or
// cannot be reached, the error names the URL without the user name and
// password the URL carries (net/http's own errors show the user name).
func TestErrorsHideUserInfo(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		http.Error(w, "nope", http.StatusForbidden)
	}))
	defer srv.Close()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	gone := ln.Addr().String()
	ln.Close() // nothing listens there now
	c := New(&Options{Retries: -1})
	for _, u := range []string{
		strings.Replace(srv.URL, "http://", "http://user-t0ken:pass-s3cret@", 1) + "/x",
		strings.Replace(srv.URL, "http://", "http://user-t0ken@", 1) + "/x",
		"http://user-t0ken:pass-s3cret@" + gone + "/x",
		"http://user-t0ken@" + gone + "/x",
	} {
		_, err := c.Get(context.Background(), u)
		if err == nil {
			t.Fatalf("GET %s succeeded", u)
		}
		if msg := err.Error(); strings.Contains(msg, "t0ken") || strings.Contains(msg, "s3cret") {
			t.Errorf("GET with credentials: the error shows them: %s", msg)
		}
	}
}
