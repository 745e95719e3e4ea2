package servercard

import (
	"fmt"
	"slices"
	"strings"

	"github.com/gomcp/sdk/mcp"
)

// Contradictions compares card with the live server cs is connected to
// and returns each point where they disagree, one line each; none means
// they agree. Compared: the name (the card's in full, or its part after
// the slash, against serverInfo.name), the version, the title and the
// description when both give one, and the negotiated protocol version
// against the versions the card's remotes list. Where they disagree, the
// live values are the server's truth.
func Contradictions(card *Card, cs *mcp.ClientSession) []string {
	var out []string
	info := cs.ServerInfo()
	if info == nil {
		return []string{"the server sent no serverInfo"}
	}
	_, short, _ := strings.Cut(card.Name, "/")
	if info.Name != card.Name && info.Name != short {
		out = append(out, fmt.Sprintf("name: the card says %q, the server %q", card.Name, info.Name))
	}
	if info.Version != card.Version {
		out = append(out, fmt.Sprintf("version: the card says %q, the server %q", card.Version, info.Version))
	}
	if card.Title != "" && info.Title != "" && card.Title != info.Title {
		out = append(out, fmt.Sprintf("title: the card says %q, the server %q", card.Title, info.Title))
	}
	if info.Description != "" && card.Description != info.Description {
		out = append(out, fmt.Sprintf("description: the card says %q, the server %q", card.Description, info.Description))
	}
	var listed []string
	for _, r := range card.Remotes {
		listed = append(listed, r.SupportedProtocolVersions...)
	}
	if v := cs.ProtocolVersion(); len(listed) > 0 && !slices.Contains(listed, v) {
		out = append(out, fmt.Sprintf("protocol: the session uses %s, which no remote of the card lists", v))
	}
	return out
}
