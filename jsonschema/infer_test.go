package jsonschema_test

import (
	"encoding/json"
	"fmt"
	"math/big"
	"net/netip"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/gomcp/sdk/jsonschema"
)

type Inner struct {
	A string `json:"a"`
	B int    `json:"b,omitempty"`
}

type Embeds struct {
	Inner
	*PtrEmbedded
	C bool `json:"c"`
}

type PtrEmbedded struct {
	P string `json:"p"`
}

type Node struct {
	Value    int     `json:"value"`
	Children []*Node `json:"children,omitempty"`
}

type Tree map[string]Tree

type WithList struct {
	Items []ListItem `json:"items"`
}

type ListItem struct {
	Name string    `json:"name"`
	Next *ListItem `json:"next,omitempty"`
}

type Color string

func (Color) JSONSchema() *jsonschema.Schema {
	return &jsonschema.Schema{Type: "string", Enum: []any{"red", "green"}}
}

type Tagged struct {
	Name  string   `json:"name" jsonschema:"the name, in full"`
	State string   `json:"state,omitempty" jsonschema:"enum=open|closed,default=open,description=state of it"`
	Limit int      `json:"limit" jsonschema:"minimum=1,maximum=100,default=30"`
	Code  string   `json:"code" jsonschema:"pattern=^[A-Z]{3}$,minLength=3,maxLength=3,title=Code"`
	When  string   `json:"when" jsonschema:"format=date-time,deprecated"`
	Tags  []string `json:"tags" jsonschema:"uniqueItems,maxItems=3"`
	Ratio float64  `json:"ratio" jsonschema:"exclusiveMinimum=0,multipleOf=0.5"`
}

type Conflicts struct {
	X1
	X2
	Shallow string `json:"shallow"`
}

type X1 struct {
	Dup     string // conflicts with X2.Dup at the same depth: both dropped
	T       string `json:"Title"` // tagged: wins over X2.Title
	Shallow string `json:"shallow"`
}

type X2 struct {
	Dup   string
	Title string
	Skip  string `json:"-"`
}

type Misc struct {
	Skip string `json:"-"`
	//lint:ignore SA5008 "-," names the member "-" in encoding/json; the test shows For does the same
	Dash string `json:"-,"`
	//lint:ignore U1000 an unexported field, which For must leave out
	unexp    string
	Untagged string
	Quoted   int64            `json:"quoted,string"`
	QuotedP  *bool            `json:"qp,string"`
	Raw      json.RawMessage  `json:"raw"`
	Any      any              `json:"any"`
	Bytes    []byte           `json:"bytes"`
	Arr      [2]int8          `json:"arr"`
	IntMap   map[int]string   `json:"intMap"`
	UintMap  map[uint8]bool   `json:"uintMap,omitempty"`
	TextMap  map[netip.Addr]X `json:"textMap,omitempty"`
	Time     time.Time        `json:"time"`
	Dur      time.Duration    `json:"dur"`
	Big      *big.Int         `json:"big,omitempty"`
	Num      json.Number      `json:"num"`
	Addr     netip.Addr       `json:"addr"`
	Color    Color            `json:"color"`
	Zero     *int             `json:"zero,omitzero"`
}

type X struct{}

func TestForSchemas(t *testing.T) {
	tests := []struct {
		name string
		got  func(*jsonschema.ForOptions) (*jsonschema.Schema, error)
		want string
	}{
		{"bool", jsonschema.For[bool], `{"type":"boolean"}`},
		{"int8", jsonschema.For[int8], `{"type":"integer","minimum":-128,"maximum":127}`},
		{"uint16", jsonschema.For[uint16], `{"type":"integer","minimum":0,"maximum":65535}`},
		{"uint", jsonschema.For[uint], `{"type":"integer","minimum":0}`},
		{"int", jsonschema.For[int], `{"type":"integer"}`},
		{"float32", jsonschema.For[float32], `{"type":"number"}`},
		{"*string", jsonschema.For[*string], `{"type":"string"}`},
		{"**int", jsonschema.For[**int], `{"type":"integer"}`},
		{"[]string", jsonschema.For[[]string], `{"type":"array","items":{"type":"string"}}`},
		{"[3]bool", jsonschema.For[[3]bool], `{"type":"array","minItems":3,"maxItems":3,"items":{"type":"boolean"}}`},
		{"[]byte", jsonschema.For[[]byte], `{"type":"string","contentEncoding":"base64"}`},
		{"map[string]int", jsonschema.For[map[string]int], `{"type":"object","additionalProperties":{"type":"integer"}}`},
		{"map[int]bool", jsonschema.For[map[int]bool], `{"type":"object","additionalProperties":{"type":"boolean"},"propertyNames":{"pattern":"^-?(0|[1-9][0-9]*)$"}}`},
		{"any", jsonschema.For[any], `{}`},
		{"time.Time", jsonschema.For[time.Time], `{"type":"string","format":"date-time"}`},
		{"json.RawMessage", jsonschema.For[json.RawMessage], `{}`},
		{"Color", jsonschema.For[Color], `{"type":"string","enum":["red","green"]}`},
		{"Inner", jsonschema.For[Inner],
			`{"type":"object","required":["a"],"properties":{"a":{"type":"string"},"b":{"type":"integer"}},"additionalProperties":false}`},
		{"Embeds", jsonschema.For[Embeds],
			`{"type":"object","required":["a","c"],"properties":{"a":{"type":"string"},"b":{"type":"integer"},"p":{"type":"string"},"c":{"type":"boolean"}},"additionalProperties":false}`},
		{"Node", jsonschema.For[Node],
			`{"type":"object","required":["value"],"properties":{"value":{"type":"integer"},"children":{"type":"array","items":{"$ref":"#"}}},"additionalProperties":false}`},
		{"Tree", jsonschema.For[Tree], `{"type":"object","additionalProperties":{"$ref":"#"}}`},
		{"WithList", jsonschema.For[WithList],
			`{"type":"object","required":["items"],"properties":{"items":{"type":"array","items":{"$ref":"#/$defs/ListItem"}}},"additionalProperties":false,` +
				`"$defs":{"ListItem":{"type":"object","required":["name"],"properties":{"name":{"type":"string"},"next":{"$ref":"#/$defs/ListItem"}},"additionalProperties":false}}}`},
		{"Conflicts", jsonschema.For[Conflicts],
			`{"type":"object","required":["Title","shallow"],"properties":{"Title":{"type":"string"},"shallow":{"type":"string"}},"additionalProperties":false}`},
		{"Tagged", jsonschema.For[Tagged], `{"type":"object","required":["name","limit","code","when","tags","ratio"],"properties":{` +
			`"name":{"description":"the name, in full","type":"string"},` +
			`"state":{"description":"state of it","default":"open","type":"string","enum":["open","closed"]},` +
			`"limit":{"default":30,"type":"integer","minimum":1,"maximum":100},` +
			`"code":{"title":"Code","type":"string","minLength":3,"maxLength":3,"pattern":"^[A-Z]{3}$"},` +
			`"when":{"deprecated":true,"type":"string","format":"date-time"},` +
			`"tags":{"type":"array","maxItems":3,"uniqueItems":true,"items":{"type":"string"}},` +
			`"ratio":{"type":"number","multipleOf":0.5,"exclusiveMinimum":0}},"additionalProperties":false}`},
	}
	for _, tc := range tests {
		s, err := tc.got(nil)
		if err != nil {
			t.Errorf("%s: %v", tc.name, err)
			continue
		}
		out, err := json.Marshal(s)
		if err != nil {
			t.Fatal(err)
		}
		if string(out) != tc.want {
			t.Errorf("%s:\n got %s\nwant %s", tc.name, out, tc.want)
		}
		if _, err := s.Resolve(nil); err != nil {
			t.Errorf("%s: Resolve: %v", tc.name, err)
		}
	}
}

func TestForMisc(t *testing.T) {
	s, err := jsonschema.For[Misc](nil)
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]string{
		"-":        `{"type":"string"}`,
		"Untagged": `{"type":"string"}`,
		"quoted":   `{"type":"string"}`,
		"qp":       `{"type":"string"}`,
		"raw":      `{}`,
		"any":      `{}`,
		"bytes":    `{"type":"string","contentEncoding":"base64"}`,
		"arr":      `{"type":"array","minItems":2,"maxItems":2,"items":{"type":"integer","minimum":-128,"maximum":127}}`,
		"intMap":   `{"type":"object","additionalProperties":{"type":"string"},"propertyNames":{"pattern":"^-?(0|[1-9][0-9]*)$"}}`,
		"uintMap":  `{"type":"object","additionalProperties":{"type":"boolean"},"propertyNames":{"pattern":"^(0|[1-9][0-9]*)$"}}`,
		"textMap":  `{"type":"object","additionalProperties":{"type":"object","additionalProperties":false}}`,
		"time":     `{"type":"string","format":"date-time"}`,
		"dur":      `{"type":"integer"}`,
		"big":      `{"type":"integer"}`,
		"num":      `{"type":"number"}`,
		"addr":     `{"type":"string"}`,
		"color":    `{"type":"string","enum":["red","green"]}`,
		"zero":     `{"type":"integer"}`,
	}
	var names []string
	for name, p := range s.Props() {
		names = append(names, name)
		out, _ := json.Marshal(p)
		if want[name] != string(out) {
			t.Errorf("%s: got %s, want %s", name, out, want[name])
		}
	}
	if got := strings.Join(names, ","); got != "-,Untagged,quoted,qp,raw,any,bytes,arr,intMap,uintMap,textMap,time,dur,big,num,addr,color,zero" {
		t.Errorf("properties %s", got)
	}
}

type badMarshaler struct{}

func (badMarshaler) MarshalJSON() ([]byte, error) { return []byte(`1`), nil }

type withChan struct {
	C  chan int `json:"c"`
	OK string   `json:"ok"`
}

func TestForErrors(t *testing.T) {
	for name, f := range map[string]func() (*jsonschema.Schema, error){
		"chan":           func() (*jsonschema.Schema, error) { return jsonschema.For[chan int](nil) },
		"func":           func() (*jsonschema.Schema, error) { return jsonschema.For[func()](nil) },
		"complex":        func() (*jsonschema.Schema, error) { return jsonschema.For[complex128](nil) },
		"json.Marshaler": func() (*jsonschema.Schema, error) { return jsonschema.For[badMarshaler](nil) },
		"map[bool]int":   func() (*jsonschema.Schema, error) { return jsonschema.For[map[bool]int](nil) },
		"struct chan":    func() (*jsonschema.Schema, error) { return jsonschema.For[withChan](nil) },
		"bad tag": func() (*jsonschema.Schema, error) {
			return jsonschema.For[struct {
				N int `json:"n" jsonschema:"minimum=abc"`
			}](nil)
		},
	} {
		if _, err := f(); err == nil {
			t.Errorf("%s: no error", name)
		}
	}
	s, err := jsonschema.For[withChan](&jsonschema.ForOptions{IgnoreInvalidTypes: true})
	if err != nil || len(s.Properties) != 1 {
		t.Errorf("IgnoreInvalidTypes: %v, %v", s, err)
	}
}

func TestForOptions(t *testing.T) {
	s, err := jsonschema.For[Inner](&jsonschema.ForOptions{
		AllowAdditionalProperties: true,
		TypeSchemas:               map[reflect.Type]*jsonschema.Schema{reflect.TypeFor[int](): {Type: "integer", Minimum: jsonschema.Ptr(0.0)}},
	})
	if err != nil {
		t.Fatal(err)
	}
	out, _ := json.Marshal(s)
	want := `{"type":"object","required":["a"],"properties":{"a":{"type":"string"},"b":{"type":"integer","minimum":0}}}`
	if string(out) != want {
		t.Errorf("got  %s\nwant %s", out, want)
	}
}

// For every supported type, json.Marshal of a value validates against the
// schema For infers with nullability, and a value of another shape does
// not.
func TestForRoundTrip(t *testing.T) {
	n := 5
	tr := true
	tests := []struct {
		name  string
		typ   reflect.Type
		value any
	}{
		{"mostly zero Misc", reflect.TypeFor[Misc](), Misc{Color: "red"}},
		{"Conflicts", reflect.TypeFor[Conflicts](), Conflicts{X1{"a", "b", "c"}, X2{"d", "e", "f"}, "g"}},
		{"full Misc", reflect.TypeFor[Misc](), Misc{Dash: "d", Quoted: 42, QuotedP: &tr, Raw: json.RawMessage(`[1,{"a":null}]`),
			Any: map[string]any{"x": 1}, Bytes: []byte("hi"), Arr: [2]int8{-1, 1}, IntMap: map[int]string{-3: "a", 10: "b"},
			UintMap: map[uint8]bool{7: true}, TextMap: map[netip.Addr]X{netip.MustParseAddr("::1"): {}},
			Time: time.Date(2025, 6, 18, 12, 0, 0, 0, time.UTC), Dur: time.Second, Big: big.NewInt(1e18),
			Num: "1.5e3", Addr: netip.MustParseAddr("10.0.0.1"), Color: "red", Zero: &n}},
		{"Embeds without pointer", reflect.TypeFor[Embeds](), Embeds{Inner: Inner{A: "x"}}},
		{"Embeds with pointer", reflect.TypeFor[Embeds](), Embeds{PtrEmbedded: &PtrEmbedded{P: "p"}}},
		{"Node", reflect.TypeFor[Node](), Node{Value: 1, Children: []*Node{{Value: 2}, nil, {Value: 3, Children: []*Node{{}}}}}},
		{"Tree", reflect.TypeFor[Tree](), Tree{"a": Tree{"b": nil, "c": Tree{}}}},
		{"nil Tree", reflect.TypeFor[Tree](), Tree(nil)},
		{"WithList", reflect.TypeFor[WithList](), WithList{Items: []ListItem{{Name: "a", Next: &ListItem{Name: "b"}}}}},
		{"SearchIssuesArgs", reflect.TypeFor[SearchIssuesArgs](), SearchIssuesArgs{Query: "q", Labels: []string{"x"}}},
		{"Tagged", reflect.TypeFor[Tagged](), Tagged{Limit: 5, Code: "ABC", When: "2025-01-01T00:00:00Z", Tags: []string{"a"}, Ratio: 1.5}},
		{"[]*int", reflect.TypeFor[[]*int](), []*int{&n, nil}},
		{"map[string][]float64", reflect.TypeFor[map[string][]float64](), map[string][]float64{"a": {1.5}, "b": nil}},
		{"*[2]string", reflect.TypeFor[*[2]string](), (*[2]string)(nil)},
		{"uint64", reflect.TypeFor[uint64](), uint64(1 << 63)},
		{"int8", reflect.TypeFor[int8](), int8(-128)},
		{"float64", reflect.TypeFor[float64](), 0.1},
		{"[]byte", reflect.TypeFor[[]byte](), []byte{0, 255}},
	}
	for _, tc := range tests {
		s, err := jsonschema.ForType(tc.typ, &jsonschema.ForOptions{Nullable: true})
		if err != nil {
			t.Errorf("%s: %v", tc.name, err)
			continue
		}
		rs, err := s.Resolve(&jsonschema.ResolveOptions{AssertFormat: true})
		if err != nil {
			t.Errorf("%s: Resolve: %v", tc.name, err)
			continue
		}
		data, err := json.Marshal(tc.value)
		if err != nil {
			t.Fatal(err)
		}
		if err := rs.ValidateJSON(data); err != nil {
			t.Errorf("%s: %s does not validate against its own schema: %v", tc.name, data, err)
		}
		if err := rs.ValidateJSON([]byte(`"not this"`)); err == nil && tc.typ.Kind() == reflect.Struct {
			t.Errorf("%s: a string validates against a struct's schema", tc.name)
		}
	}
}

func ExampleFor() {
	type Args struct {
		City  string `json:"city" jsonschema:"the city to look up"`
		Units string `json:"units,omitempty" jsonschema:"enum=metric|imperial,default=metric"`
		Days  int    `json:"days,omitempty" jsonschema:"minimum=1,maximum=14"`
	}
	s, err := jsonschema.For[Args](nil)
	if err != nil {
		panic(err)
	}
	out, _ := json.MarshalIndent(s, "", "  ")
	fmt.Println(string(out))
	// Output:
	// {
	//   "type": "object",
	//   "required": [
	//     "city"
	//   ],
	//   "properties": {
	//     "city": {
	//       "description": "the city to look up",
	//       "type": "string"
	//     },
	//     "units": {
	//       "default": "metric",
	//       "type": "string",
	//       "enum": [
	//         "metric",
	//         "imperial"
	//       ]
	//     },
	//     "days": {
	//       "type": "integer",
	//       "minimum": 1,
	//       "maximum": 14
	//     }
	//   },
	//   "additionalProperties": false
	// }
}
