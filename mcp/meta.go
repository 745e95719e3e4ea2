package mcp

import (
	"encoding/json"
	"fmt"
	"math"
	"slices"
	"strconv"
	"sync"

	"github.com/gomcp/sdk/internal/strictjson"
)

// Reserved _meta keys, exposed as typed fields of [Meta].
const (
	// MetaKeyProgressToken is the key of [Meta.ProgressToken].
	MetaKeyProgressToken = "progressToken"
	// MetaKeyProtocolVersion is the key of [Meta.ProtocolVersion]
	// (2026-07-28).
	MetaKeyProtocolVersion = "io.modelcontextprotocol/protocolVersion"
	// MetaKeyClientCapabilities is the key of [Meta.ClientCapabilities]
	// (2026-07-28).
	MetaKeyClientCapabilities = "io.modelcontextprotocol/clientCapabilities"
	// MetaKeyClientInfo is the key of [Meta.ClientInfo] (2026-07-28).
	MetaKeyClientInfo = "io.modelcontextprotocol/clientInfo"
	// MetaKeyLogLevel is the key of [Meta.LogLevel] (2026-07-28).
	MetaKeyLogLevel = "io.modelcontextprotocol/logLevel"
	// MetaKeyServerInfo is the key of [Meta.ServerInfo] (2026-07-28).
	MetaKeyServerInfo = "io.modelcontextprotocol/serverInfo"
	// MetaKeySubscriptionID is the key of [Meta.SubscriptionID]
	// (2026-07-28).
	MetaKeySubscriptionID = "io.modelcontextprotocol/subscriptionId"
	// MetaKeyRelatedTask is the key of [Meta.RelatedTask] (2025-11-25).
	MetaKeyRelatedTask = "io.modelcontextprotocol/related-task"
)

// Meta is the _meta member that requests, results, notifications and many
// protocol objects carry for protocol-level and application metadata.
//
// The keys MCP reserves are typed fields; every other member is in Data.
// Which keys are meaningful depends on where the Meta appears: request
// _meta carries ProgressToken and, since 2026-07-28, ProtocolVersion,
// ClientCapabilities, ClientInfo and LogLevel; result _meta carries
// ServerInfo; notifications and the subscriptions/listen result carry
// SubscriptionID.
//
// The zero Meta is empty and is omitted from the wire. In a decoded Meta,
// ClientCapabilities, ClientInfo and ServerInfo may point to values shared
// with other messages that carried the same bytes (a peer repeats them in
// every message, so they are decoded once): treat them as read-only.
type Meta struct {
	// ProgressToken ("progressToken") asks the receiver for progress
	// notifications. It is a string or an integer; after decoding it is a
	// string or an int64.
	ProgressToken any
	// ProtocolVersion ("io.modelcontextprotocol/protocolVersion") is the
	// protocol version of the request (2026-07-28).
	ProtocolVersion string
	// ClientCapabilities ("io.modelcontextprotocol/clientCapabilities") are
	// the client's capabilities for this request (2026-07-28). A non-nil
	// pointer to an empty struct means "no optional capabilities".
	ClientCapabilities *ClientCapabilities
	// ClientInfo ("io.modelcontextprotocol/clientInfo") identifies the client
	// software (2026-07-28).
	ClientInfo *Implementation
	// LogLevel ("io.modelcontextprotocol/logLevel") is the minimum level of
	// log notifications the client wants for this request (2026-07-28).
	LogLevel LoggingLevel
	// ServerInfo ("io.modelcontextprotocol/serverInfo") identifies the server
	// software in a result (2026-07-28).
	ServerInfo *Implementation
	// SubscriptionID ("io.modelcontextprotocol/subscriptionId") is the
	// JSON-RPC ID of the subscriptions/listen request a notification or
	// result belongs to (2026-07-28). It is a string or an integer; after
	// decoding it is a string or an int64.
	SubscriptionID any
	// RelatedTask ("io.modelcontextprotocol/related-task") associates a
	// message with a task (2025-11-25).
	RelatedTask *RelatedTaskMetadata
	// Data holds every other member, keyed by its name. Values decode as
	// with encoding/json into an any: objects as map[string]any, arrays as
	// []any, numbers as float64.
	Data map[string]any

	// encoded, when it still describes the fields above, is their encoding,
	// made once per client session and reused by MarshalJSON.
	encoded *encodedMeta
}

// encodedMeta caches the encoding of the per-request metadata a client
// session sends with every 2026-07-28 request.
type encodedMeta struct {
	version string
	caps    *ClientCapabilities
	info    *Implementation
	json    []byte
}

// cached returns the cached encoding of m, if m holds exactly what it was
// made from.
func (m *Meta) cached() []byte {
	e := m.encoded
	if e == nil || m.ProtocolVersion != e.version || m.ClientCapabilities != e.caps || m.ClientInfo != e.info ||
		m.ProgressToken != nil || m.LogLevel != "" || m.ServerInfo != nil || m.SubscriptionID != nil ||
		m.RelatedTask != nil || len(m.Data) != 0 {
		return nil
	}
	return e.json
}

// maxSplicedMembers bounds the Data members cachedWithStrings adds to a
// cached encoding (trace context: traceparent, tracestate, baggage).
const maxSplicedMembers = 4

// cachedWithStrings returns the encoding of m made by adding its Data
// members to the cached encoding of its typed fields (or to an empty
// object when it has none), when Data is all that keeps cached from
// applying and holds at most maxSplicedMembers plain strings under
// unreserved keys: the trace context telemetry adds to every request.
// Otherwise it returns nil.
func (m *Meta) cachedWithStrings() []byte {
	if len(m.Data) == 0 || len(m.Data) > maxSplicedMembers ||
		m.ProgressToken != nil || m.LogLevel != "" || m.ServerInfo != nil || m.SubscriptionID != nil || m.RelatedTask != nil {
		return nil
	}
	base := emptyObject
	switch e := m.encoded; {
	case e != nil && m.ProtocolVersion == e.version && m.ClientCapabilities == e.caps && m.ClientInfo == e.info:
		base = e.json
	case m.ProtocolVersion != "" || m.ClientCapabilities != nil || m.ClientInfo != nil:
		return nil
	}
	var keys [maxSplicedMembers]string
	n, size := 0, len(base)
	for k, v := range m.Data {
		str, ok := v.(string)
		if !ok || !plainJSONString(k) || !plainJSONString(str) || isReservedMetaKey(k) {
			return nil
		}
		keys[n] = k
		n++
		size += len(k) + len(str) + 6
	}
	slices.Sort(keys[:n])
	b := make([]byte, 0, size)
	b = append(b, base[:len(base)-1]...) // without its closing brace
	for i, k := range keys[:n] {
		if i > 0 || len(base) > 2 {
			b = append(b, ',')
		}
		b = append(b, '"')
		b = append(b, k...)
		b = append(b, '"', ':', '"')
		b = append(b, m.Data[k].(string)...)
		b = append(b, '"')
	}
	return append(b, '}')
}

var emptyObject = []byte("{}")

// plainJSONString reports whether s encodes as a JSON string by just
// quoting it: printable ASCII without quotes or backslashes.
func plainJSONString(s string) bool {
	for i := 0; i < len(s); i++ {
		if c := s[i]; c < 0x20 || c > 0x7e || c == '"' || c == '\\' {
			return false
		}
	}
	return true
}

// isReservedMetaKey reports whether key is one of the keys Meta has a
// typed field for.
func isReservedMetaKey(key string) bool {
	switch key {
	case MetaKeyProgressToken, MetaKeyProtocolVersion, MetaKeyClientCapabilities, MetaKeyClientInfo,
		MetaKeyLogLevel, MetaKeyServerInfo, MetaKeySubscriptionID, MetaKeyRelatedTask:
		return true
	}
	return false
}

// RelatedTaskMetadata associates a message with a task; it is the value of
// the "io.modelcontextprotocol/related-task" _meta key (2025-11-25).
type RelatedTaskMetadata struct {
	// TaskID is the identifier of the task.
	TaskID string `json:"taskId"`
}

// metaWire is the wire form of Meta. It is only ever encoded and decoded by
// strictjson, which understands the inline option.
type metaWire struct {
	ProgressToken      json.RawMessage      `json:"progressToken,omitzero"`
	ProtocolVersion    string               `json:"io.modelcontextprotocol/protocolVersion,omitempty"`
	ClientCapabilities *ClientCapabilities  `json:"io.modelcontextprotocol/clientCapabilities,omitzero"`
	ClientInfo         *Implementation      `json:"io.modelcontextprotocol/clientInfo,omitzero"`
	LogLevel           LoggingLevel         `json:"io.modelcontextprotocol/logLevel,omitempty"`
	ServerInfo         *Implementation      `json:"io.modelcontextprotocol/serverInfo,omitzero"`
	SubscriptionID     json.RawMessage      `json:"io.modelcontextprotocol/subscriptionId,omitzero"`
	RelatedTask        *RelatedTaskMetadata `json:"io.modelcontextprotocol/related-task,omitzero"`
	Data               map[string]any       `json:",inline"`
}

// IsZero reports whether m has no members. Both encoding/json and
// strictjson use it to omit an empty _meta.
func (m Meta) IsZero() bool {
	return m.ProgressToken == nil && m.ProtocolVersion == "" &&
		m.ClientCapabilities == nil && m.ClientInfo == nil && m.LogLevel == "" &&
		m.ServerInfo == nil && m.SubscriptionID == nil && m.RelatedTask == nil &&
		len(m.Data) == 0
}

// MarshalJSON encodes m as a JSON object. It reports an error if a typed
// field and a Data entry name the same key, or if ProgressToken or
// SubscriptionID is neither a string nor an integer.
func (m Meta) MarshalJSON() ([]byte, error) {
	if b := m.cached(); b != nil {
		return b, nil
	}
	if b := m.cachedWithStrings(); b != nil {
		return b, nil
	}
	w := metaWire{
		ProtocolVersion:    m.ProtocolVersion,
		ClientCapabilities: m.ClientCapabilities,
		ClientInfo:         m.ClientInfo,
		LogLevel:           m.LogLevel,
		ServerInfo:         m.ServerInfo,
		RelatedTask:        m.RelatedTask,
		Data:               m.Data,
	}
	var err error
	if w.ProgressToken, err = encodeID(MetaKeyProgressToken, m.ProgressToken); err != nil {
		return nil, err
	}
	if w.SubscriptionID, err = encodeID(MetaKeySubscriptionID, m.SubscriptionID); err != nil {
		return nil, err
	}
	if err := m.checkDataKeys(); err != nil {
		return nil, err
	}
	return strictjson.Marshal(w)
}

// checkDataKeys reports a Data entry that duplicates a typed field that is set.
func (m Meta) checkDataKeys() error {
	if len(m.Data) == 0 {
		return nil
	}
	set := [...]struct {
		key string
		set bool
	}{
		{MetaKeyProgressToken, m.ProgressToken != nil},
		{MetaKeyProtocolVersion, m.ProtocolVersion != ""},
		{MetaKeyClientCapabilities, m.ClientCapabilities != nil},
		{MetaKeyClientInfo, m.ClientInfo != nil},
		{MetaKeyLogLevel, m.LogLevel != ""},
		{MetaKeyServerInfo, m.ServerInfo != nil},
		{MetaKeySubscriptionID, m.SubscriptionID != nil},
		{MetaKeyRelatedTask, m.RelatedTask != nil},
	}
	for _, f := range set {
		if _, ok := m.Data[f.key]; ok && f.set {
			return fmt.Errorf("mcp: _meta key %q is set both in Meta.Data and in its Meta field", f.key)
		}
	}
	return nil
}

// UnmarshalJSON decodes a JSON object into m. Reserved keys go to the typed
// fields and must have the types the protocol gives them; all other members
// go to Data.
func (m *Meta) UnmarshalJSON(data []byte) error {
	if cached, ok := decodedMetas.get(data); ok {
		*m = cached
		return nil
	}
	var buf [maxRestLen]byte
	rest, tm, traced := splitTraceMeta(data, buf[:0])
	if traced {
		if fast, ok := decodeTraceMeta(data, rest, &tm); ok {
			*m = fast
			return nil
		}
	}
	if err := m.decodeFull(data); err != nil {
		return err
	}
	if m.sharable() {
		decodedMetas.put(data, *m)
	} else if traced {
		rememberTraceMeta(rest, &tm, *m)
	}
	return nil
}

// decodeFull decodes data into m without the cache of whole _meta.
func (m *Meta) decodeFull(data []byte) error {
	var w metaWireIn
	if err := strictjson.UnmarshalTrusted(data, &w); err != nil {
		return err
	}
	progress, err := decodeID(MetaKeyProgressToken, w.ProgressToken)
	if err != nil {
		return err
	}
	sub, err := decodeID(MetaKeySubscriptionID, w.SubscriptionID)
	if err != nil {
		return err
	}
	caps, err := decodedCaps.decode(w.ClientCapabilities)
	if err != nil {
		return err
	}
	info, err := decodedInfos.decode(w.ClientInfo)
	if err != nil {
		return err
	}
	server, err := decodedInfos.decode(w.ServerInfo)
	if err != nil {
		return err
	}
	*m = Meta{
		ProgressToken:      progress,
		ProtocolVersion:    w.ProtocolVersion,
		ClientCapabilities: caps,
		ClientInfo:         info,
		LogLevel:           w.LogLevel,
		ServerInfo:         server,
		SubscriptionID:     sub,
		RelatedTask:        w.RelatedTask,
		Data:               w.Data,
	}
	return nil
}

// metaWireIn is metaWire for decoding, with the client's capabilities and
// the client's and server's identities kept as bytes: a 2026-07-28 client
// sends the same ones with every request, and a server names itself in
// every result, so they are decoded once (decodedCaps, decodedInfos) even
// when the rest of the _meta differs from message to message (a progress
// token, trace context).
type metaWireIn struct {
	ProgressToken      json.RawMessage      `json:"progressToken,omitzero"`
	ProtocolVersion    string               `json:"io.modelcontextprotocol/protocolVersion,omitempty"`
	ClientCapabilities json.RawMessage      `json:"io.modelcontextprotocol/clientCapabilities,omitzero"`
	ClientInfo         json.RawMessage      `json:"io.modelcontextprotocol/clientInfo,omitzero"`
	LogLevel           LoggingLevel         `json:"io.modelcontextprotocol/logLevel,omitempty"`
	ServerInfo         json.RawMessage      `json:"io.modelcontextprotocol/serverInfo,omitzero"`
	SubscriptionID     json.RawMessage      `json:"io.modelcontextprotocol/subscriptionId,omitzero"`
	RelatedTask        *RelatedTaskMetadata `json:"io.modelcontextprotocol/related-task,omitzero"`
	Data               map[string]any       `json:",inline"`
}

// sharable reports whether m, just decoded, may be remembered and shared
// with later decodings of the same bytes: it carries the identities a peer
// repeats in every message (a client's capabilities and identity in a
// request, a server's identity in a result) and nothing that varies per
// message (a progress token, a subscription, other members).
func (m *Meta) sharable() bool {
	return m.ProgressToken == nil && m.SubscriptionID == nil && len(m.Data) == 0 &&
		(m.ClientCapabilities != nil || m.ServerInfo != nil && m.RelatedTask == nil)
}

// decodedCaps and decodedInfos remember the decoding of recent client
// capabilities in request _meta and of client and server identities in
// request and result _meta. Like decodedMetas, what they return is shared
// and read-only, and they are bounded.
var (
	decodedCaps  partCache[ClientCapabilities]
	decodedInfos partCache[Implementation]
)

// A partCache maps the JSON encoding of a _meta member to its decoding.
type partCache[T any] struct {
	mu      sync.RWMutex
	entries map[string]*T
}

// decode returns the decoding of raw: nil for absent or null, the cached
// value for bytes seen before.
func (c *partCache[T]) decode(raw json.RawMessage) (*T, error) {
	if raw == nil {
		return nil, nil
	}
	c.mu.RLock()
	v, ok := c.entries[string(raw)]
	c.mu.RUnlock()
	if ok {
		return v, nil
	}
	if err := strictjson.UnmarshalTrusted(raw, &v); err != nil {
		return nil, err
	}
	if v == nil {
		return nil, nil // null
	}
	if len(raw) > maxCachedMetaLen {
		return v, nil
	}
	c.mu.Lock()
	if c.entries == nil || len(c.entries) >= metaCacheSize {
		c.entries = make(map[string]*T)
	}
	c.entries[string(raw)] = v
	c.mu.Unlock()
	return v, nil
}

// encodeID encodes a progress token or request ID, which must be a string or
// an integer. A nil v encodes as nil (absent).
func encodeID(name string, v any) (json.RawMessage, error) {
	switch v := v.(type) {
	case nil:
		return nil, nil
	case string:
		return strictjson.Marshal(v)
	case int:
		return strconv.AppendInt(nil, int64(v), 10), nil
	case int8:
		return strconv.AppendInt(nil, int64(v), 10), nil
	case int16:
		return strconv.AppendInt(nil, int64(v), 10), nil
	case int32:
		return strconv.AppendInt(nil, int64(v), 10), nil
	case int64:
		return strconv.AppendInt(nil, v, 10), nil
	case uint:
		return strconv.AppendUint(nil, uint64(v), 10), nil
	case uint8:
		return strconv.AppendUint(nil, uint64(v), 10), nil
	case uint16:
		return strconv.AppendUint(nil, uint64(v), 10), nil
	case uint32:
		return strconv.AppendUint(nil, uint64(v), 10), nil
	case uint64:
		return strconv.AppendUint(nil, v, 10), nil
	}
	return nil, fmt.Errorf("mcp: %s must be a string or an integer, not %T", name, v)
}

// decodeID decodes a progress token or request ID: a JSON string becomes a
// string and a JSON integer an int64. Absent (nil raw) decodes to nil.
func decodeID(name string, raw json.RawMessage) (any, error) {
	if raw == nil {
		return nil, nil
	}
	if len(raw) == 0 {
		return nil, fmt.Errorf("mcp: %s is empty", name)
	}
	if raw[0] == '"' {
		var s string
		if err := strictjson.UnmarshalTrusted(raw, &s); err != nil {
			return nil, fmt.Errorf("mcp: %s: %w", name, err)
		}
		return s, nil
	}
	if raw[0] != '-' && (raw[0] < '0' || raw[0] > '9') {
		return nil, fmt.Errorf("mcp: %s must be a string or an integer, got %.40s", name, raw)
	}
	if n, err := strconv.ParseInt(string(raw), 10, 64); err == nil {
		return n, nil
	}
	// A number written with a fraction or exponent is still an integer if
	// its value is integral (JSON Schema's definition of integer).
	var f float64
	if err := strictjson.UnmarshalTrusted(raw, &f); err == nil &&
		f == math.Trunc(f) && f >= math.MinInt64 && f < math.MaxInt64 {
		return int64(f), nil
	}
	return nil, fmt.Errorf("mcp: %s must be a string or an integer in the int64 range, got %.40s", name, raw)
}

// decodedMetas remembers the decoding of recent request metadata. A
// 2026-07-28 client sends the same _meta (version, capabilities, identity)
// with every request, so a server decodes it once; the decoded
// capabilities and implementation are shared and must be treated as
// read-only. Only metadata without per-request values is cached, and the
// cache is bounded.
var decodedMetas metaCache

type metaCache struct {
	mu      sync.RWMutex
	entries map[string]Meta
}

const metaCacheSize = 256

// maxCachedMetaLen bounds the encoding of a _meta, or of one member, that
// the caches keep, so that a peer sending large ones cannot make them hold
// more than metaCacheSize times this much.
const maxCachedMetaLen = 4 << 10

func (c *metaCache) get(data []byte) (Meta, bool) {
	c.mu.RLock()
	defer c.mu.RUnlock()
	m, ok := c.entries[string(data)]
	return m, ok
}

func (c *metaCache) put(data []byte, m Meta) {
	if len(data) > maxCachedMetaLen {
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.entries == nil || len(c.entries) >= metaCacheSize {
		c.entries = make(map[string]Meta)
	}
	m.encoded = nil
	c.entries[string(data)] = m
}

// isEmpty reports whether m carries none of the per-request metadata of
// 2026-07-28 (protocol version, client capabilities, client info).
func (m *Meta) isEmpty() bool {
	return m == nil || m.ProtocolVersion == "" && m.ClientCapabilities == nil && m.ClientInfo == nil
}
