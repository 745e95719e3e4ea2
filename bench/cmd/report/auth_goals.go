package main

// The authorization benchmarks (module auth): verifying access tokens,
// and the cost of RequireBearerToken in front of the streamable HTTP
// handler.

var jwtMetrics = append(append([]metric(nil), timeMetrics...),
	metric{unit: "overhead-ns/op"}, metric{unit: "overhead-allocs/op"})

// loadCPUMetrics are the figures of a load benchmark whose client and
// server share the process, plus the process's CPU time per call: on a busy
// machine, the ratio of CPU per call says what the middleware costs more
// steadily than the ratio of calls/s does.
var loadCPUMetrics = append(append([]metric(nil), loadMetrics...), metric{unit: "cpu-ns/call"})

// authGroups returns the authorization groups, in the order of the
// report.
func authGroups(b budget) []group {
	const jwt = "Authorization: access token verification"
	gs := []group{
		{jwt, "BenchmarkAuthJWT", "es256", []string{ours, "bare"}, b.micro, jwtMetrics, benchDir},
		{jwt, "BenchmarkAuthJWT", "rs256", []string{ours, "bare"}, b.micro, jwtMetrics, benchDir},
		{jwt, "BenchmarkAuthJWT", "cached", []string{ours, "full"}, b.micro, timeMetrics, benchDir},
	}
	for _, era := range []string{"legacy", "modern"} {
		gs = append(gs, group{"Authorization: protected streamable HTTP (raw load generator, 64 clients)", "BenchmarkAuthHTTPLoad",
			era + "/c64", []string{ours, "unprotected", "header"}, b.load, loadCPUMetrics, benchDir})
	}
	return gs
}

// repeated names the groups run budget.repeats times in every pass, each
// time as a sample of its own, all targets one after another: the
// protected-load goals ask whether a ratio is at least 0.9, and a bound
// that near the figure needs more paired runs than the passes give to
// tell 0.9 from 0.89. Their goals are read from the confidence interval
// of the median ratio (interval.go); see the method text.
var repeated = map[string]bool{
	"AuthHTTPLoad/legacy/c64": true,
	"AuthHTTPLoad/modern/c64": true,
}

// authGoals are the goals of the authorization issue.
var authGoals = []goal{
	{"JWT verification (ES256, key cached): at most 3 µs more than the bare crypto/ecdsa check of the same token, measured in the same run",
		"AuthJWT/es256", "overhead-ns/op", "", 3000, false},
	{"JWT verification (ES256, key cached): at most 20 allocations more than the bare crypto/ecdsa check",
		"AuthJWT/es256", "overhead-allocs/op", "", 20, false},
	{"JWT verification (RS256, key cached): at most 3 µs more than the bare crypto/rsa check of the same token, measured in the same run",
		"AuthJWT/rs256", "overhead-ns/op", "", 3000, false},
	{"JWT verification (RS256, key cached): at most 20 allocations more than the bare crypto/rsa check",
		"AuthJWT/rs256", "overhead-allocs/op", "", 20, false},
	{"A token already verified is recognised from the bounded cache: time at most 0.05× a full verification",
		"AuthJWT/cached", "ns/op", "full", 0.05, false},
	{"Protected tools/call over streamable HTTP, legacy, 64 clients: at least 0.9× the calls/s of the unprotected handler",
		"AuthHTTPLoad/legacy/c64", "calls/s", "unprotected", 0.9, true},
	{"Protected tools/call over streamable HTTP, 2026-07-28, 64 clients: at least 0.9× the calls/s of the unprotected handler",
		"AuthHTTPLoad/modern/c64", "calls/s", "unprotected", 0.9, true},
}

func init() {
	goals = append(goals, authGoals...)
	// After each protected-load goal: the unprotected handler sent the
	// same tokens ("header"), divided by the unprotected one, for
	// information: what carrying the token costs before any check.
	goalAsides["AuthHTTPLoad/legacy/c64"] = "header"
	goalAsides["AuthHTTPLoad/modern/c64"] = "header"
}
