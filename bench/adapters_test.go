package bench

import (
	"context"
	"errors"
	"net/http/httptest"
	"testing"
	"time"
)

// connectFunc connects a session of sdk to srv over one transport.
type connectFunc func(ctx context.Context, sdk SDK, srv Server, era Era, t testing.TB) (Session, error)

// transports are the transports every adapter must support: each SDK's
// in-memory transport, os.Pipe, and streamable HTTP on 127.0.0.1.
var transports = []struct {
	name    string
	connect connectFunc
}{
	{"memory", func(ctx context.Context, _ SDK, srv Server, era Era, _ testing.TB) (Session, error) {
		return srv.ConnectInMemory(ctx, era)
	}},
	{"pipe", func(ctx context.Context, _ SDK, srv Server, era Era, _ testing.TB) (Session, error) {
		return srv.ConnectPipe(ctx, era)
	}},
	{"http", func(ctx context.Context, sdk SDK, srv Server, era Era, t testing.TB) (Session, error) {
		h, err := srv.Handler(era)
		if err != nil {
			return nil, err
		}
		ts := httptest.NewServer(h)
		t.Cleanup(ts.Close)
		return sdk.ConnectHTTP(ctx, ts.URL, era, ts.Client())
	}},
}

// TestEcho checks, for every SDK, transport and era, that a client session
// negotiates the era's protocol version and that the echo tool answers
// with the text it was sent. Only features an SDK does not have yet
// (ErrPending) are skipped, with the reason.
func TestEcho(t *testing.T) {
	for _, sdk := range SDKs() {
		for _, tr := range transports {
			for _, era := range Eras {
				t.Run(sdk.Name()+"/"+tr.name+"/"+era.String(), func(t *testing.T) {
					ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
					defer cancel()
					srv, err := sdk.NewServer()
					if err != nil {
						t.Fatal(err)
					}
					defer srv.Close()
					sess, err := tr.connect(ctx, sdk, srv, era, t)
					if errors.Is(err, ErrPending) {
						t.Skip(err)
					}
					if err != nil {
						t.Fatal(err)
					}
					if got, want := sess.ProtocolVersion(), era.Version(); got != want {
						t.Errorf("negotiated version %q, want %q", got, want)
					}
					for _, text := range []string{EchoText, "", "ünïcödé \"quoted\"\n"} {
						if err := sess.Echo(ctx, text); err != nil {
							t.Errorf("Echo(%q): %v", text, err)
						}
					}
					if err := sess.Close(); err != nil {
						t.Errorf("Close: %v", err)
					}
				})
			}
		}
	}
}

// TestRawInMemory checks that every SDK's server completes the raw legacy
// handshake used to measure its idle sessions.
func TestRawInMemory(t *testing.T) {
	for _, sdk := range SDKs() {
		t.Run(sdk.Name(), func(t *testing.T) {
			ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
			defer cancel()
			srv, err := sdk.NewServer()
			if err != nil {
				t.Fatal(err)
			}
			defer srv.Close()
			c, err := srv.ConnectRawInMemory(ctx)
			if err != nil {
				t.Fatal(err)
			}
			c.Close()
		})
	}
}
