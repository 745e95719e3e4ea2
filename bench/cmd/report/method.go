package main

// method explains in BENCHMARKS.md what each benchmark does, so that a
// reader can judge the figures without reading the code.
const method = `## What is measured

Every SDK serves the same tool, "echo" ({"text": string} → one text block), written the way its
documentation shows, and is driven by its own client with default options unless said here:

- **ours** (github.com/gomcp/sdk): the typed ` + "`mcp.NewTool`" + `, which infers the schema and validates every
  call's arguments; streamable HTTP is one ` + "`NewStreamableHTTPHandler`" + ` with default options for both eras.
- **gosdk** (modelcontextprotocol/go-sdk): the typed ` + "`mcp.AddTool`" + `, which infers the schema and validates
  every call's arguments; HTTP is ` + "`NewStreamableHTTPHandler`" + ` with default options (stateful, SSE
  responses) for the legacy era and ` + "`Stateless: true`" + ` for 2026-07-28, since its stateful handler serves
  legacy clients only. Its default client opens a standalone SSE stream per legacy session.
- **mcpgo** (mark3labs/mcp-go): the ` + "`mcp.NewTool`" + ` option DSL and ` + "`RequireString`" + ` (no validation unless
  enabled); in-memory is ` + "`NewInProcessClient`" + `, os.Pipe is ` + "`StdioServer.Listen`" + ` with
  ` + "`transport.NewIO`" + `; HTTP is ` + "`NewStreamableHTTPServer`" + ` with default options for both eras.

Eras: "legacy" pins 2025-11-25 (initialize handshake, sessions); "modern" is each client's default,
which negotiates 2026-07-28 (server/discover, stateless requests) with all three servers.

- **In-process tools/call**: client and server in one process, over each SDK's in-memory transport and
  over two os.Pipe (newline-delimited JSON, as stdio); "seq" is one caller, "par" is 4×GOMAXPROCS
  callers sharing one session. B/op and allocs/op count client and server together.
- **JSON Schema**: a typical tool-argument schema (closed object, bounded string, integer range,
  string array, enum, nested object). "value" validates arguments already decoded into the library's
  native form (ours and google: encoding/json values; santhosh: its own decoder's); "json" validates
  the raw arguments as a server receives them: ours validates the JSON text directly, the others
  must decode it first; "compile" parses and compiles the schema.
  ours is github.com/gomcp/sdk/jsonschema, google is google/jsonschema-go (used by go-sdk),
  santhosh is santhosh-tekuri/jsonschema/v6 (used by mcp-go).
- **Idle sessions**: 1,000 idle sessions at once; live heap (after two GCs), goroutine stacks and
  goroutines per session. In memory (legacy sessions), the server's share uses sessions whose client
  half is a minimal raw peer, and the client's share is a full pair minus that. Over HTTP, in each era,
  the server's share uses sessions made by the raw load generator against the handler in this process
  (legacy: initialize, notifications/initialized; 2026-07-28: one server/discover, after which a
  server holds nothing); the client's share uses the SDK's client (connected: initialize or
  server/discover done) against the SDK's server running in a child process. Idle keep-alive
  connections are closed first: an idle session needs none.
- **Session setup**: one op connects a new client session (in memory: a new transport pair and
  server connection too) through initialize (legacy) or server/discover (modern); closing is not timed.
- **Client start**: the time to connect a new 2026-07-28 client session over streamable HTTP
  (server/discover) with a warm, shared http.Client whose keep-alive connection is open, against one
  plain POST of a server/discover request of about the same size (the raw load generator's, read fully)
  to the same handler on the same http.Client; handler in the same process, 400 of each, alternating,
  after a warm-up. connect-ns and post-ns are the medians; connect/post is their ratio within one run.
- **Streamable HTTP load**: calls on 127.0.0.1 from 1, 8 and 64 concurrent sessions (3,000 calls at 1
  and 8; at 64, as many as take about a second, as go test -benchtime 1s picks them), after two
  untimed warm-up calls per session that open every keep-alive connection; calls/s and the p50 and p99
  latency of a call. "sdk" uses each SDK's own client; "raw" uses an
  SDK-neutral load generator sending hand-built JSON-RPC POSTs (legacy: one session per worker, made
  once; 2026-07-28: stateless, with the _meta, MCP-Protocol-Version, Mcp-Method and Mcp-Name it
  requires) against each SDK's handler and against the ceiling, a bare net/http handler that decodes
  the request and writes a fixed response.
- **Server CPU per call**: each SDK's handler, and the ceiling, runs alone in a child process; the raw
  load generator in the parent makes tools/call from 8 and 64 concurrent sessions for about a second
  (after a warm-up of a tenth as many calls) and divides the CPU time (user and system, from
  getrusage, garbage collection included) the child used by the number of calls; "÷ ceiling"
  divides by the ceiling's CPU per call in the same pass.
- **OpenTelemetry overhead**: the SDK's own client and server over streamable HTTP on 127.0.0.1,
  64 sessions, tools/call, in one process. **ours** installs the otel package on both sides with the
  OpenTelemetry SDK (every span sampled and handed to a batching exporter that discards it, the
  duration histograms aggregated by the SDK meter provider); **uninstrumented** installs nothing;
  **sdkdirect** is middleware written for the benchmark alone that makes the same spans, trace
  context and measurements by calling the OpenTelemetry SDK directly and does nothing else. Its
  ratio to uninstrumented, shown after the goals for information, is what the SDK's own calls cost
  a call; ours can go below it only by making fewer or cheaper SDK calls. **sampled10** is ours with
  the sampler a busy service would pick over sampling every call: ParentBased over
  TraceIDRatioBased(0.1), so one new trace in ten is recorded and the server follows the client's
  decision. cpu-ns/call is the process's CPU per call, client and server.
- **Notification fan-out**: each SDK's server runs in a child process; the parent opens N streams
  (2026-07-28: subscriptions/listen; legacy and peers: a session's GET stream) with an SDK-neutral
  client, asks the server for one change five times, and times each stream's delivery from the
  request. server-cpu-ns/notification is the child's CPU (getrusage) during the deliveries divided
  by the notifications delivered; heap, stack and goroutines per stream are the child's, settled,
  with the streams open against before. Two targets are not SDKs: the **ceiling** is bare net/http
  (a handler goroutine per stream waiting on a channel, one event made once, written and flushed),
  and the **floor** does the least any server must: it takes each stream's
  connection from net/http and writes one event, made once, to every connection from a few
  goroutines. Its CPU per notification is about the kernel's cost of one small write to a loopback
  socket, which every server pays once per stream and no SDK can go below; its ratio to each peer is
  shown after the fan-out goals against peers (tools list changes and resources/updated), for information.
- **Authorization load**: the raw load generator's tools/call from 64 sessions to our handler
  behind RequireBearerToken (a JWTVerifier with its cache, one ES256 token per session, an endpoint
  and a per-tool scope), to the same handler without it (**unprotected**), and to the unprotected
  handler sent the same tokens, which it ignores (**header**): header ÷ unprotected, shown after the
  goals for information, is what carrying a token costs the HTTP client and server before any
  check (in the legacy era the token is the request's ninth header line, which takes net/http's
  header map past its small form). cpu-ns/call is the process's CPU per call, client and server.
  Its goals ask for a ratio of at least 0.9, and one pass's ratio scatters by a few hundredths on
  this machine, more than the distance between 0.9 and 0.89: so each era's group runs four times
  in every pass (each time its three targets one after another, in a rotating order), each run a
  paired sample, and its goals are read from the median of the per-run ratios with a 95%
  confidence interval of that median, made from the order statistics of the ratios
  (distribution-free: no assumption about how they scatter; with four passes, 16 ratios, it runs
  from the 4th smallest to the 4th largest and covers 97.9%). A goal is met when the whole
  interval is at or above 0.9, not met when it is all below, and **not distinguishable** when it
  holds 0.9: the run cannot tell the ratio from the bound, and saying met or not met would be
  reading noise. The range of the ratios is printed beside it.
- **Scale-out**: our echo server as several instances behind a round-robin reverse proxy in the parent,
  called from 8 raw sessions (legacy: one session each, made once; 2026-07-28: stateless). Every child process runs with GOMAXPROCS=1, as a machine with one CPU. **ours** is three
  instances in one child process, each with its own server, handler, listener, Redis client and
  Redis backends (session store, session router, event bus, event store, task store) on one
  redis-server: what three machines would run, on one CPU as the single instance, so that ours ÷
  single is what the shared state costs per call; the scale-out CPU goals are on it. **procs3** is the
  same three instances in three child processes: its ratio to single, shown after each goal for
  information, is higher because three processes on this machine's two cores, each idle more often
  than one process carrying every call, pay for waking up and for cold caches (a fifth to a quarter
  of their CPU); **plain3** (2026-07-28 only), three processes sharing nothing but the requestState
  key, costs about as much as procs3, so the excess is not Redis. server-cpu-ns/call is the CPU of
  all the child processes per call, redis-cpu-ns/call the redis-server's (INFO cpu). The fan-out
  figure times a tool list change made on one of three instances (child processes with Go's default
  GOMAXPROCS) until each of 1,000 streams spread over them has it.
- **Events, webhooks and the pkgdocs team server**: these benchmarks live in the packages they
  measure, each built as its own test binary (a benchmark or package not in the checkout is listed
  as pending). **WebhookDelivery** (ext/events/webhook): signed deliveries of one event each to the
  package's Receiver over local TLS, connections reused, one at a time; events/s. **EventsPoll**
  (ext/events): an empty events/poll (nothing after the cursor) and a tools/call of a tool that does
  nothing, on one in-memory 2026-07-28 session; the goal divides the poll's time by the call's in
  the same pass. **EventsPushFanout**: one occurrence emitted to 1,000 push streams (one in-memory
  session each); p99-ms is the 99th percentile of the per-stream latencies over all occurrences.
  **TeamServer** (pkgdocs/cmd/pkgdocs): tools/call from 64 clients, each with its own access token,
  through the whole team server (access log, OAuth with the token cache, the MCP handler): pkgdocs
  answering a warm describe, and the greeter's tools/call through the same stack, divided pass by
  pass; greeter-same-size returns pkgdocs' answer ready made (the same text and structured
  content), the floor of what an answer of that size costs through the stack. **AnswerFromRedis** (pkgdocs/internal/service): per cold question, a new instance that never
  fetched the package answers from what another put in Redis (miniredis); p50-ms and p99-ms of
  the answers.
`
