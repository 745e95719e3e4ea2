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

// New returns the pkgdocs MCP server backed by svc.
func New(svc *service.Service, version string) *mcp.Server {
	server := mcp.NewServer("pkgdocs", version, &mcp.ServerOptions{
		Title:        "Package documentation",
		Instructions: Instructions,
	})
	server.AddTools(
		describeTool("describe_go_package", "Describe a Go package: doc comment, exported API with signatures, examples. Fetched from the Go module proxy and read in-process.", svc.DescribeGoPackage),
		describeTool("describe_npm_package", "Describe an npm package: README digest (install, usage, API), TypeScript signatures from its .d.ts files (or @types/<name>), examples.", svc.DescribeNPMPackage),
		describeTool("get_npm_package_doc", "Get an npm package's documentation (README, docs/), whole or by section, or searched with query.", svc.GetNPMPackageDoc),
		describeTool("describe_python_package", "Describe a Python package from PyPI (or PIP_INDEX_URL): summary, description, and the API with docstrings read from its wheel or sdist.", svc.DescribePythonPackage),
		describeTool("describe_rust_package", "Describe a Rust crate: README, crate docs and item signatures (docs.rs rustdoc JSON or the crate source).", svc.DescribeRustPackage),
		describeTool("describe_swift_package", "Describe a Swift package (owner/repo, a repository URL, or \".\" with projectPath): products and targets from Package.swift, public declarations with doc comments, DocC articles.", svc.DescribeSwiftPackage),
		mcp.NewStructuredTool("search_package_docs", "Search a package's documentation, symbols and examples; an exact symbol name ranks first.",
			func(ctx context.Context, ss *mcp.ServerSession, args service.SearchArgs) (searchAnswer, error) {
				ctx, finish := withProgress(ctx)
				res, err := svc.SearchPackageDocs(ctx, args)
				finish()
				return searchAnswer{res}, toolError(err)
			}, mcp.ReadOnlyHint(true), mcp.IdempotentHint(true), mcp.OpenWorldHint(true)),
	)
	return server
}

// describeTool makes a read-only documentation tool from a service method.
func describeTool[In any](name, description string, describe func(context.Context, In) (*service.DocResult, error)) *mcp.ServerTool {
	return mcp.NewStructuredTool(name, description,
		func(ctx context.Context, ss *mcp.ServerSession, args In) (docAnswer, error) {
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
