// Command everything-server is the MCP server that the official conformance
// suite (@modelcontextprotocol/conformance) tests: it serves every tool,
// resource, template and prompt the suite's server scenarios expect, in
// every protocol version the SDK supports.
//
//	everything-server -http 127.0.0.1:3001            # streamable HTTP at any path, e.g. /mcp
//	everything-server -http 127.0.0.1:3001 -stateless # legacy era without sessions
//	everything-server                                 # stdio
//
// Over HTTP it also serves its Server Card at /mcp/server-card and an AI
// Catalog listing it at /.well-known/ai-catalog.json.
// Several instances behind a load balancer serve as one when they share
// a Redis and a requestState key (-state-key, 32 bytes or more in hex):
//
//	-redis redis://host:port/db                                   # one Redis
//	-redis-cluster 'redis://host:port?addr=host:port&addr=...'    # a Redis Cluster: one node, the others as addr
//	-redis-sentinel 'redis://host:port?master_name=NAME'          # the Redis a Sentinel watches (other sentinels as addr)
//
// The URLs are go-redis's (ParseURL, ParseClusterURL, ParseFailoverURL).
// .ci/redis.sh runs the conformance server suites through three
// instances on each. The instances share the event type test.tick too:
// its occurrences are in the redis module's EventLog, so a cursor any
// instance handed out resumes on any other and push streams on all of
// them receive what emit_tick emitted on one; its webhook subscriptions
// are in the module's WebhookRegistry, each occurrence delivered once;
// and emit_tick's n is one Redis counter (everything-server:ticks).
//
// Its event type test.tick offers webhook delivery, which needs an
// authenticated principal: without one, events/subscribe answers Forbidden.
// -conformance-events is for the Events conformance suite: an
// unauthenticated connection then acts as one fixed test principal, and
// the suite's diagnostic controls are tools (events_conformance_*:
// allow_callback_origin, webhook_gap, webhook_terminate, quota,
// subscription_exists, subscription_state, subscribe_as). One of them
// lets a caller permit any origin, loopback included, past the webhook
// SSRF checks, so never use the flag where untrusted clients connect; it
// permits it on the instance that answers only, so run the Events suite
// against one instance.
//
// With -http it prints "everything-server: listening on http://ADDR" to
// stderr once it accepts connections; ADDR has the real port when the flag
// asked for port 0. conformance/run.sh relies on that line.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"log"
	"net"
	"net/http"
	"os"
	"os/signal"
	"syscall"
	"time"

	"github.com/gomcp/sdk/mcp"
)

func main() {
	httpAddr := flag.String("http", "", "serve streamable HTTP at this address (any path); stdio when empty")
	stateless := flag.Bool("stateless", false, "serve the legacy era without sessions (2026-07-28 is always stateless)")
	var redis redisFlags
	flag.StringVar(&redis.single, "redis", "", "share state with other instances on this Redis (redis://host:port/db); needs -state-key")
	flag.StringVar(&redis.cluster, "redis-cluster", "", "share state on this Redis Cluster (redis://host:port?addr=host:port&addr=...: one node, the others as addr parameters); needs -state-key")
	flag.StringVar(&redis.sentinel, "redis-sentinel", "", "share state on the Redis this Sentinel watches (redis://sentinel-host:port?master_name=NAME&addr=other-sentinel:port); needs -state-key")
	stateKey := flag.String("state-key", "", "the requestState key shared by every instance, in hex (at least 32 bytes)")
	conformanceEvents := flag.Bool("conformance-events", false, "for the Events conformance suite only: unauthenticated clients subscribe webhooks as one test principal, and the events_conformance_* diagnostic tools are offered (one permits loopback callbacks; never with untrusted clients)")
	flag.Parse()
	scale, err := newScaleOut(redis, *stateKey) // scaleout.go
	if err != nil {
		log.Fatalf("everything-server: %v", err)
	}
	defer scale.close()
	shared = scale

	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()

	hooks := newWebhookFixture(*conformanceEvents, &fixtureOptions{registry: scale.webhookRegistry()}) // events_conformance.go
	srv := newServerWith(hooks, scale)
	scale.follow(srv) // scaleout.go: list changes made on other instances
	go notifyWatchedResource(ctx, srv, 3*time.Second)
	go func() {
		if err := hooks.svc.Run(ctx, hooks.es); err != nil && !errors.Is(err, context.Canceled) {
			log.Printf("everything-server: webhook delivery: %v", err)
		}
	}()

	if *httpAddr == "" {
		if err := srv.Run(ctx, mcp.NewStdIOTransport()); err != nil && !errors.Is(err, context.Canceled) {
			log.Fatalf("everything-server: %v", err)
		}
		return
	}
	if err := serveHTTP(ctx, srv, *httpAddr, *stateless, scale); err != nil {
		log.Fatalf("everything-server: %v", err)
	}
}

// serveHTTP serves srv over streamable HTTP on addr until ctx is done.
func serveHTTP(ctx context.Context, srv *mcp.Server, addr string, stateless bool, scale *scaleOut) error {
	handler := mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return srv }, scale.tuneHandler(&mcp.StreamableHTTPOptions{
		Stateless: stateless,
		// Resumable streams: the SSE polling scenarios close a stream mid-call
		// and expect the client to resume it with Last-Event-ID.
		EventStore:    mcp.NewMemoryEventStore(nil),
		RetryInterval: 500 * time.Millisecond,
	}))
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		handler.Close()
		return err
	}
	// The server's card and the host's catalog (servercard.go); MCP at
	// any other path.
	base, err := publicBase(addr, ln.Addr())
	var routes http.Handler
	if err == nil {
		routes, err = withServerCard(srv, base, handler)
	}
	if err != nil {
		ln.Close()
		handler.Close()
		return err
	}
	// No WriteTimeout: it would cut SSE streams; the handler bounds each
	// write itself.
	hs := &http.Server{Handler: routes, ReadHeaderTimeout: 10 * time.Second, IdleTimeout: 60 * time.Second}
	fmt.Fprintf(os.Stderr, "everything-server: listening on http://%s\n", ln.Addr())

	errc := make(chan error, 1)
	go func() { errc <- hs.Serve(ln) }()
	select {
	case err := <-errc:
		handler.Close()
		return err
	case <-ctx.Done():
	}
	shutdownCtx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	// Shut the MCP handler down first: calls in progress finish, then open
	// SSE streams end, which hs.Shutdown would otherwise wait for.
	if err := handler.Shutdown(shutdownCtx); err != nil {
		fmt.Fprintf(os.Stderr, "everything-server: MCP handler shutdown: %v\n", err)
	}
	return hs.Shutdown(shutdownCtx)
}
