package otel

import (
	"maps"
	"reflect"
	"slices"
	"sync"

	"github.com/gomcp/sdk/mcp"
)

// maxCarriedValue is the longest _meta value the propagator is shown. It is
// the W3C Baggage limit for a whole baggage header (8192 bytes), far above
// any valid traceparent or tracestate; a longer value is ignored, so an
// oversized baggage member never reaches the baggage parser.
const maxCarriedValue = 8192

// metaCarrier lets a propagator read and write the trace-context members
// (traceparent, tracestate, baggage) of a request's or notification's
// _meta. It is the Meta itself, so that using one as a
// propagation.TextMapCarrier allocates nothing.
type metaCarrier mcp.Meta

// carrier returns meta as a carrier.
func carrier(meta *mcp.Meta) *metaCarrier { return (*metaCarrier)(meta) }

// Get returns the string value of key, or "" when it is absent, not a
// string, or longer than maxCarriedValue.
func (c *metaCarrier) Get(key string) string {
	s, _ := c.Data[key].(string)
	if len(s) > maxCarriedValue {
		return ""
	}
	return s
}

// Set stores value under key. Injection gives the carrier a map of its own
// first (ownData), so a map the caller shares is never written.
func (c *metaCarrier) Set(key, value string) {
	if c.Data == nil {
		c.Data = make(map[string]any, 3)
	}
	c.Data[key] = value
}

// Keys lists the keys of the _meta members that are not typed fields.
func (c *metaCarrier) Keys() []string {
	return slices.Collect(maps.Keys(c.Data))
}

// ownData replaces a non-empty Data map of meta by a copy with room for the
// trace context, so that writing it leaves the caller's map alone.
func ownData(meta *mcp.Meta) {
	if len(meta.Data) == 0 {
		meta.Data = nil
		return
	}
	data := make(map[string]any, len(meta.Data)+3)
	maps.Copy(data, meta.Data)
	meta.Data = data
}

// metaOf returns the _meta of a request's or notification's params, or nil
// when params has none (nil params, or a type without a Meta field).
func metaOf(params any) *mcp.Meta {
	switch p := params.(type) {
	case *mcp.CallToolParams:
		if p != nil {
			return &p.Meta
		}
		return nil
	case *mcp.GetPromptParams:
		if p != nil {
			return &p.Meta
		}
		return nil
	case *mcp.ReadResourceParams:
		if p != nil {
			return &p.Meta
		}
		return nil
	case *mcp.ListToolsParams:
		if p != nil {
			return &p.Meta
		}
		return nil
	case *mcp.ProgressNotificationParams:
		if p != nil {
			return &p.Meta
		}
		return nil
	case *mcp.CreateMessageParams:
		if p != nil {
			return &p.Meta
		}
		return nil
	case *mcp.ElicitParams:
		if p != nil {
			return &p.Meta
		}
		return nil
	case *mcp.ListRootsParams:
		if p != nil {
			return &p.Meta
		}
		return nil
	}
	return metaByReflection(params)
}

// metaFields remembers, per params type, the index of its Meta field (or
// -1 when it has none).
var metaFields sync.Map // reflect.Type -> int

var metaType = reflect.TypeFor[mcp.Meta]()

// metaByReflection finds the Meta field of a pointer to a params struct.
func metaByReflection(params any) *mcp.Meta {
	v := reflect.ValueOf(params)
	if v.Kind() != reflect.Pointer || v.IsNil() || v.Elem().Kind() != reflect.Struct {
		return nil
	}
	t := v.Elem().Type()
	idx, ok := metaFields.Load(t)
	if !ok {
		i := -1
		if f, found := t.FieldByName("Meta"); found && len(f.Index) == 1 && f.Type == metaType {
			i = f.Index[0]
		}
		idx, _ = metaFields.LoadOrStore(t, i)
	}
	i := idx.(int)
	if i < 0 {
		return nil
	}
	return v.Elem().Field(i).Addr().Interface().(*mcp.Meta)
}
