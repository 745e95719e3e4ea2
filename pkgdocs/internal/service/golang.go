package service

import (
	"context"
	"strings"

	"github.com/gomcp/sdk/pkgdocs/internal/gosrc"
	"github.com/gomcp/sdk/pkgdocs/internal/model"
	"github.com/gomcp/sdk/pkgdocs/internal/render"
)

// DescribeGoPackage documents a Go package from its module zip (or the
// local toolchain for the standard library).
func (s *Service) DescribeGoPackage(ctx context.Context, args DescribeGoArgs) (*DocResult, error) {
	e, err := s.loadGo(ctx, args.Package, args.Version, args.ProjectPath, args.GOOS, args.GOARCH)
	if err != nil {
		return nil, err
	}
	return describe(e.pkg, args.Symbol, render.All, args.MaxTokens, args.Page, "describe_go_package")
}

func (s *Service) loadGo(ctx context.Context, pkg, version, project, goos, goarch string) (*entry, error) {
	if err := required("package", pkg); err != nil {
		return nil, err
	}
	pkg = strings.TrimSpace(pkg)
	if p, v, ok := strings.Cut(pkg, "@"); ok && version == "" {
		pkg, version = p, v
	}
	exact := version != "" && version != "latest" && project == ""
	if version == "latest" {
		version = ""
	}
	key := strings.Join([]string{"go", pkg, version, project, goos, goarch}, "\x00")
	return s.load(ctx, key, exact, func(ctx context.Context) (*model.Package, error) {
		return s.gosrc.Describe(ctx, gosrc.Request{
			ImportPath: pkg, Version: version, ProjectPath: project,
			Target: gosrc.Target{GOOS: goos, GOARCH: goarch},
		})
	})
}
