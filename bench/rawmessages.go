package bench

import (
	"errors"
	"io"
	"strconv"
)

// The raw JSON-RPC messages of the SDK-neutral peers. They are built by
// hand, not by any SDK, so that every SDK is driven by the same bytes.

// ClientName is the clientInfo name the raw peers send.
const ClientName = "bench-raw"

// InitializeRequest returns a legacy initialize request with the given id,
// asking for LegacyVersion with no client capabilities.
func InitializeRequest(id int) []byte {
	return []byte(`{"jsonrpc":"2.0","id":` + strconv.Itoa(id) +
		`,"method":"initialize","params":{"protocolVersion":"` + LegacyVersion +
		`","capabilities":{},"clientInfo":{"name":"` + ClientName + `","version":"1.0.0"}}}`)
}

// InitializedNotification returns the notifications/initialized message that
// completes a legacy handshake.
func InitializedNotification() []byte {
	return []byte(`{"jsonrpc":"2.0","method":"notifications/initialized"}`)
}

// LegacyCallRequest returns a legacy tools/call request of EchoTool with the
// given id and EchoText.
func LegacyCallRequest(id int) []byte {
	return []byte(`{"jsonrpc":"2.0","id":` + strconv.Itoa(id) +
		`,"method":"tools/call","params":{"name":"` + EchoTool + `","arguments":{"text":"` + EchoText + `"}}}`)
}

// ModernCallRequest returns a 2026-07-28 tools/call request of EchoTool with
// the given id and EchoText, carrying the _meta every stateless request
// needs: protocol version, client info and client capabilities.
func ModernCallRequest(id int) []byte {
	return []byte(`{"jsonrpc":"2.0","id":` + strconv.Itoa(id) +
		`,"method":"tools/call","params":{"name":"` + EchoTool + `","arguments":{"text":"` + EchoText +
		`"},"_meta":{"io.modelcontextprotocol/protocolVersion":"` + ModernVersion +
		`","io.modelcontextprotocol/clientInfo":{"name":"` + ClientName + `","version":"1.0.0"}` +
		`,"io.modelcontextprotocol/clientCapabilities":{}}}}`)
}

// DiscoverRequest returns a 2026-07-28 server/discover request with the
// given id and the _meta every stateless request needs. It declares the
// roots capability, as a client with roots does, so that it is about as
// long as the SDKs' own probes.
func DiscoverRequest(id int) []byte {
	return []byte(`{"jsonrpc":"2.0","id":` + strconv.Itoa(id) +
		`,"method":"server/discover","params":{"_meta":{"io.modelcontextprotocol/protocolVersion":"` + ModernVersion +
		`","io.modelcontextprotocol/clientInfo":{"name":"` + ClientName + `","version":"1.0.0"}` +
		`,"io.modelcontextprotocol/clientCapabilities":{"roots":{"listChanged":true}}}}}`)
}

// closers closes each of its members, in order.
type closers []io.Closer

// Close closes every member and joins their errors.
func (cs closers) Close() error {
	var errs []error
	for _, c := range cs {
		errs = append(errs, c.Close())
	}
	return errors.Join(errs...)
}
