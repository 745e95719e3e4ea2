package events

import (
	"encoding/json"
	"fmt"
	"reflect"
	"slices"

	"github.com/gomcp/sdk/jsonschema"
	"github.com/gomcp/sdk/strictjson"
)

// A Type is an event type a Server offers: its description in events/list
// and what serving it needs. Make one with NewType.
type Type struct {
	desc    EventType
	input   *jsonschema.Resolved
	payload *jsonschema.Resolved
	// matcher, if set, returns the filter of a subscription with the
	// given arguments: whether an occurrence's data goes to it.
	matcher func(args json.RawMessage) func(data json.RawMessage) bool
}

// TypeOptions configure NewType; nil means defaults.
type TypeOptions[In, Payload any] struct {
	// Delivery lists the modes the type offers (default DeliveryPoll and
	// DeliveryPush). DeliveryWebhook needs ServerOptions.Webhooks.
	Delivery []string
	// Meta is the type's _meta in events/list.
	Meta map[string]any
	// Match, if set, reports whether an occurrence goes to a subscription
	// made with args: the type's filters. Nil sends every occurrence to
	// every subscription.
	Match func(args In, payload Payload) bool
}

// NewType returns an event type named name. Its input schema (the
// subscription's arguments) is inferred from In and its payload schema
// from Payload, as a typed tool's schemas are (jsonschema.For); both must
// describe JSON objects, so In and Payload must be structs or maps with
// string keys. It panics when they are not, when a schema cannot be
// inferred, or for an empty name or an unknown delivery mode: these are
// programming errors.
func NewType[In, Payload any](name, description string, opts *TypeOptions[In, Payload]) *Type {
	if name == "" {
		panic("events: NewType: empty name")
	}
	o := TypeOptions[In, Payload]{}
	if opts != nil {
		o = *opts
	}
	if len(o.Delivery) == 0 {
		o.Delivery = []string{DeliveryPoll, DeliveryPush}
	}
	for _, d := range o.Delivery {
		if d != DeliveryPoll && d != DeliveryPush && d != DeliveryWebhook {
			panic(fmt.Sprintf("events: NewType %q: unknown delivery mode %q", name, d))
		}
	}
	in, inResolved := objectSchema[In](name, "input")
	payload, payloadResolved := objectSchema[Payload](name, "payload")
	t := &Type{
		desc: EventType{
			Name:          name,
			Description:   description,
			Delivery:      slices.Clone(o.Delivery),
			InputSchema:   in,
			PayloadSchema: payload,
			Meta:          o.Meta,
		},
		input:   inResolved,
		payload: payloadResolved,
	}
	if match := o.Match; match != nil {
		t.matcher = func(args json.RawMessage) func(json.RawMessage) bool {
			var a In
			if strictjson.Unmarshal(args, &a) != nil {
				return func(json.RawMessage) bool { return false }
			}
			return func(data json.RawMessage) bool {
				var p Payload
				return strictjson.Unmarshal(data, &p) == nil && match(a, p)
			}
		}
	}
	return t
}

// objectSchema infers and resolves the schema of T, which must describe an
// object.
func objectSchema[T any](name, which string) (*jsonschema.Schema, *jsonschema.Resolved) {
	s, err := jsonschema.For[T](nil)
	if err != nil {
		panic(fmt.Sprintf("events: NewType %q: inferring the %s schema of %v: %v", name, which, reflect.TypeFor[T](), err))
	}
	if s.Type != "object" {
		panic(fmt.Sprintf("events: NewType %q: %s type %v must be a struct or a map (its schema must be an object)", name, which, reflect.TypeFor[T]()))
	}
	r, err := s.Resolve(nil)
	if err != nil {
		panic(fmt.Sprintf("events: NewType %q: %s schema: %v", name, which, err))
	}
	return s, r
}

// Name returns the type's name.
func (t *Type) Name() string { return t.desc.Name }

// Describe returns a copy of the type's description as events/list sends
// it.
func (t *Type) Describe() *EventType {
	d := t.desc
	d.Delivery = slices.Clone(d.Delivery)
	return &d
}

// offers reports whether the type offers delivery mode.
func (t *Type) offers(mode string) bool { return slices.Contains(t.desc.Delivery, mode) }

// checkArguments returns the arguments of a request, {} when absent, or
// the -32602 error of arguments that do not match the input schema.
func (t *Type) checkArguments(args json.RawMessage) (json.RawMessage, error) {
	if len(args) == 0 || string(args) == "null" {
		args = json.RawMessage("{}")
	}
	if err := t.input.ValidateJSON(args); err != nil {
		return nil, errInvalidParams("invalid arguments for event type %q: %v", t.desc.Name, err)
	}
	return args, nil
}

// filter returns whether an occurrence's data goes to a subscription
// with args, the arguments decoded once.
func (t *Type) filter(args json.RawMessage) func(data json.RawMessage) bool {
	if t.matcher == nil {
		return func(json.RawMessage) bool { return true }
	}
	return t.matcher(args)
}
