package servercard

import (
	"fmt"
	"net"
	"net/url"
	"regexp"
	"slices"
	"strings"
)

// Cards are public. These checks keep what must not be public out of them
// (the reference's security considerations): a secret input filled in, a
// credential header with a literal value, credentials in a URL. They are
// errors for the cards this package serves and reads alike.

// placeholder matches a {name} placeholder of a URL or a header value.
var placeholder = regexp.MustCompile(`\{[a-zA-Z_][a-zA-Z0-9_]*\}`)

// credentialHeaders are headers whose value is a credential.
var credentialHeaders = []string{"authorization", "proxy-authorization", "cookie", "x-api-key", "api-key"}

// supersededMembers are top-level members of earlier card shapes that
// described primitives, capabilities or packages; a card has none.
var supersededMembers = []string{"tools", "prompts", "resources", "resourceTemplates", "capabilities", "serverInfo", "protocolVersion", "requires"}

// leaks returns the secrets and credentials c would publish, one line
// each; none means c is clean.
func leaks(c *Card) []string {
	var out []string
	for i, r := range c.Remotes {
		at := fmt.Sprintf("remotes[%d]", i)
		if u, err := url.Parse(r.URL); err == nil && u.User != nil {
			out = append(out, at+".url: carries credentials (user info)")
		}
		out = append(out, secretFilled(at+".variables", r.Variables)...)
		for j, h := range r.Headers {
			hat := fmt.Sprintf("%s.headers[%d] (%s)", at, j, h.Name)
			if h.IsSecret && (h.Default != "" || (h.Value != "" && !placeholder.MatchString(h.Value))) {
				out = append(out, hat+": a secret input has a value; describe it and let the user supply it")
			}
			if !h.IsSecret && h.Value != "" && !placeholder.MatchString(h.Value) && slices.Contains(credentialHeaders, strings.ToLower(h.Name)) {
				out = append(out, hat+": a credential header has a literal value")
			}
			out = append(out, secretFilled(hat+".variables", h.Variables)...)
		}
	}
	return out
}

// secretFilled reports the secret inputs of vars that carry a value.
func secretFilled(at string, vars map[string]Input) []string {
	var out []string
	for _, name := range sortedKeys(vars) {
		in := vars[name]
		if in.IsSecret && (in.Value != "" || in.Default != "") {
			out = append(out, fmt.Sprintf("%s.%s: a secret input has a value; describe it and let the user supply it", at, name))
		}
	}
	return out
}

// insecureRemotes reports the remotes of c served over plain http to a
// host that is not loopback (HTTPS is required in production).
func insecureRemotes(c *Card) []string {
	var out []string
	for i, r := range c.Remotes {
		u, err := url.Parse(r.URL)
		if err == nil && u.Scheme == "http" && !isLoopback(u.Hostname()) {
			out = append(out, fmt.Sprintf("remotes[%d].url: plain http to %s; production endpoints use https", i, u.Host))
		}
	}
	return out
}

// isLoopback reports whether host names this machine: localhost or a
// loopback address.
func isLoopback(host string) bool {
	if strings.EqualFold(host, "localhost") || strings.HasSuffix(strings.ToLower(host), ".localhost") {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}

func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}
