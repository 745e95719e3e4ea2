package service

import (
	"context"
	"fmt"
	"strings"

	"github.com/gomcp/sdk/pkgdocs/internal/gosrc"
	"github.com/gomcp/sdk/pkgdocs/internal/model"
	"github.com/gomcp/sdk/pkgdocs/internal/render"
)

// DescribeGoPackage documents a Go package from its module zip (or the
// local toolchain for the standard library).
func (s *Service) DescribeGoPackage(ctx context.Context, args DescribeGoArgs) (*DocResult, error) {
	r, err := s.goRequest(args.Package, args.Version, args.ProjectPath, args.GOOS, args.GOARCH)
	if err != nil {
		return nil, err
	}
	return answerShared(ctx, s, r, "describe_go_package", args, func(e *entry) (*DocResult, error) {
		return describe(e, args.Symbol, render.All, args.MaxTokens, args.Page, "describe_go_package")
	})
}

func (s *Service) loadGo(ctx context.Context, pkg, version, project, goos, goarch string) (*entry, error) {
	r, err := s.goRequest(pkg, version, project, goos, goarch)
	if err != nil {
		return nil, err
	}
	return s.loadRequest(ctx, r)
}

// goRequest names the package a Go question is about.
func (s *Service) goRequest(pkg, version, project, goos, goarch string) (*pkgRequest, error) {
	if err := required("package", pkg); err != nil {
		return nil, err
	}
	pkg = strings.TrimSpace(pkg)
	if goos != "" && !knownGOOS[goos] {
		return nil, fmt.Errorf("%w: goos %q is not a GOOS the Go toolchain knows (for example linux, darwin, windows)", ErrInvalidArgument, goos)
	}
	if goarch != "" && !knownGOARCH[goarch] {
		return nil, fmt.Errorf("%w: goarch %q is not a GOARCH the Go toolchain knows (for example amd64, arm64)", ErrInvalidArgument, goarch)
	}
	if p, v, ok := strings.Cut(pkg, "@"); ok && version == "" {
		pkg, version = p, v
	}
	exact := version != "" && version != "latest" && project == ""
	if version == "latest" {
		version = ""
	}
	key := strings.Join([]string{"go", pkg, version, project, goos, goarch}, "\x00")
	return &pkgRequest{key: key, exact: exact, project: project, fetch: func(ctx context.Context) (*model.Package, error) {
		return s.gosrc.Describe(ctx, gosrc.Request{
			ImportPath: pkg, Version: version, ProjectPath: project,
			Target: gosrc.Target{GOOS: goos, GOARCH: goarch},
		})
	}}, nil
}

// knownGOOS and knownGOARCH are the targets of `go tool dist list` (Go 1.26).
var (
	knownGOOS   = set("aix", "android", "darwin", "dragonfly", "freebsd", "illumos", "ios", "js", "linux", "netbsd", "openbsd", "plan9", "solaris", "wasip1", "windows")
	knownGOARCH = set("386", "amd64", "arm", "arm64", "loong64", "mips", "mips64", "mips64le", "mipsle", "ppc64", "ppc64le", "riscv64", "s390x", "wasm")
)

func set(vs ...string) map[string]bool {
	m := make(map[string]bool, len(vs))
	for _, v := range vs {
		m[v] = true
	}
	return m
}
