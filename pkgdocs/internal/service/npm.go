package service

import (
	"context"
	"fmt"
	"os"
	"strings"

	"github.com/gomcp/sdk/pkgdocs/internal/model"
	"github.com/gomcp/sdk/pkgdocs/internal/npm"
	"github.com/gomcp/sdk/pkgdocs/internal/render"
	"github.com/gomcp/sdk/pkgdocs/internal/search"
)

// NPMConfig configures the npm source.
type NPMConfig struct {
	// Values, when set, replace .npmrc discovery (tests, embedding).
	Values map[string]string
	// Home overrides the user's home directory for ~/.npmrc.
	Home string
}

func (s *Service) npmSource() *npm.Source {
	return &npm.Source{Client: s.client, Offline: s.cfg.Offline, Config: func(project string) (*npm.Config, error) {
		if s.cfg.NPM.Values != nil {
			return npm.FromValues(s.cfg.NPM.Values), nil
		}
		if project != "" {
			if st, err := os.Stat(project); err != nil || !st.IsDir() {
				return nil, fmt.Errorf("%w: projectPath %q is not a directory", ErrInvalidArgument, project)
			}
		}
		return npm.LoadConfig(npm.LoadOptions{ProjectPath: project, Home: s.cfg.NPM.Home})
	}}
}

func (s *Service) loadNPM(ctx context.Context, name, version, project string) (*entry, error) {
	r, err := s.npmRequest(name, version, project)
	if err != nil {
		return nil, err
	}
	return s.loadRequest(ctx, r)
}

// npmRequest names the package an npm question is about.
func (s *Service) npmRequest(name, version, project string) (*pkgRequest, error) {
	if err := required("package", name); err != nil {
		return nil, err
	}
	name = strings.TrimSpace(name)
	if i := strings.LastIndexByte(name, '@'); i > 0 && version == "" {
		name, version = name[:i], name[i+1:]
	}
	exact := isExactSemver(version) && project == ""
	key := strings.Join([]string{"npm", name, version, project}, "\x00")
	return &pkgRequest{key: key, exact: exact, project: project, fetch: func(ctx context.Context) (*model.Package, error) {
		return s.npmSource().Describe(ctx, npm.Request{Name: name, Version: version, ProjectPath: project})
	}}, nil
}

func isExactSemver(v string) bool {
	if v == "" {
		return false
	}
	for _, c := range v {
		if !(c >= '0' && c <= '9' || c == '.' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c == '-' || c == '+') {
			return false
		}
	}
	return strings.Count(v, ".") >= 2 && v[0] >= '0' && v[0] <= '9'
}

// DescribeNPMPackage documents an npm package from its version tarball:
// README digest, TypeScript API, examples.
func (s *Service) DescribeNPMPackage(ctx context.Context, args DescribeNPMArgs) (*DocResult, error) {
	r, err := s.npmRequest(args.Package, args.Version, args.ProjectPath)
	if err != nil {
		return nil, err
	}
	return answerShared(ctx, s, r, "describe_npm_package", args, func(e *entry) (*DocResult, error) {
		return describeNPM(e, args)
	})
}

// describeNPM renders describe_npm_package's answer from a loaded package.
func describeNPM(e *entry, args DescribeNPMArgs) (*DocResult, error) {
	inc := render.All
	if len(args.Include) > 0 {
		inc = render.Include{}
		for _, part := range args.Include {
			switch strings.ToLower(part) {
			case "readme", "docs":
				inc.Readme = true
			case "api", "types":
				inc.API = true
			case "examples":
				inc.Examples = true
			default:
				return nil, fmt.Errorf("%w: include may hold readme, api and examples, not %q", ErrInvalidArgument, part)
			}
		}
	}
	return describe(e, args.Symbol, inc, args.MaxTokens, args.Page, "describe_npm_package")
}

// GetNPMPackageDoc returns an npm package's documentation in full (paged),
// one section of it, or the parts that match a query.
func (s *Service) GetNPMPackageDoc(ctx context.Context, args GetNPMDocArgs) (*DocResult, error) {
	r, err := s.npmRequest(args.Package, args.Version, args.ProjectPath)
	if err != nil {
		return nil, err
	}
	return answerShared(ctx, s, r, "get_npm_package_doc", args, func(e *entry) (*DocResult, error) {
		return npmDoc(e, args)
	})
}

// npmDoc renders get_npm_package_doc's answer from a loaded package,
// once per set of arguments.
func npmDoc(e *entry, args GetNPMDocArgs) (*DocResult, error) {
	maxTokens := args.MaxTokens
	if maxTokens == 0 && args.MaxLength > 0 {
		maxTokens = args.MaxLength * 2 / 7
	}
	key := fmt.Sprintf("get_npm_package_doc\x00%s\x00%s\x00%d\x00%d", args.Section, args.Query, maxTokens, args.Page)
	return e.memo(key, func() (*DocResult, error) { return renderNPMDoc(e, args, maxTokens) })
}

// renderNPMDoc renders get_npm_package_doc's answer afresh (the package
// layout is computed once per entry).
func renderNPMDoc(e *entry, args GetNPMDocArgs, maxTokens int) (*DocResult, error) {
	p := e.pkg
	blocks := e.blocksFor(render.All)
	switch {
	case args.Query != "":
		hits := e.index().Search(args.Query, search.Options{Limit: 10, Fuzzy: true})
		blocks = hitBlocks(p, hits)
		if len(blocks) == 0 {
			return nil, fmt.Errorf("nothing in %s@%s matches %q: %w", p.Name, p.Version, args.Query, ErrNotFound)
		}
	case args.Section != "":
		var picked []render.Block
		var titles []string
		for _, sec := range p.Sections {
			titles = append(titles, sec.Title())
			if strings.Contains(strings.ToLower(sec.Title()), strings.ToLower(args.Section)) {
				picked = append(picked, render.SectionBlock(sec))
			}
		}
		if len(picked) == 0 {
			msg := fmt.Sprintf("%s@%s has no section matching %q", p.Name, p.Version, args.Section)
			if len(titles) > 0 {
				msg += "; sections: " + strings.Join(firstN(titles, 20), "; ")
			}
			return nil, fmt.Errorf("%s: %w", msg, ErrNotFound)
		}
		blocks = picked
	}
	return renderDoc(p, blocks, maxTokens, DefaultDocTokens, args.Page, "get_npm_package_doc")
}

func firstN(s []string, n int) []string {
	if len(s) > n {
		return s[:n]
	}
	return s
}
