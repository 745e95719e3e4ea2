package jsonrpc2

import (
	"errors"
	"strings"
	"testing"
)

func TestDecode(t *testing.T) {
	tests := []struct {
		name    string
		in      string
		want    string // re-encoded message, when decoding succeeds
		wantErr error
		wantID  string // ID carried by the DecodeError
	}{
		{name: "request", in: `{"jsonrpc":"2.0","id":1,"method":"ping"}`, want: `{"jsonrpc":"2.0","id":1,"method":"ping"}`},
		{name: "string id and params", in: `{"jsonrpc":"2.0","id":"a","method":"m","params":{"x":1}}`, want: `{"jsonrpc":"2.0","id":"a","method":"m","params":{"x":1}}`},
		{name: "notification", in: `{"jsonrpc":"2.0","method":"notifications/initialized"}`, want: `{"jsonrpc":"2.0","method":"notifications/initialized"}`},
		{name: "null params treated as absent", in: `{"jsonrpc":"2.0","id":2,"method":"m","params":null}`, want: `{"jsonrpc":"2.0","id":2,"method":"m"}`},
		{name: "result", in: `{"jsonrpc":"2.0","id":7,"result":{}}`, want: `{"jsonrpc":"2.0","id":7,"result":{}}`},
		{name: "error with null id", in: `{"jsonrpc":"2.0","id":null,"error":{"code":-32700,"message":"bad"}}`, want: `{"jsonrpc":"2.0","id":null,"error":{"code":-32700,"message":"bad"}}`},
		{name: "error with data", in: `{"jsonrpc":"2.0","id":1,"error":{"code":-32602,"message":"m","data":{"uri":"x"}}}`, want: `{"jsonrpc":"2.0","id":1,"error":{"code":-32602,"message":"m","data":{"uri":"x"}}}`},
		{name: "not json", in: `{"jsonrpc":`, wantErr: ErrParse},
		{name: "garbage", in: `hello`, wantErr: ErrParse},
		{name: "wrong version", in: `{"jsonrpc":"1.0","id":1,"method":"m"}`, wantErr: ErrInvalidRequest, wantID: "1"},
		{name: "missing version", in: `{"id":1,"method":"m"}`, wantErr: ErrInvalidRequest, wantID: "1"},
		{name: "duplicate key", in: `{"jsonrpc":"2.0","id":1,"method":"a","method":"b"}`, wantErr: ErrInvalidRequest, wantID: "1"},
		{name: "case-sensitive members", in: `{"jsonrpc":"2.0","id":1,"Method":"m"}`, wantErr: ErrInvalidRequest, wantID: "1"},
		{name: "fractional id", in: `{"jsonrpc":"2.0","id":1.5,"method":"m"}`, wantErr: ErrInvalidRequest},
		{name: "object id", in: `{"jsonrpc":"2.0","id":{},"method":"m"}`, wantErr: ErrInvalidRequest},
		{name: "null request id", in: `{"jsonrpc":"2.0","id":null,"method":"m"}`, wantErr: ErrInvalidRequest},
		{name: "scalar params", in: `{"jsonrpc":"2.0","id":3,"method":"m","params":5}`, wantErr: ErrInvalidRequest, wantID: "3"},
		{name: "method not a string", in: `{"jsonrpc":"2.0","id":4,"method":5}`, wantErr: ErrInvalidRequest, wantID: "4"},
		{name: "result and error", in: `{"jsonrpc":"2.0","id":1,"result":{},"error":{"code":1,"message":"x"}}`, wantErr: ErrInvalidRequest},
		{name: "neither", in: `{"jsonrpc":"2.0","id":1}`, wantErr: ErrInvalidRequest, wantID: "1"},
		{name: "not an object", in: `42`, wantErr: ErrInvalidRequest},
		{name: "empty batch", in: `[]`, wantErr: ErrInvalidRequest},
		{name: "too deep", in: `{"jsonrpc":"2.0","id":1,"method":"m","params":{"a":` + strings.Repeat("[", 200) + strings.Repeat("]", 200) + `}}`, wantErr: ErrInvalidRequest},
		{name: "batch", in: `[{"jsonrpc":"2.0","id":1,"method":"a"},{"jsonrpc":"2.0","method":"b"}]`, want: `[{"jsonrpc":"2.0","id":1,"method":"a"},{"jsonrpc":"2.0","method":"b"}]`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			msg, err := Decode([]byte(tt.in))
			if tt.wantErr != nil {
				if !errors.Is(err, tt.wantErr) {
					t.Fatalf("Decode(%s) error = %v, want %v", tt.in, err, tt.wantErr)
				}
				var derr *DecodeError
				if !errors.As(err, &derr) {
					t.Fatalf("error %T is not a *DecodeError", err)
				}
				if tt.wantID != "" && derr.ID.String() != tt.wantID {
					t.Errorf("DecodeError.ID = %s, want %s", derr.ID, tt.wantID)
				}
				return
			}
			if err != nil {
				t.Fatalf("Decode(%s): %v", tt.in, err)
			}
			got, err := Encode(msg)
			if err != nil {
				t.Fatal(err)
			}
			if string(got) != tt.want {
				t.Errorf("round trip:\n got %s\nwant %s", got, tt.want)
			}
		})
	}
}

func TestIDs(t *testing.T) {
	for _, tt := range []struct {
		id   ID
		json string
		raw  any
	}{
		{Int64ID(0), `0`, int64(0)},
		{Int64ID(-9), `-9`, int64(-9)},
		{StringID(""), `""`, ""},
		{StringID(`a"b`), `"a\"b"`, `a"b`},
		{ID{}, `null`, nil},
	} {
		b, _ := tt.id.MarshalJSON()
		if string(b) != tt.json {
			t.Errorf("%v encodes as %s, want %s", tt.id, b, tt.json)
		}
		var back ID
		if err := back.UnmarshalJSON(b); err != nil || back != tt.id || back.Raw() != tt.raw {
			t.Errorf("%s decodes as %v (%v), want %v", b, back, err, tt.id)
		}
	}
	if Int64ID(1) == StringID("1") {
		t.Error("integer 1 and string \"1\" must be different ids")
	}
}

func FuzzDecode(f *testing.F) {
	for _, s := range []string{
		`{"jsonrpc":"2.0","id":1,"method":"ping"}`,
		`{"jsonrpc":"2.0","id":"x","result":{"a":[1,2]}}`,
		`[{"jsonrpc":"2.0","method":"n"}]`,
		`{"jsonrpc":"2.0","id":null,"error":{"code":1,"message":""}}`,
		`{"a":"\u0000"}`,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		msg, err := Decode(data)
		if err != nil {
			var derr *DecodeError
			if !errors.As(err, &derr) {
				t.Fatalf("error %T is not a *DecodeError", err)
			}
			return
		}
		enc, err := Encode(msg)
		if err != nil {
			t.Fatalf("cannot encode decoded message: %v", err)
		}
		if _, err := Decode(enc); err != nil {
			t.Fatalf("re-encoded message %s does not decode: %v", enc, err)
		}
	})
}
