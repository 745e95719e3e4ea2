package npm

import (
	"strings"
	"testing"
)

func TestCommonFirst(t *testing.T) {
	tests := []struct {
		name  string
		sigs  []string
		first string
	}{
		{"event names come after the general listener", []string{`on(event: "message", cb: (m: string) => void): this`, `on(event: string | symbol, listener: (...args: any[]) => void): this`}, "on(event: string | symbol"},
		{"flag values come after the plain options", []string{"verify(token: string, options: VerifyOptions & { complete: true }): Jwt", "verify(token: string, options?: VerifyOptions): Jwt | string"}, "verify(token: string, options?: VerifyOptions)"},
		{"declaration order otherwise", []string{"useState<S>(initialState: S | (() => S)): [S, Dispatch<S>]", "useState<S = undefined>(): [S | undefined, Dispatch<S>]"}, "useState<S>(initialState"},
		{"a literal in the return type is no specialisation", []string{`f(a: string): "x"`, `f(a: "y"): string`}, `f(a: string): "x"`},
		{"a form whose parameters may all be left out first (fastify)", []string{"fastify<S extends Http2>(opts: Http2Options<S>): I", "fastify<S extends Http = Http>(opts?: HttpOptions<S>): I"}, "fastify<S extends Http = Http>(opts?: HttpOptions<S>): I"},
		{"but not a form with no parameters (useState)", []string{"useState<S>(initialState: S): [S]", "useState<S = undefined>(): [S]"}, "useState<S>(initialState: S)"},
		{"nor one inside another type; fewer literals first", []string{`set(key: K, v: V, t: 'EX', n: 'NX'): R`, `set(key: K, v: V, t: 'EX'): R`, `set(key: K, v: V, callback?: Callback<"OK">): R`}, `set(key: K, v: V, callback?: Callback<"OK">): R` + "\n" + `set(key: K, v: V, t: 'EX'): R`},
	}
	for _, tt := range tests {
		if got := commonFirst(tt.sigs); !strings.HasPrefix(got, tt.first) || strings.Count(got, "\n") != len(tt.sigs)-1 {
			t.Errorf("%s: got\n%s", tt.name, got)
		}
	}
	var many []string
	for i := 0; i < 60; i++ {
		many = append(many, `on(event: "e`+strings.Repeat("x", i)+`", cb: () => void): this`)
	}
	many = append(many, "on(event: string, cb: () => void): this")
	if got := commonFirst(many); !strings.HasPrefix(got, "on(event: string,") || strings.Count(got, "\n") > maxOverloadLines {
		t.Errorf("a long list: %d lines, first %q", strings.Count(got, "\n")+1, firstLine(got))
	}
}

func TestOverloadDeprecationNamesTheForm(t *testing.T) {
	src := "export declare function map<T, R>(project: (value: T) => R): Op<T, R>;\n/** @deprecated Use a closure instead of a `thisArg`. */\nexport declare function map<T, R, A>(project: (value: T) => R, thisArg: A): Op<T, R>;\n"
	syms := (&Scanner{Read: func(n string) ([]byte, bool) { return []byte(src), n == "index.d.ts" }}).Scan("index.d.ts")
	if len(syms) != 1 {
		t.Fatalf("symbols %+v", syms)
	}
	want := "The form `function map<T, R, A>(project: (value: T) => R, thisArg: A): Op<T, R>` is deprecated: Use a closure instead of a `thisArg`."
	if syms[0].Doc != want {
		t.Fatalf("doc %q, want %q", syms[0].Doc, want)
	}
}

func FuzzOverloads(f *testing.F) {
	for _, s := range []string{"on(event: \"x\", cb: () => void): this", "f<T extends (a: A) => B>(opts?: O, ...rest: R[]): T", "g(a: { k: true }, b?: null", "h<>(", ")(", "<T>(x?: T,): void"} {
		f.Add(s, "k(a: string): void")
	}
	f.Fuzz(func(t *testing.T, a, b string) {
		got := commonFirst([]string{a, b})
		if len(got) > len(a)+len(b)+1 {
			t.Fatalf("output longer than its input: %q", got)
		}
		_ = allOptional(a)
		_, _ = paramList(b)
	})
}
