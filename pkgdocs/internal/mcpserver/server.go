// Package mcpserver exposes the pkgdocs service as an MCP server: seven
// read-only tools with inferred input and output schemas, markdown content
// for models and structured content with provenance for programs.
package mcpserver

import (
	"context"
	"errors"

	"github.com/gomcp/sdk/mcp"
	"github.com/gomcp/sdk/pkgdocs/internal/service"
)

// Instructions tell the client's model how to use the tools.
const Instructions = `pkgdocs answers questions about the API of npm, Go, Python, Rust and Swift packages from their published artefacts.
Use describe_<ecosystem>_package for an overview or one symbol (pass symbol), search_package_docs to find a symbol or topic, and get_npm_package_doc for an npm package's full documentation.
Pass projectPath so the version your project uses is described. Long answers are paged: ask for nextPage.`

// docAnswer is a documentation answer: markdown for the model, the rest
// (provenance, paging) as structured content.
type docAnswer struct {
	*service.DocResult
}

func (a docAnswer) ToolContent() []*mcp.Content {
	return []*mcp.Content{mcp.NewTextContent(a.Markdown)}
}

// searchAnswer is a search answer, likewise.
type searchAnswer struct {
	*service.SearchResult
}

func (a searchAnswer) ToolContent() []*mcp.Content {
	return []*mcp.Content{mcp.NewTextContent(a.Markdown)}
}

// Options configure the MCP server. A nil *Options means defaults.
type Options struct {
	// EncodedBytes bounds the tool results kept encoded, so that a warm
	// answer (the answer the service returned before, which it returns
	// again while the answer holds) is sent without being encoded and
	// checked against the tool's output schema again: 0 means
	// DefaultEncodedBytes (32 MiB), a negative value keeps none.
	EncodedBytes int64
}

// New returns the pkgdocs MCP server backed by svc.
func New(svc *service.Service, version string, opts *Options) *mcp.Server {
	var o Options
	if opts != nil {
		o = *opts
	}
	return newServer(svc, version, newEncodedResults(o.EncodedBytes))
}

// newServer is New with the cache of encoded results (nil: none).
func newServer(svc *service.Service, version string, cache *encodedResults) *mcp.Server {
	server := mcp.NewServer("pkgdocs", version, &mcp.ServerOptions{
		Title:        "Package documentation",
		Instructions: Instructions,
	})
	server.AddTools(
		describeTool(cache, "describe_go_package", "Describe a Go package: doc comment, exported API with signatures, examples. Fetched from the Go module proxy and read in-process.", svc.DescribeGoPackage),
		describeTool(cache, "describe_npm_package", "Describe an npm package: README digest (install, usage, API), TypeScript signatures from its .d.ts files (or @types/<name>), examples.", svc.DescribeNPMPackage),
		describeTool(cache, "get_npm_package_doc", "Get an npm package's documentation (README, docs/), whole or by section, or searched with query.", svc.GetNPMPackageDoc),
		describeTool(cache, "describe_python_package", "Describe a Python package from PyPI (or PIP_INDEX_URL): summary, description, and the API with docstrings read from its wheel or sdist.", svc.DescribePythonPackage),
		describeTool(cache, "describe_rust_package", "Describe a Rust crate: README, crate docs and item signatures (docs.rs rustdoc JSON or the crate source).", svc.DescribeRustPackage),
		describeTool(cache, "describe_swift_package", "Describe a Swift package (owner/repo, a repository URL, or \".\" with projectPath): products and targets from Package.swift, public declarations with doc comments, DocC articles.", svc.DescribeSwiftPackage),
		cachedTool(cache, "search_package_docs", "Search a package's documentation, symbols and examples; an exact symbol name ranks first.",
			func(ctx context.Context, args service.SearchArgs) (searchAnswer, error) {
				ctx, finish := withProgress(ctx)
				res, err := svc.SearchPackageDocs(ctx, args)
				finish()
				return searchAnswer{res}, toolError(err)
			}, mcp.ReadOnlyHint(true), mcp.IdempotentHint(true), mcp.OpenWorldHint(true)),
	)
	return server
}

// describeTool makes a read-only documentation tool from a service
// method, its results kept in cache.
func describeTool[In any](cache *encodedResults, name, description string, describe func(context.Context, In) (*service.DocResult, error)) *mcp.ServerTool {
	return cachedTool(cache, name, description,
		func(ctx context.Context, args In) (docAnswer, error) {
			ctx, finish := withProgress(ctx)
			res, err := describe(ctx, args)
			finish()
			return docAnswer{res}, toolError(err)
		}, mcp.ReadOnlyHint(true), mcp.IdempotentHint(true), mcp.OpenWorldHint(true))
}

// toolError decides how a failure reaches the client: arguments the
// service cannot use are a protocol error (invalid params); everything else
// (package not found, registry down, auth needed) is a tool result with
// isError, whose actionable message the model can act on.
func toolError(err error) error {
	if err != nil && errors.Is(err, service.ErrInvalidArgument) {
		return &mcp.JSONRPCError{Code: mcp.CodeInvalidParams, Message: err.Error()}
	}
	return err
}
