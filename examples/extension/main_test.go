package main

import (
	"context"
	"strings"
	"testing"

	"github.com/gomcp/sdk/mcp"
)

func TestRun(t *testing.T) {
	for _, protocol := range []string{mcp.Version20251125, mcp.Version20260728} {
		var out strings.Builder
		if err := run(context.Background(), &out, protocol); err != nil {
			t.Fatalf("%s: %v", protocol, err)
		}
		want := "server keeps 2 notes\n" +
			"added \"buy milk\", the server holds 1\n" +
			"added \"call Ada\", the server holds 2\n" +
			"added \"water plants\", the server holds 2\n" +
			"notes: [\"call Ada\" \"water plants\"]\n" +
			"without the extension: code -32021: Missing required client capability: the request needs the extension com.example/notes\n"
		if out.String() != want {
			t.Errorf("%s: output\n%s\nwant\n%s", protocol, out.String(), want)
		}
	}
}
