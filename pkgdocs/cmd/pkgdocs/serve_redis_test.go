package main

import (
	"bytes"
	"context"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"net/url"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/gomcp/sdk/mcp"
	"github.com/gomcp/sdk/mcp/storetest"
	"github.com/gomcp/sdk/pkgdocs/internal/fetch"
	"github.com/gomcp/sdk/pkgdocs/internal/mcpserver"
	"github.com/gomcp/sdk/pkgdocs/internal/service"
	"github.com/gomcp/sdk/pkgdocs/internal/shared"
	"github.com/gomcp/sdk/pkgdocs/internal/testutil"
)

// demoRegistry is a Go module proxy serving example.com/demo v1.1.0. It
// counts the requests it gets by path and, given a gate, holds the module
// zip until the gate is closed.
type demoRegistry struct {
	*httptest.Server
	mu   sync.Mutex
	hits map[string]int
}

func newDemoRegistry(t testing.TB, gate <-chan struct{}) *demoRegistry {
	t.Helper()
	zip := testutil.Zip(t, "example.com/demo@v1.1.0/", testutil.TxtarFile(t, "../../testdata/go/demo.txtar"))
	r := &demoRegistry{hits: map[string]int{}}
	r.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, req *http.Request) {
		r.mu.Lock()
		r.hits[req.URL.Path]++
		r.mu.Unlock()
		switch req.URL.Path {
		case "/example.com/demo/@v/list":
			w.Write([]byte("v1.1.0\n"))
		case "/example.com/demo/@v/v1.1.0.info":
			w.Write([]byte(`{"Version":"v1.1.0"}`))
		case "/example.com/demo/@v/v1.1.0.zip":
			if gate != nil {
				select {
				case <-gate:
				case <-req.Context().Done():
					return
				}
			}
			w.Write(zip)
		default:
			http.NotFound(w, req)
		}
	}))
	t.Cleanup(r.Close)
	return r
}

// count returns the requests for path so far.
func (r *demoRegistry) count(path string) int {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.hits[path]
}

// teamInstance is one instance of a team server, set up as `pkgdocs serve
// --http ADDR --redis URL` sets it up: its service, sharing through Redis,
// behind a streamable HTTP handler. It counts the registry requests it
// makes and the HTTP requests it serves.
type teamInstance struct {
	svc     *service.Service
	url     string
	fetches atomic.Int64
	served  atomic.Int64
}

// sharedTestOptions are the store options of the test instances: a log the test
// reads, Redis tried again at once after a failure (not 5 s later), and
// the waits the test may observe.
func sharedTestOptions(log io.Writer, waiting func(), poll time.Duration) *shared.RedisOptions {
	return &shared.RedisOptions{Logger: slog.New(slog.NewTextHandler(log, nil)), RetryAfter: -1, Waiting: waiting, PollInterval: poll}
}

func newTeamInstance(t testing.TB, redisURL string, reg *demoRegistry, opts *shared.RedisOptions) *teamInstance {
	t.Helper()
	inst := &teamInstance{}
	cfg := &service.Config{
		Client:     fetch.New(&fetch.Options{Retries: -1, CountRequests: func(string, string) { inst.fetches.Add(1) }}),
		GOPROXY:    reg.URL,
		GOMODCACHE: t.TempDir(),
		GONOPROXY:  "none.invalid",
	}
	f := redisFlag{url: redisURL}
	closeRedis, err := f.openWith(cfg, opts)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(closeRedis)
	if inst.svc, err = service.New(cfg); err != nil {
		t.Fatal(err)
	}
	server := mcpserver.New(inst.svc, "test", nil)
	h := mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return server }, nil)
	t.Cleanup(func() { h.Close() })
	ts := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		inst.served.Add(1)
		h.ServeHTTP(w, r)
	}))
	t.Cleanup(ts.Close)
	inst.url = ts.URL
	return inst
}

// syncLog is a log several instances write to at once.
type syncLog struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (l *syncLog) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.buf.Write(p)
}

func (l *syncLog) count(s string) int {
	l.mu.Lock()
	defer l.mu.Unlock()
	return strings.Count(l.buf.String(), s)
}

func (l *syncLog) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.buf.String()
}

func totalFetches(insts []*teamInstance) int64 {
	var n int64
	for _, in := range insts {
		n += in.fetches.Load()
	}
	return n
}

// callTool calls name on cs and returns its text, and the indexes of the
// instances that served a request meanwhile.
func callTool(t *testing.T, cs *mcp.ClientSession, insts []*teamInstance, name string, args map[string]any) (text string, isError bool, servedBy []int) {
	t.Helper()
	before := make([]int64, len(insts))
	for i, in := range insts {
		before[i] = in.served.Load()
	}
	res, err := cs.CallTool(t.Context(), name, args, nil)
	if err != nil {
		t.Fatalf("%s %v: %v", name, args, err)
	}
	for i, in := range insts {
		if in.served.Load() != before[i] {
			servedBy = append(servedBy, i)
		}
	}
	if len(res.Content) == 0 {
		t.Fatalf("%s %v: no content", name, args)
	}
	return res.Content[0].Text, res.IsError, servedBy
}

// TestTeamInstancesShareThroughRedis: three instances on one Redis behind
// a load balancer without affinity. The first answer of each kind (a
// resolved version, an exact version, a package that does not exist) asks
// the registry; the same question answered by the second and third
// instance asks it nothing and gives the same answer, which they take
// from the rendered entry without decoding the package. A new question
// about the package, asked of an instance that never loaded it, is
// answered from the package entry, again without the registry.
func TestTeamInstancesShareThroughRedis(t *testing.T) {
	var log syncLog
	insts, cs := startBalancedTeam(t, newTestRedis(t), newDemoRegistry(t, nil), &log)
	questions := []sharedQuestion{
		{"latest version", map[string]any{"package": "example.com/demo/sub"}, "# example.com/demo/sub@v1.1.0\n", false},
		{"exact version", map[string]any{"package": "example.com/demo/sub", "version": "v1.1.0"}, "# example.com/demo/sub@v1.1.0\n", false},
		{"no such package", map[string]any{"package": "example.com/nosuch"}, "", true},
	}
	loaded := map[int]bool{} // instances that loaded the package
	for _, q := range questions {
		first := askEveryInstance(t, cs, insts, q)
		loaded[first] = loaded[first] || !q.wantError
	}
	fresh := -1
	for i := range insts {
		if !loaded[i] {
			fresh = i
			break
		}
	}
	if fresh < 0 {
		t.Fatalf("every instance loaded the package: %v", loaded)
	}
	before := totalFetches(insts)
	res, err := insts[fresh].svc.DescribeGoPackage(t.Context(), service.DescribeGoArgs{Package: "example.com/demo/sub", Version: "v1.1.0", MaxTokens: 500})
	if err != nil || !strings.HasPrefix(res.Markdown, "# example.com/demo/sub@v1.1.0\n") {
		t.Fatalf("a new question of instance %d: %v", fresh, err)
	}
	if st := insts[fresh].svc.SharedStats(); totalFetches(insts) != before || st.Packages != 1 {
		t.Errorf("a new question of instance %d: %d registry requests, %+v; want none and the package decoded from Redis", fresh, totalFetches(insts)-before, st)
	}
	if n := log.count("unreachable"); n != 0 {
		t.Errorf("Redis reported unreachable:\n%s", log.String())
	}
}

// startBalancedTeam starts three instances on rd and reg, logging to log,
// behind a round-robin load balancer, and returns them with a client of
// the balancer.
func startBalancedTeam(t *testing.T, rd *testRedis, reg *demoRegistry, log *syncLog) ([]*teamInstance, *mcp.ClientSession) {
	var insts []*teamInstance
	var targets []*url.URL
	for range 3 {
		in := newTeamInstance(t, rd.url(), reg, sharedTestOptions(log, nil, 0))
		insts = append(insts, in)
		u, _ := url.Parse(in.url)
		targets = append(targets, u)
	}
	lb := httptest.NewServer(storetest.RoundRobin(targets))
	t.Cleanup(lb.Close)
	cs, err := mcp.NewClient("test", "v1", nil).Connect(t.Context(), mcp.NewStreamableClientTransport(lb.URL+"/mcp", nil))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cs.Close() })
	return insts, cs
}

// sharedQuestion is a describe_go_package question of
// TestTeamInstancesShareThroughRedis and the answer it wants.
type sharedQuestion struct {
	name      string
	args      map[string]any
	wantStart string
	wantError bool
}

// askEveryInstance asks q three times, once of each instance, and checks
// that the first answer asked the registry and the others asked it
// nothing, answering the same from the rendered entry in Redis. It
// returns the instance that answered first.
func askEveryInstance(t *testing.T, cs *mcp.ClientSession, insts []*teamInstance, q sharedQuestion) int {
	var first string
	firstBy := -1
	served := map[int]bool{}
	for i := range 3 {
		before := totalFetches(insts)
		stats := sharedStats(insts)
		text, isError, by := callTool(t, cs, insts, "describe_go_package", q.args)
		if len(by) != 1 {
			t.Fatalf("%s, call %d: served by instances %v, want exactly one", q.name, i+1, by)
		}
		served[by[0]] = true
		if isError != q.wantError || !strings.HasPrefix(text, q.wantStart) {
			t.Fatalf("%s, call %d: isError=%v, want %v:\n%s", q.name, i+1, isError, q.wantError, text)
		}
		fetched := totalFetches(insts) - before
		switch {
		case i == 0 && fetched == 0:
			t.Fatalf("%s: the first answer asked the registry nothing", q.name)
		case i == 0:
			first, firstBy = text, by[0]
		case fetched != 0:
			t.Errorf("%s: instance %d asked the registry %d times for what another instance had fetched", q.name, by[0], fetched)
		case text != first:
			t.Errorf("%s: instance %d answered\n%s\nwant the first answer\n%s", q.name, by[0], text, first)
		}
		got := insts[by[0]].svc.SharedStats()
		got.Answers -= stats[by[0]].Answers
		got.Packages -= stats[by[0]].Packages
		want := service.SharedStats{Answers: 1}
		if i == 0 || q.wantError {
			want = service.SharedStats{} // fetched, or a not-found answer
		}
		if got != want {
			t.Errorf("%s, call %d: instance %d took %+v from Redis, want %+v", q.name, i+1, by[0], got, want)
		}
	}
	if len(served) != 3 {
		t.Errorf("%s: answered by instances %v, want all three", q.name, served)
	}
	return firstBy
}

// sharedStats returns what each instance has taken from Redis so far.
func sharedStats(insts []*teamInstance) []service.SharedStats {
	out := make([]service.SharedStats, len(insts))
	for i, in := range insts {
		out[i] = in.svc.SharedStats()
	}
	return out
}

// TestTeamConcurrentFirstRequestsFetchOnce: three instances asked for the
// same package at once make one upstream fetch. The registry holds the
// module zip until the two other instances wait for the one fetching it;
// a waiter is woken by the holder's announcement only (its poll interval
// is longer than the test's deadline).
func TestTeamConcurrentFirstRequestsFetchOnce(t *testing.T) {
	rd := newTestRedis(t)
	gate := make(chan struct{})
	reg := newDemoRegistry(t, gate)
	var log syncLog
	waiting := make(chan struct{}, 8)
	var insts []*teamInstance
	for range 3 {
		insts = append(insts, newTeamInstance(t, rd.url(), reg, sharedTestOptions(&log, func() { waiting <- struct{}{} }, time.Hour)))
	}
	type answer struct {
		md  string
		err error
	}
	answers := make(chan answer, 3)
	for _, in := range insts {
		go func() {
			res, err := in.svc.DescribeGoPackage(context.Background(), service.DescribeGoArgs{Package: "example.com/demo/sub", Version: "v1.1.0"})
			if err != nil {
				answers <- answer{err: err}
				return
			}
			answers <- answer{md: res.Markdown}
		}()
	}
	deadline := time.NewTimer(30 * time.Second) // a failure guard, not a wait for time to pass
	defer deadline.Stop()
	for range 2 {
		select {
		case <-waiting:
		case a := <-answers:
			t.Fatalf("an instance answered before the fetch was released: %+v", a)
		case <-deadline.C:
			t.Fatalf("the other instances never waited for the fetching one; log:\n%s", log.String())
		}
	}
	close(gate)
	var first string
	for i := range 3 {
		select {
		case a := <-answers:
			if a.err != nil || !strings.HasPrefix(a.md, "# example.com/demo/sub@v1.1.0\n") {
				t.Fatalf("answer %d: %v\n%s", i+1, a.err, a.md)
			}
			if i == 0 {
				first = a.md
			} else if a.md != first {
				t.Errorf("answer %d differs from the first:\n%s", i+1, a.md)
			}
		case <-deadline.C:
			t.Fatalf("only %d answers; log:\n%s", i, log.String())
		}
	}
	if n := reg.count("/example.com/demo/@v/v1.1.0.zip"); n != 1 {
		t.Errorf("the module zip was fetched %d times, want 1", n)
	}
	var fetching int
	for _, in := range insts {
		if in.fetches.Load() > 0 {
			fetching++
		}
	}
	if fetching != 1 {
		t.Errorf("%d instances asked the registry, want 1", fetching)
	}
}

// TestTeamRedisDown: with Redis stopped mid-run, instances keep answering,
// from memory and from the registry, and each says so once; when Redis is
// back, each says so once and sharing resumes.
func TestTeamRedisDown(t *testing.T) {
	rd := newTestRedis(t)
	reg := newDemoRegistry(t, nil)
	var logA, logB syncLog
	a := newTeamInstance(t, rd.url(), reg, sharedTestOptions(&logA, nil, 0))
	b := newTeamInstance(t, rd.url(), reg, sharedTestOptions(&logB, nil, 0))
	ask := func(in *teamInstance, args service.DescribeGoArgs) (fetched int64) {
		t.Helper()
		before := in.fetches.Load()
		res, err := in.svc.DescribeGoPackage(t.Context(), args)
		if err != nil || !strings.HasPrefix(res.Markdown, "# example.com/demo/sub@v1.1.0\n") {
			t.Fatalf("%+v: %v", args, err)
		}
		return in.fetches.Load() - before
	}
	latest := service.DescribeGoArgs{Package: "example.com/demo/sub"}
	exact := service.DescribeGoArgs{Package: "example.com/demo/sub", Version: "v1.1.0"}
	darwin := service.DescribeGoArgs{Package: "example.com/demo/sub", Version: "v1.1.0", GOOS: "darwin"}
	windows := service.DescribeGoArgs{Package: "example.com/demo/sub", Version: "v1.1.0", GOOS: "windows"}

	if ask(a, latest) == 0 || ask(b, latest) != 0 {
		t.Fatal("before the outage, the second instance did not answer from Redis")
	}
	rd.stop()
	steps := []struct {
		who   *teamInstance
		args  service.DescribeGoArgs
		fetch bool
	}{
		{a, latest, false}, // from memory
		{b, exact, true},   // from the registry
		{b, darwin, true},
		{a, exact, true},
	}
	for i, s := range steps {
		if got := ask(s.who, s.args) > 0; got != s.fetch {
			t.Errorf("outage, step %d: asked the registry %v, want %v", i+1, got, s.fetch)
		}
	}
	for name, log := range map[string]*syncLog{"a": &logA, "b": &logB} {
		if n := log.count("Redis is unreachable"); n != 1 {
			t.Errorf("instance %s logged the outage %d times, want once:\n%s", name, n, log.String())
		}
	}
	rd.start(t)
	if ask(b, windows) == 0 {
		t.Fatal("after the outage, a new question made no registry request")
	}
	if ask(a, windows) != 0 {
		t.Error("after the outage, the second instance did not answer from Redis")
	}
	for name, log := range map[string]*syncLog{"a": &logA, "b": &logB} {
		if n := log.count("Redis is reachable again"); n != 1 {
			t.Errorf("instance %s logged the recovery %d times, want once:\n%s", name, n, log.String())
		}
	}
}

// TestRedisFlagErrors: a --redis value that is not a Redis URL is a usage
// error that never shows the password it holds.
func TestRedisFlagErrors(t *testing.T) {
	tests := []struct{ url, want string }{
		{"http://127.0.0.1:6379/0", "scheme"},
		{"redis://user:s3cret@127.0.0.1:6379/x", "--redis"},
		{"redis://user:s3cret@[::1/0", "not a Redis URL"},
	}
	for _, tt := range tests {
		var out, errOut bytes.Buffer
		code := run(context.Background(), []string{"describe", "go", "example.com/demo", "--redis", tt.url}, &out, &errOut)
		msg := errOut.String()
		if code != 2 || !strings.Contains(msg, tt.want) || strings.Contains(msg, "s3cret") {
			t.Errorf("--redis %s: code %d, want 2 and an error with %q and no password:\n%s", tt.url, code, tt.want, msg)
		}
	}
}

// BenchmarkAnswerFromRedis measures an answer by an instance that never
// fetched the package (a new service, its memory empty, on the Redis
// connection pool of a running instance) to a question another instance
// answered: two reads of Redis (the resolved version, the rendered answer)
// and the strict decoding of the answer, without loading the package.
// Goal: at most 5 ms p99, reported as p99-ns.
func BenchmarkAnswerFromRedis(b *testing.B) {
	rd := newTestRedis(b)
	reg := newDemoRegistry(b, nil)
	var log syncLog
	first := newTeamInstance(b, rd.url(), reg, sharedTestOptions(&log, nil, 0))
	args := service.DescribeGoArgs{Package: "example.com/demo/sub", Version: "v1.1.0"}
	if _, err := first.svc.DescribeGoPackage(b.Context(), args); err != nil {
		b.Fatal(err)
	}
	cfg := &service.Config{GOPROXY: reg.URL, GOMODCACHE: b.TempDir(), GONOPROXY: "none.invalid"}
	closeRedis, err := (&redisFlag{url: rd.url()}).openWith(cfg, sharedTestOptions(&log, nil, 0))
	if err != nil {
		b.Fatal(err)
	}
	defer closeRedis()
	var fetches atomic.Int64
	durs := make([]time.Duration, 0, b.N)
	b.ReportAllocs()
	b.ResetTimer()
	for range b.N {
		b.StopTimer()
		c := *cfg
		c.Client = fetch.New(&fetch.Options{Retries: -1, CountRequests: func(string, string) { fetches.Add(1) }})
		svc, err := service.New(&c)
		if err != nil {
			b.Fatal(err)
		}
		b.StartTimer()
		start := time.Now()
		res, err := svc.DescribeGoPackage(context.Background(), args)
		durs = append(durs, time.Since(start))
		if err != nil || !strings.HasPrefix(res.Markdown, "# example.com/demo/sub@v1.1.0\n") {
			b.Fatalf("answer from Redis: %v", err)
		}
		if st := svc.SharedStats(); st != (service.SharedStats{Answers: 1}) {
			b.Fatalf("answer from Redis: %+v, want one answer from a rendered entry and no package decoded", st)
		}
	}
	b.StopTimer()
	if n := fetches.Load(); n != 0 {
		b.Fatalf("instances that never fetched asked the registry %d times", n)
	}
	slices.Sort(durs)
	at := func(q float64) float64 {
		return float64(durs[min(len(durs)-1, int(q*float64(len(durs))))].Microseconds()) / 1000
	}
	b.ReportMetric(at(0.50), "p50-ms")
	b.ReportMetric(at(0.99), "p99-ms")
	b.ReportMetric(float64(durs[min(len(durs)-1, int(0.99*float64(len(durs))))].Nanoseconds()), "p99-ns")
}
