package mcp

import (
	"bytes"
	"errors"
	"sync"

	"github.com/go-json-experiment/json/jsontext"
)

// A modernProbe holds what the HTTP layer reads of a request's params
// before the method decodes them: the era (the protocol version in _meta),
// and the values that 2026-07-28 mirrors into headers.
type modernProbe struct {
	name, uri       string
	hasName, hasURI bool   // name and uri were strings
	taskID          string // taskId, mirrored by tasks/* requests (tasks extension, task.go)
	hasTaskID       bool
	version         string // _meta["io.modelcontextprotocol/protocolVersion"]
	hasCaps         bool   // _meta["io.modelcontextprotocol/clientCapabilities"] was given, not null
	arguments       []byte // the raw arguments, a sub-slice of the params
}

// nameSource returns the value Mcp-Name mirrors for method, whether the
// params had it as a string, and whether the method has one.
func (p *modernProbe) nameSource(method string) (value string, present, applies bool) {
	switch method {
	case MethodCallTool, MethodGetPrompt:
		return p.name, p.hasName, true
	case MethodReadResource:
		return p.uri, p.hasURI, true
	case MethodGetTask, MethodUpdateTask, MethodCancelTask:
		return p.taskID, p.hasTaskID, true
	}
	return "", false, false
}

// probeDecoder is a pooled token reader of params.
type probeDecoder struct {
	rd  bytes.Buffer // a bytes.Buffer: the decoder reads its bytes in place
	dec jsontext.Decoder
}

// reset points the reader at data, or at nothing for nil.
func (pd *probeDecoder) reset(data []byte, opts ...jsontext.Options) {
	pd.rd = *bytes.NewBuffer(data)
	pd.dec.Reset(&pd.rd, opts...)
}

var probePool = sync.Pool{New: func() any { return new(probeDecoder) }}

var errProbeShape = errors.New("params must be a JSON object")

var probeOptions = jsontext.AllowDuplicateNames(true)

// decodeProbe reads the probe fields of params, a JSON object or nil. It
// reads tokens without decoding the rest, so it costs a fraction of the
// method's own decoding; member names are matched exactly as the strict
// decoder matches them (after unescaping, case-sensitively), so the probe
// sees what the method will see. Params with duplicate names, which the
// method's decoding refuses, may probe either way.
func decodeProbe(params []byte, p *modernProbe) error {
	if len(params) == 0 {
		return nil
	}
	pd := probePool.Get().(*probeDecoder)
	defer func() {
		pd.reset(nil)
		probePool.Put(pd)
	}()
	// Duplicate names need not be tracked: the method's strict decoding
	// refuses them, so such a request never runs.
	pd.reset(params, probeOptions)
	d := &pd.dec
	if d.PeekKind() != '{' {
		if d.PeekKind() == '[' {
			return nil // positional params: nothing to probe
		}
		return errProbeShape
	}
	if _, err := d.ReadToken(); err != nil {
		return err
	}
	for d.PeekKind() != '}' {
		name, err := readName(d)
		if err != nil {
			return err
		}
		switch name {
		case "name", "uri", "taskId":
			v, err := d.ReadValue()
			if err != nil {
				return err
			}
			if v.Kind() == '"' {
				s, err := unquote(v)
				if err != nil {
					return err
				}
				switch name {
				case "name":
					p.name, p.hasName = s, true
				case "uri":
					p.uri, p.hasURI = s, true
				default:
					p.taskID, p.hasTaskID = s, true
				}
			}
		case "_meta":
			if err := probeMeta(d, p); err != nil {
				return err
			}
		case "arguments":
			start := d.InputOffset()
			if err := d.SkipValue(); err != nil {
				return err
			}
			raw := bytes.TrimLeft(params[start:d.InputOffset()], " \t\r\n")
			p.arguments = bytes.TrimLeft(bytes.TrimPrefix(raw, []byte(":")), " \t\r\n")
		default:
			if err := d.SkipValue(); err != nil {
				return err
			}
		}
	}
	_, err := d.ReadToken()
	return err
}

// probeMeta reads the _meta member.
func probeMeta(d *jsontext.Decoder, p *modernProbe) error {
	if d.PeekKind() != '{' {
		return d.SkipValue() // null, or a type the method's decoding refuses
	}
	if _, err := d.ReadToken(); err != nil {
		return err
	}
	for d.PeekKind() != '}' {
		name, err := readName(d)
		if err != nil {
			return err
		}
		switch name {
		case MetaKeyProtocolVersion:
			v, err := d.ReadValue()
			if err != nil {
				return err
			}
			if v.Kind() == '"' {
				if p.version, err = unquote(v); err != nil {
					return err
				}
			}
		case MetaKeyClientCapabilities:
			p.hasCaps = d.PeekKind() != 'n'
			if err := d.SkipValue(); err != nil {
				return err
			}
		default:
			if err := d.SkipValue(); err != nil {
				return err
			}
		}
	}
	_, err := d.ReadToken()
	return err
}

// readName reads an object member name. Names the probe does not look for
// come back empty, without allocating.
func readName(d *jsontext.Decoder) (string, error) {
	v, err := d.ReadValue()
	if err != nil {
		return "", err
	}
	if len(v) < 2 || bytes.IndexByte(v, '\\') >= 0 {
		return unquote(v) // escaped: compare the unescaped text
	}
	switch inner := v[1 : len(v)-1]; string(inner) { // no allocation
	case "name":
		return "name", nil
	case "uri":
		return "uri", nil
	case "taskId":
		return "taskId", nil
	case "_meta":
		return "_meta", nil
	case "arguments":
		return "arguments", nil
	case MetaKeyProtocolVersion:
		return MetaKeyProtocolVersion, nil
	case MetaKeyClientCapabilities:
		return MetaKeyClientCapabilities, nil
	}
	return "", nil
}

// unquote returns the text of a JSON string. The protocol versions this
// package knows are returned without allocating.
func unquote(v jsontext.Value) (string, error) {
	if len(v) >= 2 && bytes.IndexByte(v, '\\') < 0 {
		inner := v[1 : len(v)-1]
		for _, known := range supportedVersions {
			if string(inner) == known {
				return known, nil
			}
		}
		return string(inner), nil
	}
	b, err := jsontext.AppendUnquote(nil, v)
	return string(b), err
}
