package bench

import (
	"errors"
	"testing"
)

// TestSchemaLibs checks that every library compiles ToolSchema, accepts
// ToolArgs and rejects invalid arguments, from decoded values and from JSON
// text, so the benchmarks measure real validation.
func TestSchemaLibs(t *testing.T) {
	for _, lib := range SchemaLibs() {
		t.Run(lib.Name(), func(t *testing.T) {
			v, err := lib.Compile(ToolSchema)
			if err != nil {
				t.Fatalf("Compile: %v", err)
			}
			tests := []struct {
				name     string
				instance []byte
				valid    bool
			}{
				{"typical arguments", ToolArgs, true},
				{"limit out of range", BadToolArgs, false},
				{"missing required query", []byte(`{"limit":5}`), false},
				{"unknown property", []byte(`{"query":"q","extra":1}`), false},
				{"enum mismatch", []byte(`{"query":"q","mode":"slow"}`), false},
				{"nested unknown property", []byte(`{"query":"q","options":{"x":true}}`), false},
			}
			for _, tt := range tests {
				inst, err := v.Decode(tt.instance)
				if err != nil {
					t.Fatalf("%s: Decode: %v", tt.name, err)
				}
				err = v.Validate(inst)
				if got := err == nil; got != tt.valid {
					t.Errorf("%s: Validate: valid = %v, want %v (err %v)", tt.name, got, tt.valid, err)
				}
				err = v.ValidateJSON(tt.instance)
				if got := err == nil; got != tt.valid {
					t.Errorf("%s: ValidateJSON: valid = %v, want %v (err %v)", tt.name, got, tt.valid, err)
				}
			}
		})
	}
}

// BenchmarkSchemaValidate validates the typical tool arguments: "value"
// validates an instance already decoded into the library's native form;
// "json" validates the raw arguments as a server receives them, directly if
// the library can (ours), else decoding them first.
func BenchmarkSchemaValidate(b *testing.B) {
	for _, mode := range []string{"value", "json"} {
		for _, lib := range SchemaLibs() {
			b.Run(mode+"/"+lib.Name(), func(b *testing.B) {
				v, err := lib.Compile(ToolSchema)
				if err != nil {
					b.Fatal(err)
				}
				inst, err := v.Decode(ToolArgs)
				if err != nil {
					b.Fatal(err)
				}
				validate := func() error { return v.Validate(inst) }
				if mode == "json" {
					validate = func() error { return v.ValidateJSON(ToolArgs) }
				}
				b.ReportAllocs()
				for b.Loop() {
					if err := validate(); err != nil {
						b.Fatal(err)
					}
				}
			})
		}
	}
}

// BenchmarkSchemaCompile parses and compiles ToolSchema.
func BenchmarkSchemaCompile(b *testing.B) {
	for _, lib := range SchemaLibs() {
		b.Run(lib.Name(), func(b *testing.B) {
			if _, err := lib.Compile(ToolSchema); errors.Is(err, ErrPending) {
				b.Skip(err)
			} else if err != nil {
				b.Fatal(err)
			}
			b.ReportAllocs()
			for b.Loop() {
				if _, err := lib.Compile(ToolSchema); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
