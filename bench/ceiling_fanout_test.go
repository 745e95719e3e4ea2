package bench

import (
	"context"
	"net/http"
	"net/http/httptest"
	"sync/atomic"
	"testing"
	"time"
)

// The fan-out ceiling holds the raw client's streams of both eras and
// delivers each notification kind to every one of them.
func TestFanoutCeilingDelivers(t *testing.T) {
	testFanoutDelivers(t, &fanoutCeiling{})
}

// So does the fan-out floor, on the connections it takes from net/http.
func TestFanoutFloorDelivers(t *testing.T) {
	testFanoutDelivers(t, &fanoutFloor{})
}

func testFanoutDelivers(t *testing.T, h http.Handler) {
	ts := httptest.NewServer(h)
	defer ts.Close()
	ctx := context.Background()
	for _, era := range Eras {
		for _, kind := range []string{ToolsChanged, ResourceUpdated} {
			const n = 3
			var rounds atomic.Pointer[Round]
			var watchers []*StreamWatcher
			done := make(chan struct{}, n)
			for i := range n {
				w, err := OpenStream(ctx, ts.URL, era, kind, ts.Client(), i)
				if err != nil {
					t.Fatalf("%s %s: %v", era, kind, err)
				}
				ready := make(chan struct{})
				go func() { w.Watch(kind, &rounds, func() { close(ready) }); done <- struct{}{} }()
				<-ready
				watchers = append(watchers, w)
			}
			round := NewRound(n)
			rounds.Store(round)
			path := NotifyToolsPath
			if kind == ResourceUpdated {
				path = NotifyResourcePath
			}
			resp, err := ts.Client().Post(ts.URL+path, "", nil)
			if err != nil {
				t.Fatal(err)
			}
			resp.Body.Close()
			if resp.StatusCode != http.StatusNoContent {
				t.Fatalf("control %s: %s", path, resp.Status)
			}
			wctx, cancel := context.WithTimeout(ctx, 5*time.Second)
			if _, missing := round.Wait(wctx); missing > 0 {
				t.Errorf("%s %s: %d of %d streams got nothing", era, kind, missing, n)
			}
			cancel()
			for _, w := range watchers {
				w.Close()
			}
			for range n {
				<-done
			}
		}
	}
}
