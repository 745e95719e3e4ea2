package mcp

import (
	"errors"
	"fmt"
	"slices"
	"testing"
)

func TestFeatureSetPagination(t *testing.T) {
	var fs featureSet[string]
	id := func(s string) string { return s }
	for i := range 25 {
		fs.add(id, fmt.Sprintf("item%02d", i))
	}
	var got []string
	cursor := ""
	for pages := 0; ; pages++ {
		if pages > 10 {
			t.Fatal("pagination does not end")
		}
		page, next, err := fs.page(cursor, 10)
		if err != nil {
			t.Fatal(err)
		}
		got = append(got, page...)
		if pages == 0 {
			// Changes between pages: remove an item already served and
			// one not yet served, add one after the cursor.
			fs.remove("item00", "item15")
			fs.add(id, "item99")
		}
		if next == "" {
			break
		}
		cursor = next
	}
	var want []string
	for i := range 25 {
		if i != 15 {
			want = append(want, fmt.Sprintf("item%02d", i))
		}
	}
	want = append(want, "item99")
	if !slices.Equal(got, want) {
		t.Fatalf("pages gave\n%v\nwant\n%v", got, want)
	}
}

func TestFeatureSetInvalidCursor(t *testing.T) {
	var fs featureSet[string]
	for _, c := range []string{"!!", "bm9wZQ"} {
		_, _, err := fs.page(c, 10)
		var werr *JSONRPCError
		if !errors.As(err, &werr) || werr.Code != CodeInvalidParams {
			t.Errorf("cursor %q: %v, want invalid params", c, err)
		}
	}
}
