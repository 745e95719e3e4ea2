package redis

import (
	"fmt"
	"time"

	"github.com/gomcp/sdk/ext/events/webhook"
	"github.com/gomcp/sdk/strictjson"
)

// webhookFormat is the version of the stored form of a webhook
// subscription; a value of another version is refused.
const webhookFormat = 1

// storedSubscription is how a webhook.Subscription is kept in Redis. The
// secrets are their text (Secret.Reveal), since a Secret JSON-encodes
// redacted.
type storedSubscription struct {
	Format         int          `json:"v"`
	ID             string       `json:"id"`
	Principal      string       `json:"principal"`
	URL            string       `json:"url"`
	Name           string       `json:"name"`
	Arguments      string       `json:"arguments"`
	Secret         string       `json:"secret"`
	PreviousSecret string       `json:"previousSecret,omitempty"`
	PreviousUntil  time.Time    `json:"previousUntil,omitzero"`
	Cursor         *string      `json:"cursor"`
	RefreshBefore  time.Time    `json:"refreshBefore,omitzero"`
	Status         storedStatus `json:"status"`
}

// storedStatus is how a webhook.DeliveryStatus is kept in Redis.
type storedStatus struct {
	Suspended      bool      `json:"suspended,omitempty"`
	LastDeliveryAt time.Time `json:"lastDeliveryAt,omitzero"`
	LastError      string    `json:"lastError,omitempty"`
	FailedSince    time.Time `json:"failedSince,omitzero"`
	WindowStart    time.Time `json:"windowStart,omitzero"`
	WindowAttempts int       `json:"windowAttempts,omitempty"`
	WindowFailures int       `json:"windowFailures,omitempty"`
}

// knownCategories are the values a stored LastError may hold.
var knownCategories = map[webhook.Category]bool{
	"":                                true,
	webhook.CategoryConnectionRefused: true,
	webhook.CategoryTimeout:           true,
	webhook.CategoryTLS:               true,
	webhook.CategoryHTTP4xx:           true,
	webhook.CategoryHTTP5xx:           true,
	webhook.CategoryChallengeFailed:   true,
}

// encodeSubscription returns the stored form of s, at most limit bytes.
func encodeSubscription(s *webhook.Subscription, limit int) ([]byte, error) {
	st := s.Status
	data, err := strictjson.Marshal(storedSubscription{
		Format:         webhookFormat,
		ID:             s.ID,
		Principal:      s.Key.Principal,
		URL:            s.Key.URL,
		Name:           s.Key.Name,
		Arguments:      s.Key.Arguments,
		Secret:         s.Secret.Reveal(),
		PreviousSecret: s.PreviousSecret.Reveal(),
		PreviousUntil:  s.PreviousUntil,
		Cursor:         s.Cursor,
		RefreshBefore:  s.Grant.RefreshBefore,
		Status: storedStatus{
			Suspended: st.Suspended, LastDeliveryAt: st.LastDeliveryAt, LastError: string(st.LastError),
			FailedSince: st.FailedSince, WindowStart: st.WindowStart,
			WindowAttempts: st.WindowAttempts, WindowFailures: st.WindowFailures,
		},
	})
	if err != nil {
		return nil, fmt.Errorf("mcp/redis: encoding webhook subscription %s: %w", s.ID, err)
	}
	if len(data) > limit {
		return nil, fmt.Errorf("mcp/redis: webhook subscription %s is %d bytes encoded, over the limit of %d", s.ID, len(data), limit)
	}
	return data, nil
}

// decodeSubscription reads the stored form of the subscription id, which
// it checks as it would input from the network: at most limit bytes, the
// known format, an id that is its key's, secrets that parse, a known error
// category and counts that are not negative.
func decodeSubscription(id string, data []byte, limit int) (*webhook.Subscription, error) {
	if len(data) > limit {
		return nil, fmt.Errorf("mcp/redis: stored webhook subscription %s is %d bytes, over the limit of %d", id, len(data), limit)
	}
	var st storedSubscription
	if err := strictjson.Unmarshal(data, &st); err != nil {
		return nil, fmt.Errorf("mcp/redis: decoding webhook subscription %s: %w", id, err)
	}
	bad := func(format string, args ...any) error {
		return fmt.Errorf("mcp/redis: stored webhook subscription %s: "+format, append([]any{id}, args...)...)
	}
	if st.Format != webhookFormat {
		return nil, bad("format %d, want %d", st.Format, webhookFormat)
	}
	key := webhook.Key{Principal: st.Principal, URL: st.URL, Name: st.Name, Arguments: st.Arguments}
	if st.ID != id || key.ID() != id {
		return nil, bad("its id or key does not match the id it is stored under")
	}
	s := &webhook.Subscription{ID: id, Key: key, PreviousUntil: st.PreviousUntil, Cursor: st.Cursor,
		Grant: webhook.Grant{RefreshBefore: st.RefreshBefore}}
	var err error
	if s.Secret, err = parseStoredSecret(st.Secret); err != nil {
		return nil, bad("secret: %w", err)
	}
	if s.PreviousSecret, err = parseStoredSecret(st.PreviousSecret); err != nil {
		return nil, bad("previous secret: %w", err)
	}
	ss := st.Status
	if !knownCategories[webhook.Category(ss.LastError)] {
		return nil, bad("unknown error category %.40q", ss.LastError)
	}
	if ss.WindowAttempts < 0 || ss.WindowFailures < 0 || ss.WindowFailures > ss.WindowAttempts {
		return nil, bad("delivery counts %d attempts, %d failures", ss.WindowAttempts, ss.WindowFailures)
	}
	s.Status = webhook.DeliveryStatus{
		Suspended: ss.Suspended, LastDeliveryAt: ss.LastDeliveryAt, LastError: webhook.Category(ss.LastError),
		FailedSince: ss.FailedSince, WindowStart: ss.WindowStart,
		WindowAttempts: ss.WindowAttempts, WindowFailures: ss.WindowFailures,
	}
	return s, nil
}

// parseStoredSecret reads a stored secret: "" is the zero Secret.
func parseStoredSecret(text string) (webhook.Secret, error) {
	if text == "" {
		return webhook.Secret{}, nil
	}
	return webhook.ParseSecret(text)
}
