package render

import (
	"fmt"
	"strings"
	"testing"

	"github.com/gomcp/sdk/pkgdocs/internal/model"
)

// TestLongMemberListByName: a type's own members are listed with their
// signatures; past maxDetailedMembers, the members not in the index
// (promoted commands) are listed by name, and each is found by its name.
func TestLongMemberListByName(t *testing.T) {
	p := &model.Package{Name: "example.com/redis", Version: "v1.0.0", Ecosystem: model.Go, Symbols: []model.Symbol{
		{Name: "Client", Kind: "type", Signature: "type Client struct{}"},
		{Name: "Client.Close", Kind: "method", Signature: "func (c *Client) Close() error"},
	}}
	for i := range maxDetailedMembers {
		p.Symbols = append(p.Symbols, model.Symbol{Name: fmt.Sprintf("Client.Cmd%02d", i), Kind: "method", Signature: fmt.Sprintf("func (c Client) Cmd%02d(key string) string", i), Hidden: true})
	}
	x := NewSymbolIndex(p)
	text := x.Blocks("Client")[0].Text
	for _, want := range []string{"`func (c *Client) Close() error`", fmt.Sprintf("%d more, each found as Client.<name>:", maxDetailedMembers), "`Cmd00`, `Cmd01`", "`Cmd39`"} {
		if !strings.Contains(text, want) {
			t.Errorf("the answer for Client lacks %q:\n%s", want, text)
		}
	}
	if strings.Contains(text, "func (c Client) Cmd00") {
		t.Errorf("a promoted member of a long list is listed with its signature:\n%s", text)
	}
	if got := x.Find("Client.Cmd07"); len(got) != 1 || got[0].Signature != "func (c Client) Cmd07(key string) string" {
		t.Errorf("Client.Cmd07: %v", got)
	}
	// A short list keeps every signature.
	short := &model.Package{Name: "m", Ecosystem: model.Go, Symbols: p.Symbols[:4]}
	if text := NewSymbolIndex(short).Blocks("Client")[0].Text; !strings.Contains(text, "func (c Client) Cmd01(key string) string") {
		t.Errorf("a short list names its members only:\n%s", text)
	}
}
