package service

import (
	"context"
	"path/filepath"
	"strings"

	"github.com/gomcp/sdk/pkgdocs/internal/model"
	"github.com/gomcp/sdk/pkgdocs/internal/render"
	"github.com/gomcp/sdk/pkgdocs/internal/swift"
)

// SwiftConfig configures the Swift source.
type SwiftConfig struct {
	GitURL      string // git host for tags (smart HTTP); default https://github.com
	CodeloadURL string // tarball host; default https://codeload.github.com
}

// swiftRequest names the package a Swift question is about.
func (s *Service) swiftRequest(name, version, project string) (*pkgRequest, error) {
	if err := checkProject(project); err != nil {
		return nil, err
	}
	name = strings.TrimSpace(name)
	if name == "" && project == "" {
		return nil, required("package", name)
	}
	if i := strings.LastIndexByte(name, '@'); i > 0 && version == "" && !strings.HasPrefix(name, "git@") {
		name, version = name[:i], name[i+1:]
	}
	if project != "" {
		if abs, err := filepath.Abs(project); err == nil {
			project = abs
		}
	}
	src := &swift.Source{Client: s.client, GitURL: s.cfg.Swift.GitURL, CodeloadURL: s.cfg.Swift.CodeloadURL}
	// Tags can move, so only commits are cached as immutable.
	exact := len(version) == 40 && project == ""
	key := strings.Join([]string{"swift", s.cfg.Swift.GitURL, strings.ToLower(name), version, project}, "\x00")
	return &pkgRequest{key: key, exact: exact, project: project, fetch: func(ctx context.Context) (*model.Package, error) {
		return src.Describe(ctx, swift.Request{Package: name, Version: version, ProjectPath: project})
	}}, nil
}

// DescribeSwiftPackage documents a Swift package: Package.swift (products,
// modules to import, dependencies), README, public declarations with their
// docs, and DocC articles.
func (s *Service) DescribeSwiftPackage(ctx context.Context, args DescribeArgs) (*DocResult, error) {
	r, err := s.swiftRequest(args.Package, args.Version, args.ProjectPath)
	if err != nil {
		return nil, err
	}
	return answerShared(ctx, s, r, "describe_swift_package", args, func(e *entry) (*DocResult, error) {
		return describe(e, args.Symbol, render.All, args.MaxTokens, args.Page, "describe_swift_package")
	})
}
