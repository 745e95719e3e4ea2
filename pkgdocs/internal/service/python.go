package service

import (
	"context"
	"os"
	"strings"

	"github.com/gomcp/sdk/pkgdocs/internal/model"
	"github.com/gomcp/sdk/pkgdocs/internal/pypi"
	"github.com/gomcp/sdk/pkgdocs/internal/render"
)

// PythonConfig configures the Python source.
type PythonConfig struct {
	IndexURL string // PyPI JSON API host; default https://pypi.org
	// SimpleIndexURL is a PEP 503/691 simple index used instead of the JSON
	// API (PIP_INDEX_URL semantics; credentials in its user info are sent to
	// its host only and never printed). Default: $PIP_INDEX_URL unless it is
	// PyPI's own index.
	SimpleIndexURL string
}

// simpleIndexFromEnv returns PIP_INDEX_URL unless it names PyPI, whose
// JSON API gives more.
func simpleIndexFromEnv() string {
	v := strings.TrimSpace(os.Getenv("PIP_INDEX_URL"))
	if v == "" {
		return ""
	}
	if ix, err := pypi.ParseIndexURL(v); err == nil {
		switch strings.TrimSuffix(ix.String(), "/") {
		case "https://pypi.org/simple", "https://pypi.python.org/simple":
			return ""
		}
	}
	return v
}

// pythonRequest names the package a Python question is about.
func (s *Service) pythonRequest(name, version, project string) (*pkgRequest, error) {
	if err := required("package", name); err != nil {
		return nil, err
	}
	if err := checkProject(project); err != nil {
		return nil, err
	}
	name = strings.TrimSpace(name)
	if n, v, ok := strings.Cut(name, "=="); ok && version == "" {
		name, version = n, v
	}
	idx := s.cfg.Python.IndexURL
	if idx == "" {
		idx = "https://pypi.org"
	}
	src := &pypi.Source{Client: s.client, IndexURL: idx, SimpleIndexURL: s.cfg.Python.SimpleIndexURL}
	// The cache key names the index without its credentials.
	where := idx
	if src.SimpleIndexURL != "" {
		if ix, err := pypi.ParseIndexURL(src.SimpleIndexURL); err == nil {
			where = ix.String()
		}
	}
	key := strings.Join([]string{"python", where, pypi.Normalize(name), version, project}, "\x00")
	exact := version != "" && version != "latest" && project == ""
	return &pkgRequest{key: key, exact: exact, project: project, fetch: func(ctx context.Context) (*model.Package, error) {
		return src.Describe(ctx, pypi.Request{Name: name, Version: version, ProjectPath: project})
	}}, nil
}

// DescribePythonPackage documents a Python distribution: summary and long
// description, and the public API (functions, classes, methods with
// signatures and docstrings) read from its wheel or sdist.
func (s *Service) DescribePythonPackage(ctx context.Context, args DescribeArgs) (*DocResult, error) {
	r, err := s.pythonRequest(args.Package, args.Version, args.ProjectPath)
	if err != nil {
		return nil, err
	}
	return answerShared(ctx, s, r, "describe_python_package", args, func(e *entry) (*DocResult, error) {
		return describe(e, args.Symbol, render.All, args.MaxTokens, args.Page, "describe_python_package")
	})
}
