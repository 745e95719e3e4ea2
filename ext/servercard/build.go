package servercard

import (
	"errors"
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/gomcp/sdk/internal/strictjson"
	"github.com/gomcp/sdk/mcp"
)

// Options say what FromServer and NewHandler put in a card besides the
// server's identity.
type Options struct {
	// Namespace is the reverse-DNS namespace that makes the server's name
	// a card name: "com.example" and a server named "weather" give
	// "com.example/weather". A server whose name already has one slash
	// keeps it, and needs none.
	Namespace string
	// Remotes are the endpoints this program serves the server at, each
	// with its Type and absolute URL. A remote without
	// SupportedProtocolVersions gets the versions the server serves on
	// that transport: every one of Server.ProtocolVersions for
	// StreamableHTTP, those before 2026-07-28 for SSE. Listed versions
	// must be ones the server serves.
	Remotes []Remote
	// Repository, if set, says where the server's source code is.
	Repository *Repository
	// Meta is vendor data under reverse-DNS keys.
	Meta map[string]any
	// AllowHTTP lets remotes use plain http to hosts that are not
	// loopback, for development networks. Production endpoints use https.
	AllowHTTP bool
}

// FromServer returns the card of s: its name (with Options.Namespace),
// version, title, description, website and icons are the server's own
// Implementation, which initialize and server/discover report, so the
// card and the live server agree. The card is validated (see
// Card.Validate); the server must have a description
// (ServerOptions.Description, 1 to 100 characters), which a card
// requires.
func FromServer(s *mcp.Server, opts *Options) (*Card, error) {
	if s == nil {
		return nil, errors.New("servercard: FromServer needs a server")
	}
	if opts == nil {
		opts = &Options{}
	}
	impl := s.Implementation()
	name := impl.Name
	if !strings.Contains(name, "/") {
		if opts.Namespace == "" {
			return nil, fmt.Errorf("servercard: the server's name %q has no namespace: set Options.Namespace (such as \"com.example\")", name)
		}
		name = opts.Namespace + "/" + name
	}
	if impl.Description == "" {
		return nil, errors.New("servercard: the server has no description: set ServerOptions.Description (1 to 100 characters)")
	}
	c := &Card{
		Schema:      SchemaURL,
		Name:        name,
		Version:     impl.Version,
		Description: impl.Description,
		Title:       impl.Title,
		WebsiteURL:  impl.WebsiteURL,
		Icons:       impl.Icons,
		Meta:        maps.Clone(opts.Meta),
	}
	if opts.Repository != nil {
		repo := *opts.Repository
		c.Repository = &repo
	}
	served := s.ProtocolVersions()
	for i, r := range opts.Remotes {
		r.Headers = slices.Clone(r.Headers)
		for j := range r.Headers {
			r.Headers[j].Variables = maps.Clone(r.Headers[j].Variables)
			r.Headers[j].Choices = slices.Clone(r.Headers[j].Choices)
		}
		r.Variables = maps.Clone(r.Variables)
		if r.SupportedProtocolVersions == nil {
			r.SupportedProtocolVersions = versionsOn(r.Type, served)
			if len(r.SupportedProtocolVersions) == 0 {
				return nil, fmt.Errorf("%w: remotes[%d]: the server serves no protocol version over %s", ErrInvalid, i, r.Type)
			}
		} else {
			r.SupportedProtocolVersions = slices.Clone(r.SupportedProtocolVersions)
			for _, v := range r.SupportedProtocolVersions {
				if !slices.Contains(served, v) {
					return nil, fmt.Errorf("%w: remotes[%d]: the server does not serve protocol version %q", ErrInvalid, i, v)
				}
			}
		}
		c.Remotes = append(c.Remotes, r)
	}
	if err := c.Validate(); err != nil {
		return nil, err
	}
	if !opts.AllowHTTP {
		if err := invalid(insecureRemotes(c)); err != nil {
			return nil, fmt.Errorf("%w (Options.AllowHTTP permits it)", err)
		}
	}
	return c, nil
}

// versionsOn returns the versions of served that transport carries.
func versionsOn(transport string, served []string) []string {
	if transport != SSE {
		return slices.Clone(served)
	}
	var out []string
	for _, v := range served {
		// Versions are dates: the HTTP+SSE transport carries the
		// session-based revisions, before 2026-07-28.
		if v < mcp.Version20260728 {
			out = append(out, v)
		}
	}
	return out
}

// Validate checks c as a client will: against the card schema, and for
// secrets or credentials it would publish. The error wraps ErrInvalid
// and lists every problem.
func (c *Card) Validate() error {
	_, err := c.encode()
	return err
}

// encode returns c's JSON text, validated.
func (c *Card) encode() ([]byte, error) {
	data, err := strictjson.Marshal(c)
	if err != nil {
		return nil, fmt.Errorf("servercard: encoding the card: %w", err)
	}
	if err := validateSchema(data); err != nil {
		return nil, err
	}
	if err := invalid(leaks(c)); err != nil {
		return nil, err
	}
	return data, nil
}
