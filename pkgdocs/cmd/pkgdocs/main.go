// Command pkgdocs gives coding agents (and people) the documentation of npm,
// Go, Python, Rust and Swift packages.
//
//	pkgdocs describe <ecosystem> <package>[@version] [symbol]
//	pkgdocs search <ecosystem> <package> <query>
//	pkgdocs serve [--http ADDR [--resource URL --issuer URL ...]]
//	pkgdocs help | --help
//	pkgdocs version | --version
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/gomcp/sdk/pkgdocs/internal/service"
)

const usage = `pkgdocs: package documentation for coding agents

Usage:
  pkgdocs describe <go|npm|python|rust|swift> <package>[@version] [symbol] [flags]
  pkgdocs describe swift . --project DIR   (the Swift package in DIR)
  pkgdocs search <go|npm|python|rust|swift> <package>[@version] <query> [flags]
  pkgdocs serve [--http ADDR]   (MCP over stdio, or streamable HTTP at /mcp;
                                 --resource, --issuer, --rate-limit ... make it a team server)
  pkgdocs help                  (this text)
  pkgdocs version               (the version of this build)

Flags:
`

func main() {
	ctx, stop := notifyShutdown(context.Background())
	defer stop()
	code := run(ctx, os.Args[1:], os.Stdout, os.Stderr)
	stop()
	os.Exit(code)
}

type options struct {
	maxTokens int
	page      int
	project   string
	goos      string
	goarch    string
	limit     int
	cacheDir  string
	httpAddr  string
	version   bool
	offline   bool
	progress  string
	team      teamOptions // serve --http
	redis     redisFlag   // --redis (serve_redis.go)
}

func flags(o *options, stderr io.Writer) *flag.FlagSet {
	fs := flag.NewFlagSet("pkgdocs", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.IntVar(&o.maxTokens, "max-tokens", 0, "token budget of the answer (0: the tool's default)")
	fs.IntVar(&o.page, "page", 1, "page of a long answer")
	fs.StringVar(&o.project, "project", "", "project directory (go.mod, lockfile, .npmrc)")
	fs.StringVar(&o.goos, "goos", "", "GOOS for Go build constraints (default linux)")
	fs.StringVar(&o.goarch, "goarch", "", "GOARCH for Go build constraints (default amd64)")
	fs.IntVar(&o.limit, "limit", 5, "number of search results")
	fs.StringVar(&o.cacheDir, "cache-dir", os.Getenv("PKGDOCS_CACHE_DIR"), "on-disk cache directory (default: none; env PKGDOCS_CACHE_DIR)")
	fs.StringVar(&o.httpAddr, "http", "", "serve MCP over streamable HTTP on this address instead of stdio")
	fs.BoolVar(&o.version, "version", false, "print the version and exit")
	fs.BoolVar(&o.offline, "offline", false, "answer only from local installations and caches (module cache, node_modules under --project, --cache-dir)")
	fs.StringVar(&o.progress, "progress", "auto", "show a cold answer's progress on stderr (describe, search): auto (when stderr is a terminal), on or off")
	addTeamFlags(fs, &o.team)
	o.redis.register(fs)
	fs.Usage = func() { printUsage(fs, stderr) }
	return fs
}

// printUsage writes the usage text and the flags to w.
func printUsage(fs *flag.FlagSet, w io.Writer) {
	fmt.Fprint(w, usage)
	out := fs.Output()
	fs.SetOutput(w)
	fs.PrintDefaults()
	fs.SetOutput(out)
}

// parseInterspersed parses flags that may appear between positional
// arguments.
func parseInterspersed(fs *flag.FlagSet, args []string) ([]string, error) {
	var pos []string
	for {
		if err := fs.Parse(args); err != nil {
			return nil, err
		}
		rest := fs.Args()
		if len(rest) == 0 {
			return pos, nil
		}
		pos = append(pos, rest[0])
		args = rest[1:]
	}
}

func run(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	var o options
	fs := flags(&o, stderr)
	// -h and --help are answered on stdout: help asked for is not an error.
	fs.Usage = func() {}
	pos, err := parseInterspersed(fs, args)
	fs.Usage = func() { printUsage(fs, stderr) }
	if err != nil {
		if errors.Is(err, flag.ErrHelp) {
			printUsage(fs, stdout)
			return 0
		}
		fmt.Fprintln(stderr, "pkgdocs:", err)
		fs.Usage()
		return 2
	}
	switch {
	case o.version || len(pos) > 0 && pos[0] == "version":
		fmt.Fprintln(stdout, "pkgdocs", buildVersion())
		return 0
	case len(pos) > 0 && pos[0] == "help":
		printUsage(fs, stdout)
		return 0
	case len(pos) == 0:
		fs.Usage()
		return 2
	}
	cfg := &service.Config{CacheDir: o.cacheDir, Offline: o.offline}
	closeRedis, err := o.redis.open(cfg, stderr)
	if err != nil {
		fmt.Fprintln(stderr, "pkgdocs:", err)
		return 2
	}
	defer closeRedis()
	svc, err := service.New(cfg)
	if err != nil {
		fmt.Fprintln(stderr, "pkgdocs:", err)
		return 1
	}
	switch pos[0] {
	case "describe":
		if len(pos) < 3 || len(pos) > 4 {
			fmt.Fprintln(stderr, "usage: pkgdocs describe <ecosystem> <package>[@version] [symbol]")
			return 2
		}
		symbol := ""
		if len(pos) == 4 {
			symbol = pos[3]
		}
		return answer(ctx, o, stdout, stderr, func(ctx context.Context) (string, error) {
			return describe(ctx, svc, pos[1], pos[2], symbol, o)
		})
	case "search":
		if len(pos) < 4 {
			fmt.Fprintln(stderr, "usage: pkgdocs search <ecosystem> <package>[@version] <query>")
			return 2
		}
		return answer(ctx, o, stdout, stderr, func(ctx context.Context) (string, error) {
			return search(ctx, svc, pos[1], pos[2], strings.Join(pos[3:], " "), o)
		})
	case "serve":
		if err := serve(ctx, svc, o, stderr); err != nil {
			fmt.Fprintln(stderr, "pkgdocs:", err)
			return 1
		}
		return 0
	default:
		fmt.Fprintf(stderr, "pkgdocs: unknown command %q\n", pos[0])
		fs.Usage()
		return 2
	}
}

// answer asks for an answer, showing its progress as --progress says,
// and prints it.
func answer(ctx context.Context, o options, stdout, stderr io.Writer, ask func(context.Context) (string, error)) int {
	ctx, finish, err := withProgress(ctx, o.progress, stderr)
	if err != nil {
		fmt.Fprintln(stderr, "pkgdocs:", err)
		return 2
	}
	md, err := ask(ctx)
	finish() // the status line is gone before the answer or the error
	return output(stdout, stderr, md, err)
}

func output(stdout, stderr io.Writer, markdown string, err error) int {
	if err != nil {
		fmt.Fprintln(stderr, "pkgdocs:", err)
		return 1
	}
	fmt.Fprint(stdout, markdown)
	return 0
}

// splitVersion splits "name@version" (an npm scope's leading @ and the
// user of a git@host:owner/repo address are not separators).
func splitVersion(eco, s string) (string, string) {
	i := strings.LastIndexByte(s, '@')
	if i <= 0 || strings.HasPrefix(s, "git@") && i == 3 {
		return s, ""
	}
	return s[:i], s[i+1:]
}

// search answers `pkgdocs search` with the markdown of the results.
func search(ctx context.Context, svc *service.Service, eco, pkg, query string, o options) (string, error) {
	name, version := splitVersion(eco, pkg)
	res, err := svc.SearchPackageDocs(ctx, service.SearchArgs{
		Package: name, Version: version, Language: eco, Query: query,
		ProjectPath: o.project, Limit: o.limit, MaxTokens: o.maxTokens,
	})
	if err != nil {
		return "", err
	}
	return res.Markdown, nil
}

func describe(ctx context.Context, svc *service.Service, eco, pkg, symbol string, o options) (string, error) {
	name, version := splitVersion(eco, pkg)
	var res *service.DocResult
	var err error
	switch strings.ToLower(eco) {
	case "go":
		res, err = svc.DescribeGoPackage(ctx, service.DescribeGoArgs{Package: name, Version: version, Symbol: symbol, ProjectPath: o.project, GOOS: o.goos, GOARCH: o.goarch, MaxTokens: o.maxTokens, Page: o.page})
	case "npm":
		res, err = svc.DescribeNPMPackage(ctx, service.DescribeNPMArgs{Package: name, Version: version, Symbol: symbol, ProjectPath: o.project, MaxTokens: o.maxTokens, Page: o.page})
	case "python", "rust", "swift":
		args := service.DescribeArgs{Package: name, Version: version, Symbol: symbol, ProjectPath: o.project, MaxTokens: o.maxTokens, Page: o.page}
		switch eco {
		case "python":
			res, err = svc.DescribePythonPackage(ctx, args)
		case "rust":
			res, err = svc.DescribeRustPackage(ctx, args)
		default:
			res, err = svc.DescribeSwiftPackage(ctx, args)
		}
	default:
		return "", fmt.Errorf("unknown ecosystem %q (want go, npm, python, rust or swift)", eco)
	}
	if err != nil {
		return "", err
	}
	return res.Markdown, nil
}
