package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"mime"
	"os"
	"path/filepath"
	"strings"

	"github.com/gomcp/sdk/mcp"
	"github.com/gomcp/sdk/strictjson"
)

// printJSON writes v as one line of JSON.
func printJSON(w io.Writer, v any) error {
	data, err := strictjson.Marshal(v)
	if err != nil {
		return &cliError{exit: exitUsage, code: "unexpected", msg: "encoding the output", cause: err}
	}
	data = append(data, '\n')
	_, err = w.Write(data)
	return err
}

// firstLine is the first line of s, shortened to max runes.
func firstLine(s string, max int) string {
	s, _, _ = strings.Cut(strings.TrimSpace(s), "\n")
	if r := []rune(s); len(r) > max {
		return string(r[:max-1]) + "…"
	}
	return s
}

// saver saves binary content (images, audio, blobs) under --output.
type saver struct {
	path  string // --output: a file, or a directory for several
	count int    // binary items in the output
	n     int    // saved so far
	saved []string
}

// save writes data and returns where, or "" without --output.
func (s *saver) save(data []byte, mimeType, hint string) (string, error) {
	if s.path == "" {
		return "", nil
	}
	s.n++
	name := s.path
	if st, err := os.Stat(s.path); (err == nil && st.IsDir()) || s.count > 1 || strings.HasSuffix(s.path, string(filepath.Separator)) {
		if err := os.MkdirAll(s.path, 0o755); err != nil {
			return "", err
		}
		ext := ""
		if exts, _ := mime.ExtensionsByType(mimeType); len(exts) > 0 {
			ext = exts[len(exts)-1]
		}
		name = filepath.Join(s.path, fmt.Sprintf("%s-%d%s", hint, s.n, ext))
	}
	if err := os.WriteFile(name, data, 0o644); err != nil {
		return "", err
	}
	s.saved = append(s.saved, name)
	return name, nil
}

// printContent writes content blocks for a human: text as is, binary
// content saved with --output or summarized.
func printContent(w io.Writer, content []*mcp.Content, sv *saver) error {
	for _, c := range content {
		switch c.Type {
		case "text":
			fmt.Fprintln(w, c.Text)
		case "image", "audio":
			where, err := sv.save(c.Data, c.MIMEType, c.Type)
			if err != nil {
				return err
			}
			if where != "" {
				fmt.Fprintf(w, "[%s %s, %d bytes, saved to %s]\n", c.Type, c.MIMEType, len(c.Data), where)
			} else {
				fmt.Fprintf(w, "[%s %s, %d bytes; save it with --output]\n", c.Type, c.MIMEType, len(c.Data))
			}
		case "resource":
			if err := printResourceContents(w, c.Resource, sv); err != nil {
				return err
			}
		case "resource_link":
			fmt.Fprintf(w, "[resource link %s %s]\n", c.URI, c.Name)
		default:
			data, _ := strictjson.Marshal(c)
			fmt.Fprintf(w, "%s\n", data)
		}
	}
	return nil
}

func printResourceContents(w io.Writer, rc *mcp.ResourceContents, sv *saver) error {
	if rc == nil {
		return nil
	}
	if rc.Blob == nil {
		fmt.Fprintln(w, rc.Text)
		return nil
	}
	where, err := sv.save(rc.Blob, rc.MIMEType, "blob")
	if err != nil {
		return err
	}
	if where != "" {
		fmt.Fprintf(w, "[%s %s, %d bytes, saved to %s]\n", rc.URI, rc.MIMEType, len(rc.Blob), where)
	} else {
		fmt.Fprintf(w, "[%s %s, %d bytes; save it with --output]\n", rc.URI, rc.MIMEType, len(rc.Blob))
	}
	return nil
}

// binaryCount counts content that --output saves.
func binaryCount(content []*mcp.Content) int {
	n := 0
	for _, c := range content {
		if c.Type == "image" || c.Type == "audio" || (c.Type == "resource" && c.Resource != nil && c.Resource.Blob != nil) {
			n++
		}
	}
	return n
}

// rawJSON returns v as indented JSON text for humans.
func rawJSON(v any) string {
	data, err := strictjson.Marshal(v)
	if err != nil {
		return fmt.Sprint(v)
	}
	var pretty bytes.Buffer
	if json.Indent(&pretty, data, "", "  ") == nil {
		return pretty.String()
	}
	return string(data)
}
