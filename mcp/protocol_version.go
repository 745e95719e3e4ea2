package mcp

import "slices"

// Protocol versions of the Model Context Protocol that this package speaks.
//
// A version string names the date of the specification revision. Versions
// up to [Version20251125] use the initialize handshake and sessions;
// [Version20260728] is stateless and carries the version in every request's
// _meta.
const (
	// Version20241105 is the first published revision of the protocol.
	Version20241105 = "2024-11-05"
	// Version20250326 added audio content, tool annotations, completions
	// capability, JSON-RPC batches and the streamable HTTP transport.
	Version20250326 = "2025-03-26"
	// Version20250618 added structured tool output, elicitation, resource
	// links, titles and _meta on most types; it removed batches.
	Version20250618 = "2025-06-18"
	// Version20251125 added icons, URL-mode elicitation, sampling with tools
	// and experimental tasks.
	Version20251125 = "2025-11-25"
	// Version20260728 removed the handshake and sessions and added
	// server/discover, multi round-trip requests, subscriptions/listen and
	// cache hints.
	Version20260728 = "2026-07-28"

	// LatestVersion is the newest protocol version this package supports.
	LatestVersion = Version20260728
)

// SupportedVersions returns every protocol version this package supports,
// newest first, in a slice the caller owns.
func SupportedVersions() []string { return slices.Clone(supportedVersions) }

// supportedVersions lists every protocol version this package supports,
// newest first.
var supportedVersions = []string{
	Version20260728,
	Version20251125,
	Version20250618,
	Version20250326,
	Version20241105,
}

// versionAtLeast reports whether protocol version v is min or newer.
// Versions are dates, so they compare as strings; "" (not settled) is
// older than every version.
func versionAtLeast(v, min string) bool { return v != "" && v >= min }

// ProtocolAtLeast reports whether the session's protocol version is
// version or newer, for code that depends on what a revision added: for
// example ProtocolAtLeast(Version20260728) holds when requests carry their
// own metadata instead of relying on the initialize handshake.
func (ss *ServerSession) ProtocolAtLeast(version string) bool {
	return versionAtLeast(ss.ProtocolVersion(), version)
}

// ProtocolAtLeast reports whether the session's protocol version is
// version or newer.
func (cs *ClientSession) ProtocolAtLeast(version string) bool {
	return versionAtLeast(cs.version, version)
}
