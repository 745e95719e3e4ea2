package webhook

import (
	"context"
	"net/url"
	"strings"
)

// consented reports whether the endpoint raw has consented to deliveries
// without a challenge: it is under one of ServiceOptions.VerifiedPrefixes,
// or, with TrustReceiverDocuments, its origin's receiver document
// declares it. A receiver document that cannot be fetched is no consent.
func (s *Service) consented(ctx context.Context, raw string) bool {
	u, err := url.Parse(raw)
	if err != nil || hasDotSegment(u.Path) {
		return false
	}
	for _, p := range s.prefixes {
		if originOf(u) == originOf(p) && strings.HasPrefix(u.Path, p.Path) {
			return true
		}
	}
	if !s.opts.TrustReceiverDocuments {
		return false
	}
	ok, err := s.opts.Sender.ReceiverDeclares(ctx, raw)
	return err == nil && ok
}

// verify confirms that the endpoint raw wants the deliveries of the
// subscription id for principal: by consent without a challenge
// (consented), or by VerifyEndpoint.
func (s *Service) verify(ctx context.Context, principal, raw, id string, secret Secret) error {
	if s.consented(ctx, raw) {
		return nil
	}
	return VerifyEndpoint(ctx, s.opts.Sender, s.opts.Registry, principal, raw, id, []Secret{secret})
}

// parsePrefixes parses ServiceOptions.VerifiedPrefixes, skipping those
// that are not absolute http(s) URLs.
func parsePrefixes(raw []string) []*url.URL {
	var out []*url.URL
	for _, r := range raw {
		u, err := url.Parse(r)
		if err != nil || (u.Scheme != "https" && u.Scheme != "http") || u.Hostname() == "" || u.User != nil || hasDotSegment(u.Path) {
			continue
		}
		if u.Path == "" {
			u.Path = "/"
		}
		out = append(out, u)
	}
	return out
}
