package mcp

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"mime"
	"net/http"
	"net/url"
	"os"
	"path"
	"path/filepath"
	"runtime"
	"strings"
	"unicode/utf8"
)

// maxFileResourceSize is the largest file FileResourceHandler reads.
const maxFileResourceSize = 16 << 20

// FileResourceHandler returns a ResourceHandler that reads files under
// dir. The path of a file:// URI is taken relative to dir:
// file:///docs/a.md reads dir/docs/a.md. Use it for plain resources with
// file:// URIs, or for a template such as "file:///{+path}".
//
// It refuses, with an invalid-params error:
//   - URIs that are not file:// URIs with an empty or "localhost" host and
//     no query or fragment;
//   - paths that could leave dir: ".." segments, encoded separators (%2F,
//     %5C), backslashes and NUL bytes, and symbolic links that resolve
//     outside dir (dir is opened as an [os.Root]);
//   - if the client declared the roots capability, files outside the
//     client's roots, checked both on the requested path and on the file's
//     real path (a client that declares roots but lists none is refused
//     every file); the roots come from [ServerSession.Roots], so in
//     2026-07-28 the first read is answered with an input-required result
//     asking for them;
//   - anything that is not a regular file, and files over 16 MiB.
//
// A file that does not exist is reported with [ErrResourceNotFound]. The
// MIME type comes from the file name's extension ([mime.TypeByExtension])
// or, failing that, from the content ([http.DetectContentType]). A file
// whose MIME type is textual and whose bytes are valid UTF-8 is returned as
// text; any other file as a blob.
func FileResourceHandler(dir string) ResourceHandler {
	return func(ctx context.Context, ss *ServerSession, p *ReadResourceParams) (*ReadResourceResult, error) {
		name, err := fileURIPath(p.URI)
		if err != nil {
			return nil, refuseResource(p.URI, err.Error())
		}
		base, err := realDir(dir)
		if err != nil {
			return nil, fmt.Errorf("resource directory: %w", withoutPath(err))
		}
		var roots []string
		checkRoots := ss.ClientCapabilities().Roots != nil
		if checkRoots {
			if roots, err = clientRootPaths(ctx, ss); err != nil {
				return nil, err
			}
			if !withinAny(filepath.Join(base, name), roots) {
				return nil, refuseResource(p.URI, "the file is outside the client's roots")
			}
		}
		data, err := readRootFile(base, name, roots, checkRoots)
		switch {
		case errors.Is(err, fs.ErrNotExist):
			return nil, fmt.Errorf("%w: %s", ErrResourceNotFound, p.URI)
		case errors.As(err, new(*refusal)):
			return nil, refuseResource(p.URI, err.Error())
		case err != nil:
			return nil, withoutPath(err)
		}
		return &ReadResourceResult{Contents: []*ResourceContents{fileContents(p.URI, name, data)}}, nil
	}
}

// A refusal is a reason to refuse a file found while reading it.
type refusal struct{ reason string }

var _ error = (*refusal)(nil)

func (r *refusal) Error() string { return r.reason }

// refuseResource returns the error that refuses to read uri.
func refuseResource(uri, reason string) error {
	return newError(CodeInvalidParams, "Resource refused: %s: %s", uri, reason)
}

// fileURIPath validates a file:// URI and returns its path as a local,
// relative file name.
func fileURIPath(uri string) (string, error) {
	lower := strings.ToLower(uri)
	for _, enc := range []string{"%2f", "%5c", "%00"} {
		if strings.Contains(lower, enc) {
			return "", fmt.Errorf("encoded %q in the URI", enc)
		}
	}
	u, err := url.Parse(uri)
	switch {
	case err != nil:
		return "", errors.New("not a valid URI")
	case u.Scheme != "file":
		return "", errors.New("not a file:// URI")
	case u.Opaque != "" || u.User != nil || (u.Host != "" && u.Host != "localhost"):
		return "", errors.New("a file:// URI must have an empty or localhost host")
	case u.RawQuery != "" || u.ForceQuery || u.Fragment != "" || strings.Contains(uri, "#"):
		return "", errors.New("a file:// URI must have no query or fragment")
	case strings.ContainsAny(u.Path, "\\\x00"):
		return "", errors.New("backslash or NUL in the path")
	}
	for seg := range strings.SplitSeq(u.Path, "/") {
		if seg == ".." {
			return "", errors.New(`".." in the path`)
		}
	}
	rel := strings.TrimPrefix(path.Clean("/"+u.Path), "/")
	name := filepath.FromSlash(rel)
	if !filepath.IsLocal(name) {
		return "", errors.New("the path does not name a file under the resource directory")
	}
	return name, nil
}

// withoutPath drops the server's file path from an *fs.PathError, which
// would otherwise reach the client in the error message.
func withoutPath(err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return fmt.Errorf("%s: %w", pe.Op, pe.Err)
	}
	return err
}

// realDir returns the absolute path of dir with symbolic links resolved.
func realDir(dir string) (string, error) {
	abs, err := filepath.Abs(dir)
	if err != nil {
		return "", err
	}
	return filepath.EvalSymlinks(abs)
}

// readRootFile reads the file name under base without leaving base. When
// checkRoots is set, the file's real path must be within one of roots, and
// the file read must be the one at that path.
func readRootFile(base, name string, roots []string, checkRoots bool) ([]byte, error) {
	root, err := os.OpenRoot(base)
	if err != nil {
		return nil, err
	}
	defer root.Close()
	f, err := root.OpenFile(name, fileOpenFlags, 0)
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return nil, err
		}
		// os.Root reports paths that escape it, among others.
		return nil, &refusal{"cannot open the file within the resource directory"}
	}
	defer f.Close()
	info, err := f.Stat()
	if err != nil {
		return nil, err
	}
	if !info.Mode().IsRegular() {
		return nil, &refusal{"not a regular file"}
	}
	if info.Size() > maxFileResourceSize {
		return nil, &refusal{fmt.Sprintf("the file is larger than %d bytes", maxFileResourceSize)}
	}
	if checkRoots {
		real, err := filepath.EvalSymlinks(filepath.Join(base, name))
		if err != nil {
			return nil, &refusal{"the file changed while it was read"}
		}
		if st, err := os.Stat(real); err != nil || !os.SameFile(info, st) {
			return nil, &refusal{"the file changed while it was read"}
		}
		if !withinAny(real, roots) {
			return nil, &refusal{"the file is outside the client's roots"}
		}
	}
	data, err := io.ReadAll(io.LimitReader(f, maxFileResourceSize+1))
	if err != nil {
		return nil, err
	}
	if len(data) > maxFileResourceSize {
		return nil, &refusal{fmt.Sprintf("the file is larger than %d bytes", maxFileResourceSize)}
	}
	return data, nil
}

// clientRootPaths returns the local paths of the client's file:// roots,
// with symbolic links resolved where they exist. Other roots are ignored.
func clientRootPaths(ctx context.Context, ss *ServerSession) ([]string, error) {
	var paths []string
	for r, err := range ss.Roots(ctx) {
		if err != nil {
			return nil, err // errInputRequired in 2026-07-28: pass it on unchanged
		}
		if p, ok := rootPath(r.URI); ok {
			paths = append(paths, p)
		}
	}
	return paths, nil
}

// rootPath converts a file:// root URI to a clean absolute local path.
func rootPath(uri string) (string, bool) {
	u, err := url.Parse(uri)
	if err != nil || u.Scheme != "file" || (u.Host != "" && u.Host != "localhost") || u.Path == "" {
		return "", false
	}
	p := u.Path
	if runtime.GOOS == "windows" && len(p) >= 3 && p[0] == '/' && p[2] == ':' {
		p = p[1:] // "/C:/dir" is "C:\dir"
	}
	p = filepath.Clean(filepath.FromSlash(p))
	if !filepath.IsAbs(p) {
		return "", false
	}
	if real, err := filepath.EvalSymlinks(p); err == nil {
		p = real
	}
	return p, true
}

// withinAny reports whether the absolute path p is one of roots or inside
// one of them.
func withinAny(p string, roots []string) bool {
	for _, r := range roots {
		if p == r {
			return true
		}
		prefix := r
		if !strings.HasSuffix(prefix, string(filepath.Separator)) {
			prefix += string(filepath.Separator)
		}
		if strings.HasPrefix(p, prefix) {
			return true
		}
	}
	return false
}

// fileContents builds the contents of a file: text if its MIME type is
// textual and its bytes are UTF-8, a blob otherwise.
func fileContents(uri, name string, data []byte) *ResourceContents {
	mimeType := mime.TypeByExtension(filepath.Ext(name))
	if mimeType == "" {
		mimeType = http.DetectContentType(data)
	}
	if isTextMIME(mimeType) && utf8.Valid(data) {
		return NewTextResourceContents(uri, mimeType, string(data))
	}
	return NewBlobResourceContents(uri, mimeType, data)
}

// isTextMIME reports whether a MIME type denotes text.
func isTextMIME(mimeType string) bool {
	mt, _, err := mime.ParseMediaType(mimeType)
	if err != nil {
		return false
	}
	switch {
	case strings.HasPrefix(mt, "text/"), strings.HasSuffix(mt, "+json"), strings.HasSuffix(mt, "+xml"):
		return true
	}
	switch mt {
	case "application/json", "application/xml", "application/javascript", "application/ecmascript",
		"application/yaml", "application/x-yaml", "application/toml", "application/sql",
		"application/x-sh", "application/x-httpd-php", "application/graphql":
		return true
	}
	return false
}
