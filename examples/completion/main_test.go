package main

import (
	"context"
	"slices"
	"testing"

	"github.com/gomcp/sdk/mcp"
)

func TestCompletion(t *testing.T) {
	ctx := context.Background()
	ct, st := mcp.NewInMemoryTransports()
	if _, err := newServer().Connect(ctx, st); err != nil {
		t.Fatal(err)
	}
	cs, err := mcp.NewClient("test", "v1", nil).Connect(ctx, ct)
	if err != nil {
		t.Fatal(err)
	}
	defer cs.Close()
	tests := []struct {
		name string
		ref  *mcp.CompleteReference
		arg  mcp.CompleteArgument
		ctx  *mcp.CompleteContext
		want []string
	}{
		{"prompt argument", &mcp.CompleteReference{Type: mcp.ReferenceTypePrompt, Name: "plan_trip"},
			mcp.CompleteArgument{Name: "city", Value: "b"}, nil, []string{"Bilbao", "Braga"}},
		{"with context", &mcp.CompleteReference{Type: mcp.ReferenceTypePrompt, Name: "plan_trip"},
			mcp.CompleteArgument{Name: "city", Value: "b"}, &mcp.CompleteContext{Arguments: map[string]string{"country": "pt"}}, []string{"Braga"}},
		{"template variable", &mcp.CompleteReference{Type: mcp.ReferenceTypeResource, URI: "guide://{country}/{city}"},
			mcp.CompleteArgument{Name: "country", Value: "e"}, nil, []string{"es"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res, err := cs.Complete(ctx, &mcp.CompleteParams{Ref: tt.ref, Argument: tt.arg, Context: tt.ctx})
			if err != nil {
				t.Fatal(err)
			}
			got := slices.Sorted(slices.Values(res.Completion.Values))
			if !slices.Equal(got, tt.want) {
				t.Errorf("values = %v, want %v", got, tt.want)
			}
		})
	}
}
