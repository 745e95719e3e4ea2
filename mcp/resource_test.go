package mcp

import (
	"context"
	"errors"
	"fmt"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/gomcp/sdk/internal/strictjson"
)

// textResource is a resource whose handler answers with text and leaves
// the URI and MIME type for the server to fill in.
func textResource(uri, text string) *ServerResource {
	size := int64(len(text))
	return &ServerResource{
		Resource: &Resource{URI: uri, Name: uri[strings.LastIndex(uri, "/")+1:], MIMEType: "text/plain", Size: &size},
		Handler: func(ctx context.Context, ss *ServerSession, p *ReadResourceParams) (*ReadResourceResult, error) {
			return &ReadResourceResult{Contents: []*ResourceContents{{Text: text}}}, nil
		},
	}
}

// userTemplate serves users://{id}/profile{?fields}: the user "ghost" does
// not exist, the user "broken" fails.
func userTemplate() *ServerResourceTemplate {
	return &ServerResourceTemplate{
		Template: &ResourceTemplate{URITemplate: "users://{id}/profile{?fields}", Name: "profile", MIMEType: "application/json"},
		Handler: func(ctx context.Context, ss *ServerSession, p *ReadResourceParams) (*ReadResourceResult, error) {
			vals := ResourceTemplateValues(ctx)
			switch id := vals.Get("id"); id {
			case "ghost":
				return nil, fmt.Errorf("no user %q: %w", id, ErrResourceNotFound)
			case "broken":
				return nil, errors.New("database down")
			default:
				text := fmt.Sprintf("id=%s fields=%q", id, vals["fields"])
				return &ReadResourceResult{Contents: []*ResourceContents{NewTextResourceContents("", "", text)}}, nil
			}
		},
		Completers: map[string]Completer{
			"id": func(ctx context.Context, value string, resolved map[string]string) ([]string, error) {
				var out []string
				for _, id := range []string{"alice", "albert", "bob"} {
					if strings.HasPrefix(id, value) {
						out = append(out, id)
					}
				}
				return out, nil
			},
		},
	}
}

func resourceServer(opts *ServerOptions) *Server {
	s := NewServer("resources", "v1", opts)
	priority := 0.5
	logo := &ServerResource{
		Resource: &Resource{
			URI: "test://logo.png", Name: "logo", Title: "Logo", Description: "the logo",
			MIMEType:    "image/png",
			Annotations: &Annotations{Audience: []Role{"user"}, Priority: &priority, LastModified: "2025-01-12T15:00:58Z"},
			Icons:       []Icon{{Src: "https://example.com/logo.png", MIMEType: "image/png", Sizes: []string{"48x48"}}},
		},
		Handler: func(ctx context.Context, ss *ServerSession, p *ReadResourceParams) (*ReadResourceResult, error) {
			return &ReadResourceResult{Contents: []*ResourceContents{NewBlobResourceContents(p.URI, "", []byte{0x89, 'P', 'N', 'G', 0})}}, nil
		},
	}
	s.AddResources(textResource("test://docs/a.txt", "alpha"), textResource("test://docs/b.txt", "beta"), logo)
	s.AddResourceTemplates(userTemplate())
	return s
}

func TestResourcesInBothEras(t *testing.T) {
	eras(t, func(t *testing.T, version string) {
		ctx := context.Background()
		cs, _ := connect(t, resourceServer(&ServerOptions{PageSize: 2}), &ClientOptions{ProtocolVersion: version})

		caps := cs.ServerCapabilities().Resources
		if caps == nil || !caps.ListChanged || caps.Subscribe {
			t.Fatalf("resources capability = %+v, want listChanged and no subscribe", caps)
		}

		// Listing walks every page, in URI order.
		var uris []string
		for r, err := range cs.Resources(ctx, nil) {
			if err != nil {
				t.Fatal(err)
			}
			uris = append(uris, r.URI)
		}
		if want := []string{"test://docs/a.txt", "test://docs/b.txt", "test://logo.png"}; !reflect.DeepEqual(uris, want) {
			t.Errorf("Resources = %q, want %q", uris, want)
		}
		first, err := cs.ListResources(ctx, nil)
		if err != nil {
			t.Fatal(err)
		}
		if len(first.Resources) != 2 || first.NextCursor == "" {
			t.Errorf("first page: %d resources, cursor %q; want 2 and a cursor", len(first.Resources), first.NextCursor)
		}
		if modern := isModernVersion(version); modern != (first.TTLMs != nil && first.CacheScope != "") {
			t.Errorf("cache hints: ttlMs %v, cacheScope %q in %s", first.TTLMs, first.CacheScope, version)
		}
		var templates []string
		for rt, err := range cs.ResourceTemplates(ctx, nil) {
			if err != nil {
				t.Fatal(err)
			}
			templates = append(templates, rt.URITemplate)
		}
		if want := []string{"users://{id}/profile{?fields}"}; !reflect.DeepEqual(templates, want) {
			t.Errorf("ResourceTemplates = %q, want %q", templates, want)
		}

		checkResourceReads(t, cs, version)
	})
}

// checkResourceReads reads a text resource, a blob resource and a
// template through cs.
func checkResourceReads(t *testing.T, cs *ClientSession, version string) {
	t.Helper()
	ctx := context.Background()
	// Text contents get the resource's URI and MIME type filled in.
	res, err := cs.ReadResource(ctx, &ReadResourceParams{URI: "test://docs/a.txt"})
	if err != nil {
		t.Fatal(err)
	}
	want := []*ResourceContents{{URI: "test://docs/a.txt", MIMEType: "text/plain", Text: "alpha"}}
	if !reflect.DeepEqual(res.Contents, want) {
		t.Errorf("read a.txt = %+v, want %+v", res.Contents[0], want[0])
	}
	if modern := isModernVersion(version); modern != (res.TTLMs != nil && res.CacheScope != "") {
		t.Errorf("read cache hints: ttlMs %v, cacheScope %q in %s", res.TTLMs, res.CacheScope, version)
	}
	// Blob contents travel as base64 and come back as bytes.
	res, err = cs.ReadResource(ctx, &ReadResourceParams{URI: "test://logo.png"})
	if err != nil {
		t.Fatal(err)
	}
	want = []*ResourceContents{{URI: "test://logo.png", MIMEType: "image/png", Blob: []byte{0x89, 'P', 'N', 'G', 0}}}
	if !reflect.DeepEqual(res.Contents, want) {
		t.Errorf("read logo = %+v, want %+v", res.Contents[0], want[0])
	}
	// A template passes its variables to the handler.
	res, err = cs.ReadResource(ctx, &ReadResourceParams{URI: "users://alice/profile?fields=name,email"})
	if err != nil {
		t.Fatal(err)
	}
	want = []*ResourceContents{{URI: "users://alice/profile?fields=name,email", MIMEType: "application/json", Text: `id=alice fields=["name" "email"]`}}
	if !reflect.DeepEqual(res.Contents, want) {
		t.Errorf("read template = %+v, want %+v", res.Contents[0], want[0])
	}
}

func TestResourceMetadataSurvivesListing(t *testing.T) {
	eras(t, func(t *testing.T, version string) {
		cs, _ := connect(t, resourceServer(nil), &ClientOptions{ProtocolVersion: version})
		res, err := cs.ListResources(context.Background(), nil)
		if err != nil {
			t.Fatal(err)
		}
		var logo *Resource
		for _, r := range res.Resources {
			if r.URI == "test://logo.png" {
				logo = r
			}
		}
		if logo == nil {
			t.Fatal("logo not listed")
		}
		want := resourceServer(nil)
		orig, _ := want.resources.get("test://logo.png")
		if !reflect.DeepEqual(logo, orig.Resource) {
			t.Errorf("listed %+v, want %+v", logo, orig.Resource)
		}
		a, _ := want.resources.get("test://docs/a.txt")
		for _, r := range res.Resources {
			if r.URI == a.Resource.URI && (r.Size == nil || *r.Size != 5) {
				t.Errorf("size of a.txt = %v, want 5", r.Size)
			}
		}
	})
}

func TestReadResourceErrors(t *testing.T) {
	eras(t, func(t *testing.T, version string) {
		ctx := context.Background()
		cs, _ := connect(t, resourceServer(nil), &ClientOptions{ProtocolVersion: version})
		notFoundCode := CodeResourceNotFound
		if isModernVersion(version) {
			notFoundCode = CodeInvalidParams
		}
		tests := []struct {
			uri      string
			code     ErrorCode
			notFound bool
		}{
			{"test://missing", notFoundCode, true},
			{"users://ghost/profile", notFoundCode, true}, // the handler's ErrResourceNotFound
			{"users:///profile", notFoundCode, true},      // {id} matches at least one character
			{"users://broken/profile", CodeInternalError, false},
		}
		for _, tt := range tests {
			_, err := cs.ReadResource(ctx, &ReadResourceParams{URI: tt.uri})
			var werr *JSONRPCError
			if !errors.As(err, &werr) {
				t.Errorf("read %s: error %v, want a JSON-RPC error", tt.uri, err)
				continue
			}
			if werr.Code != tt.code {
				t.Errorf("read %s: code %d, want %d", tt.uri, werr.Code, tt.code)
			}
			if got := errors.Is(err, ErrResourceNotFound); got != tt.notFound {
				t.Errorf("read %s: errors.Is(err, ErrResourceNotFound) = %v, want %v", tt.uri, got, tt.notFound)
			}
			if tt.notFound && string(werr.Data) != fmt.Sprintf(`{"uri":%q}`, tt.uri) {
				t.Errorf("read %s: data %s, want the uri", tt.uri, werr.Data)
			}
		}
		_, err := cs.ListResources(ctx, &ListResourcesParams{Cursor: "not a cursor"})
		var werr *JSONRPCError
		if !errors.As(err, &werr) || werr.Code != CodeInvalidParams {
			t.Errorf("bad cursor: %v, want -32602", err)
		}
		_, err = cs.ListResourceTemplates(ctx, &ListResourceTemplatesParams{Cursor: "!!"})
		if !errors.As(err, &werr) || werr.Code != CodeInvalidParams {
			t.Errorf("bad templates cursor: %v, want -32602", err)
		}
	})
}

func TestReadResourcePrefersExactResourceOverTemplate(t *testing.T) {
	s := NewServer("s", "v1", nil)
	s.AddResourceTemplates(&ServerResourceTemplate{
		Template: &ResourceTemplate{URITemplate: "docs://{name}", Name: "doc"},
		Handler: func(ctx context.Context, ss *ServerSession, p *ReadResourceParams) (*ReadResourceResult, error) {
			return &ReadResourceResult{Contents: []*ResourceContents{{Text: "template " + ResourceTemplateValues(ctx).Get("name")}}}, nil
		},
	})
	s.AddResources(textResource("docs://readme", "exact"))
	cs, _ := connect(t, s, nil)
	for uri, want := range map[string]string{"docs://readme": "exact", "docs://other": "template other"} {
		res, err := cs.ReadResource(context.Background(), &ReadResourceParams{URI: uri})
		if err != nil {
			t.Fatal(err)
		}
		if got := res.Contents[0].Text; got != want {
			t.Errorf("read %s = %q, want %q", uri, got, want)
		}
	}
}

func TestResourceHandlerResults(t *testing.T) {
	tests := []struct {
		name    string
		result  *ReadResourceResult
		wantErr bool
		want    string // JSON of contents
	}{
		{"nil result", nil, true, ""},
		{"nil contents", &ReadResourceResult{}, false, "[]"},
		{"nil item", &ReadResourceResult{Contents: []*ResourceContents{nil}}, true, ""},
		{"own URI and MIME type kept", &ReadResourceResult{Contents: []*ResourceContents{NewTextResourceContents("x://other", "text/markdown", "#")}}, false,
			`[{"uri":"x://other","mimeType":"text/markdown","text":"#"}]`},
		{"filled", &ReadResourceResult{Contents: []*ResourceContents{{Text: "t"}, {Blob: []byte("b")}}}, false,
			`[{"uri":"x://r","mimeType":"text/csv","text":"t"},{"uri":"x://r","mimeType":"text/csv","blob":"Yg=="}]`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := NewServer("s", "v1", nil)
			s.AddResources(&ServerResource{
				Resource: &Resource{URI: "x://r", Name: "r", MIMEType: "text/csv"},
				Handler: func(context.Context, *ServerSession, *ReadResourceParams) (*ReadResourceResult, error) {
					return tt.result, nil
				},
			})
			cs, _ := connect(t, s, nil)
			res, err := cs.ReadResource(context.Background(), &ReadResourceParams{URI: "x://r"})
			if tt.wantErr {
				var werr *JSONRPCError
				if !errors.As(err, &werr) || werr.Code != CodeInternalError {
					t.Fatalf("err = %v, want an internal error", err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if got := resourceJSON(t, res.Contents); got != tt.want {
				t.Errorf("contents = %s, want %s", got, tt.want)
			}
		})
	}
}

func TestResourceCapabilities(t *testing.T) {
	noop := func(context.Context, *ServerSession, *SubscribeParams) error { return nil }
	noopU := func(context.Context, *ServerSession, *UnsubscribeParams) error { return nil }
	base := &ServerCapabilities{Resources: &ResourceCapabilities{}}
	tests := []struct {
		name      string
		opts      *ServerOptions
		resources bool
		want      *ResourceCapabilities
	}{
		{"nothing", nil, false, nil},
		{"resources", nil, true, &ResourceCapabilities{ListChanged: true}},
		{"subscribe only", &ServerOptions{SubscribeHandler: noop}, true, &ResourceCapabilities{ListChanged: true}},
		{"unsubscribe only", &ServerOptions{UnsubscribeHandler: noopU}, true, &ResourceCapabilities{ListChanged: true}},
		{"both handlers", &ServerOptions{SubscribeHandler: noop, UnsubscribeHandler: noopU}, false, &ResourceCapabilities{ListChanged: true, Subscribe: true}},
		{"base kept", &ServerOptions{Capabilities: base, SubscribeHandler: noop, UnsubscribeHandler: noopU}, false, &ResourceCapabilities{Subscribe: true}},
	}
	for _, tt := range tests {
		s := NewServer("s", "v1", tt.opts)
		if tt.resources {
			s.AddResources(textResource("x://a", "a"))
		}
		if got := s.capabilities().Resources; !reflect.DeepEqual(got, tt.want) {
			t.Errorf("%s: resources capability = %+v, want %+v", tt.name, got, tt.want)
		}
	}
	if base.Resources.Subscribe {
		t.Error("the caller's ServerOptions.Capabilities were modified")
	}
}

func TestAddResourcesPanics(t *testing.T) {
	h := func(context.Context, *ServerSession, *ReadResourceParams) (*ReadResourceResult, error) {
		return nil, nil
	}
	tests := map[string]func(s *Server){
		"nil resource": func(s *Server) { s.AddResources(nil) },
		"nil Resource": func(s *Server) { s.AddResources(&ServerResource{Handler: h}) },
		"nil handler":  func(s *Server) { s.AddResources(&ServerResource{Resource: &Resource{URI: "x://a"}}) },
		"relative URI": func(s *Server) { s.AddResources(&ServerResource{Resource: &Resource{URI: "a/b"}, Handler: h}) },
		"nil template": func(s *Server) { s.AddResourceTemplates(nil) },
		"nil handler tmpl": func(s *Server) {
			s.AddResourceTemplates(&ServerResourceTemplate{Template: &ResourceTemplate{URITemplate: "x://{a}"}})
		},
		"bad template": func(s *Server) {
			s.AddResourceTemplates(&ServerResourceTemplate{Template: &ResourceTemplate{URITemplate: "x://{a"}, Handler: h})
		},
	}
	for name, f := range tests {
		func() {
			defer func() {
				if recover() == nil {
					t.Errorf("%s: no panic", name)
				}
			}()
			f(NewServer("s", "v1", nil))
		}()
	}
}

func TestResourceListChangedNotifications(t *testing.T) {
	changed := make(chan struct{}, 10)
	s := NewServer("s", "v1", nil)
	s.AddResources(textResource("x://a", "a"))
	connect(t, s, &ClientOptions{
		ProtocolVersion: Version20251125,
		ResourceListChangedHandler: func(context.Context, *ClientSession, *ResourceListChangedParams) {
			changed <- struct{}{}
		},
	})
	wait := func(what string) {
		t.Helper()
		select {
		case <-changed:
		case <-time.After(5 * time.Second):
			t.Fatalf("no notifications/resources/list_changed after %s", what)
		}
	}
	s.AddResources(textResource("x://b", "b"))
	wait("AddResources")
	s.RemoveResources("x://b")
	wait("RemoveResources")
	s.AddResourceTemplates(userTemplate())
	wait("AddResourceTemplates")
	s.RemoveResourceTemplates("users://{id}/profile{?fields}")
	wait("RemoveResourceTemplates")
	// Removing nothing changes nothing: no notification.
	s.RemoveResources("x://none")
	s.RemoveResourceTemplates("x://{none}")
	select {
	case <-changed:
		t.Error("notification after removing nothing")
	case <-time.After(50 * time.Millisecond):
	}
}

func TestTemplateCompletion(t *testing.T) {
	eras(t, func(t *testing.T, version string) {
		cs, _ := connect(t, resourceServer(nil), &ClientOptions{ProtocolVersion: version})
		if version != Version20241105 && cs.ServerCapabilities().Completions == nil {
			t.Fatal("completions capability not declared for a template with completers")
		}
		res, err := cs.Complete(context.Background(), &CompleteParams{
			Ref:      &CompleteReference{Type: ReferenceTypeResource, URI: "users://{id}/profile{?fields}"},
			Argument: CompleteArgument{Name: "id", Value: "al"},
		})
		if err != nil {
			t.Fatal(err)
		}
		if want := []string{"alice", "albert"}; !reflect.DeepEqual(res.Completion.Values, want) {
			t.Errorf("completion values = %q, want %q", res.Completion.Values, want)
		}
		// A variable without a completer completes to nothing.
		res, err = cs.Complete(context.Background(), &CompleteParams{
			Ref:      &CompleteReference{Type: ReferenceTypeResource, URI: "users://{id}/profile{?fields}"},
			Argument: CompleteArgument{Name: "fields", Value: ""},
		})
		if err != nil {
			t.Fatal(err)
		}
		if len(res.Completion.Values) != 0 {
			t.Errorf("completion of fields = %q, want none", res.Completion.Values)
		}
	})
}

func TestClientRefusesResourcesTheServerLacks(t *testing.T) {
	eras(t, func(t *testing.T, version string) {
		ctx := context.Background()
		s := NewServer("s", "v1", nil)
		s.AddTools(echoTool())
		cs, _ := connect(t, s, &ClientOptions{ProtocolVersion: version})
		checks := map[string]error{}
		_, checks["ListResources"] = cs.ListResources(ctx, nil)
		_, checks["ListResourceTemplates"] = cs.ListResourceTemplates(ctx, nil)
		_, checks["ReadResource"] = cs.ReadResource(ctx, &ReadResourceParams{URI: "x://a"})
		checks["Subscribe"] = cs.Subscribe(ctx, &SubscribeParams{URI: "x://a"})
		checks["Unsubscribe"] = cs.Unsubscribe(ctx, &UnsubscribeParams{URI: "x://a"})
		for name, err := range checks {
			if !errors.Is(err, ErrNotSupported) {
				t.Errorf("%s: %v, want ErrNotSupported", name, err)
			}
		}
	})
}

func TestResourceTemplateValuesOutsideTemplate(t *testing.T) {
	if v := ResourceTemplateValues(context.Background()); v != nil {
		t.Errorf("ResourceTemplateValues = %v, want nil", v)
	}
}

// resourceJSON encodes v as the SDK does on the wire.
func resourceJSON(t testing.TB, v any) string {
	t.Helper()
	b, err := strictjson.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}
