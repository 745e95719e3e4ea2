package service

import (
	"context"
	"errors"
	"strings"

	"github.com/gomcp/sdk/pkgdocs/internal/model"
	"github.com/gomcp/sdk/pkgdocs/internal/render"
	"github.com/gomcp/sdk/pkgdocs/internal/rust"
)

// RustConfig configures the Rust source.
type RustConfig struct {
	APIURL      string // crates.io API; default https://crates.io
	DownloadURL string // crate archives; default https://static.crates.io
	DocsURL     string // docs.rs; default https://docs.rs; "off" skips rustdoc JSON
	CargoHome   string // Cargo's home, whose registry/src holds unpacked crates; default $CARGO_HOME or ~/.cargo
}

// rustRequest names the package a Rust question is about.
func (s *Service) rustRequest(name, version, project string) (*pkgRequest, error) {
	if err := required("package", name); err != nil {
		return nil, err
	}
	if err := checkProject(project); err != nil {
		return nil, err
	}
	name = strings.TrimSpace(name)
	if n, v, ok := strings.Cut(name, "@"); ok && version == "" {
		name, version = n, v
	}
	src := &rust.Source{Client: s.client, APIURL: s.cfg.Rust.APIURL, DownloadURL: s.cfg.Rust.DownloadURL, DocsURL: s.cfg.Rust.DocsURL, CargoHome: s.cfg.Rust.CargoHome}
	exact := rust.IsExactVersion(version) && project == ""
	key := strings.Join([]string{"rust", s.cfg.Rust.APIURL, strings.ReplaceAll(strings.ToLower(name), "_", "-"), version, project}, "\x00")
	return &pkgRequest{key: key, exact: exact, project: project, fetch: func(ctx context.Context) (*model.Package, error) {
		return src.Describe(ctx, rust.Request{Name: name, Version: version, ProjectPath: project})
	}}, nil
}

// DescribeRustPackage documents a Rust crate: README, crate docs, the
// public API from docs.rs rustdoc JSON (or a scan of the crate source),
// examples and Cargo features.
func (s *Service) DescribeRustPackage(ctx context.Context, args DescribeArgs) (*DocResult, error) {
	r, err := s.rustRequest(args.Package, args.Version, args.ProjectPath)
	if err != nil {
		return nil, err
	}
	return answerShared(ctx, s, r, "describe_rust_package", args, func(e *entry) (*DocResult, error) {
		return describeRust(e, args)
	})
}

// describeRust renders describe_rust_package's answer from a loaded
// package: the symbol as a Rust user writes it, else as given.
func describeRust(e *entry, args DescribeArgs) (*DocResult, error) {
	symbol := args.Symbol
	if symbol != "" {
		symbol = rustSymbol(e.pkg.Name, symbol)
	}
	res, err := describe(e, symbol, render.All, args.MaxTokens, args.Page, "describe_rust_package")
	if err != nil && symbol != args.Symbol && errors.Is(err, ErrNotFound) {
		return describe(e, args.Symbol, render.All, args.MaxTokens, args.Page, "describe_rust_package")
	}
	return res, err
}

// rustSymbol turns a symbol as a Rust user writes it into the path the
// crate's symbols are listed by: a macro's `!` dropped (`anyhow!`), the
// crate's own name dropped (`tokio::spawn`), and `Type.method` written
// `Type::method`, as Rust paths never hold a dot.
func rustSymbol(crate, symbol string) string {
	s := strings.TrimSuffix(strings.TrimSpace(symbol), "!")
	s = strings.ReplaceAll(s, ".", "::")
	for _, c := range []string{crate, strings.ReplaceAll(crate, "-", "_")} {
		if rest, ok := strings.CutPrefix(s, c+"::"); ok && rest != "" {
			s = rest
			break
		}
	}
	return s
}
