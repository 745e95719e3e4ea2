package webhook

import (
	"bytes"
	"context"
	"crypto/tls"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"net"
	"net/http"
	"net/netip"
	"net/url"
	"slices"
	"strconv"
	"sync"
	"time"
)

// MaxBodyBytes is the largest body a Sender delivers: 256 KiB, the limit
// of the events extension and of ChatGPT's profile.
const MaxBodyBytes = 256 << 10

// Defaults of SenderOptions, in the ranges the events extension suggests
// (3 to 5 attempts over at most 10 to 15 minutes, about 5 s per attempt).
const (
	DefaultMaxAttempts    = 5
	DefaultInitialBackoff = 30 * time.Second
	DefaultMaxBackoff     = 5 * time.Minute
	DefaultMaxElapsed     = 15 * time.Minute
	DefaultAttemptTimeout = 5 * time.Second
)

// drainLimit is how much of a response body a Sender reads (and discards)
// so that the connection can be reused.
const drainLimit = 4 << 10

// SenderOptions configure a Sender. The zero value gives the defaults.
type SenderOptions struct {
	// MaxAttempts bounds the attempts of one delivery (default 5).
	MaxAttempts int
	// InitialBackoff is the wait before the second attempt; each later
	// wait doubles, up to MaxBackoff, less a random jitter of up to 20%
	// (defaults 30 s and 5 min).
	InitialBackoff, MaxBackoff time.Duration
	// MaxElapsed bounds the time from a delivery's first attempt to the
	// start of its last (default 15 min).
	MaxElapsed time.Duration
	// AttemptTimeout bounds each attempt, from resolving the host to the
	// end of the response headers (default 5 s).
	AttemptTimeout time.Duration
	// Resolver looks up callback hosts (default net.DefaultResolver).
	Resolver Resolver
	// TLSConfig is the TLS configuration of deliveries (default: the
	// system's roots). It is cloned; ServerName is set per delivery from
	// the URL's host.
	TLSConfig *tls.Config
	// UserAgent is the User-Agent of deliveries (default "gomcp-webhook").
	UserAgent string
	// InsecureAllowPrivateAndHTTP turns off the protection against
	// server-side request forgery: deliveries may then go to loopback,
	// private, link-local and every other address, and to plain http
	// URLs. It is for tests and for deployments where every subscriber is
	// trusted; a server open to untrusted subscribers must not set it,
	// since it lets them make the server POST into its own network.
	// Redirects are never followed either way.
	InsecureAllowPrivateAndHTTP bool
	// ChallengesPerHost bounds the verification challenges sent to one
	// host per minute (default DefaultChallengesPerHost; negative for no
	// limit). Challenges beyond it fail with ErrChallengeRateLimited.
	ChallengesPerHost int
	// Now is the clock of timestamps, backoff deadlines and the challenge
	// limit (default time.Now).
	Now func() time.Time
}

// A Sender delivers signed webhook messages to subscribers' endpoints: it
// signs every attempt afresh, retries with exponential backoff, never
// follows redirects, and by default refuses any endpoint that is not
// https or does not resolve to a globally routable address, checking the
// address at every delivery and connecting only to the address it checked.
// A Sender is safe for concurrent use; its connections are reused across
// deliveries to the same host.
type Sender struct {
	maxAttempts    int
	initialBackoff time.Duration
	maxBackoff     time.Duration
	maxElapsed     time.Duration
	attemptTimeout time.Duration
	userAgent      string
	insecure       bool
	now            func() time.Time
	resolver       Resolver
	dialer         *net.Dialer
	transport      *http.Transport
	challenges     challengeLimiter

	// allowForTest, when set, lets the package's tests reach the addresses
	// it accepts without turning the whole protection off.
	allowForTest func(netip.Addr) bool

	receiverDocs receiverDocCache // receiver documents, by origin

	originsMu      sync.RWMutex
	allowedOrigins map[string]bool // canonical origins AllowOriginForTesting permitted
}

// NewSender returns a Sender with the given options (nil for the defaults).
func NewSender(opts *SenderOptions) *Sender {
	var o SenderOptions
	if opts != nil {
		o = *opts
	}
	s := &Sender{
		maxAttempts:    positive(o.MaxAttempts, DefaultMaxAttempts),
		initialBackoff: positive(o.InitialBackoff, DefaultInitialBackoff),
		maxBackoff:     positive(o.MaxBackoff, DefaultMaxBackoff),
		maxElapsed:     positive(o.MaxElapsed, DefaultMaxElapsed),
		attemptTimeout: positive(o.AttemptTimeout, DefaultAttemptTimeout),
		userAgent:      o.UserAgent,
		insecure:       o.InsecureAllowPrivateAndHTTP,
		now:            o.Now,
		resolver:       o.Resolver,
	}
	switch {
	case o.ChallengesPerHost > 0:
		s.challenges.max = o.ChallengesPerHost
	case o.ChallengesPerHost == 0:
		s.challenges.max = DefaultChallengesPerHost
	}
	if s.userAgent == "" {
		s.userAgent = "gomcp-webhook"
	}
	if s.now == nil {
		s.now = time.Now
	}
	if s.resolver == nil {
		s.resolver = net.DefaultResolver
	}
	tlsConf := &tls.Config{MinVersion: tls.VersionTLS12}
	if o.TLSConfig != nil {
		tlsConf = o.TLSConfig.Clone()
		tlsConf.ServerName = ""
	}
	s.dialer = &net.Dialer{Timeout: s.attemptTimeout, KeepAlive: 30 * time.Second, ControlContext: s.control}
	s.transport = &http.Transport{
		Proxy:               nil, // a proxy would connect to addresses nobody checked
		DialContext:         s.dialContext,
		TLSClientConfig:     tlsConf,
		TLSHandshakeTimeout: s.attemptTimeout,
		ForceAttemptHTTP2:   true,
		MaxIdleConnsPerHost: 16,
		IdleConnTimeout:     90 * time.Second,
		DisableCompression:  true,
	}
	return s
}

func positive[T int | int64 | time.Duration](v, def T) T {
	if v > 0 {
		return v
	}
	return def
}

// Close closes the Sender's idle connections. The Sender stays usable.
func (s *Sender) Close() { s.transport.CloseIdleConnections() }

// ErrBodyTooLarge is the error (tested with errors.Is) of a delivery whose
// body is larger than MaxBodyBytes; it is refused before any attempt.
var ErrBodyTooLarge = errors.New("webhook: body too large")

// A Delivery is one message for one subscription's endpoint.
type Delivery struct {
	// URL is the subscription's callback URL.
	URL string
	// SubscriptionID is the id the subscribe result gave, sent as
	// X-MCP-Subscription-Id.
	SubscriptionID string
	// ID is the webhook-id: the event's eventId, or NewEnvelopeID for an
	// envelope. Every attempt sends the same one.
	ID string
	// Body is the JSON body, sent as is: an EventOccurrence or an
	// envelope. At most MaxBodyBytes.
	Body []byte
	// Secrets sign the message: the current secret, then during a
	// rotation the previous one (Subscription.Secrets gives both).
	Secrets []Secret
}

// check returns an error for a Delivery that cannot be sent at all.
func (d *Delivery) check() error {
	switch {
	case len(d.Body) > MaxBodyBytes:
		return fmt.Errorf("%w: %d bytes, more than %d", ErrBodyTooLarge, len(d.Body), MaxBodyBytes)
	case d.ID == "":
		return fmt.Errorf("webhook: a delivery needs an id")
	case d.SubscriptionID == "":
		return fmt.Errorf("webhook: a delivery needs a subscription id")
	case !slices.ContainsFunc(d.Secrets, func(s Secret) bool { return !s.IsZero() }):
		return fmt.Errorf("webhook: a delivery needs a secret")
	}
	return nil
}

// A Receipt says how a delivery went, successful or not.
type Receipt struct {
	// Attempts is the number of attempts made.
	Attempts int
	// StatusCode is the HTTP status of the last response, or 0 if there
	// was none.
	StatusCode int
	// At is when the last attempt ended.
	At time.Time
}

// Deliver POSTs d to its endpoint until one attempt gets a 2xx answer, and
// returns nil then. Each attempt carries a fresh webhook-timestamp and
// signature and the same webhook-id. A failed attempt is retried after an
// exponential backoff, except after a 410 or a 413 answer, for at most
// MaxAttempts attempts started within MaxElapsed. A failure is a
// *DeliveryError whose Category is what deliveryStatus.lastError reports.
// A body larger than MaxBodyBytes fails with ErrBodyTooLarge, and a
// cancelled ctx ends the delivery with ctx's error; neither has a
// category.
func (s *Sender) Deliver(ctx context.Context, d *Delivery) (Receipt, error) {
	if err := d.check(); err != nil {
		return Receipt{}, err
	}
	u, err := s.CheckURL(d.URL)
	if err != nil {
		return Receipt{}, err
	}
	start := s.now()
	var rec Receipt
	for attempt := 1; ; attempt++ {
		rec.Attempts = attempt
		status, derr := s.attempt(ctx, u, d, nil)
		rec.At, rec.StatusCode = s.now(), status
		if derr == nil {
			return rec, nil
		}
		if ctx.Err() != nil {
			return rec, fmt.Errorf("webhook: delivery of %s stopped: %w", d.ID, ctx.Err())
		}
		derr.Attempts = attempt
		if !derr.retryable() || attempt >= s.maxAttempts {
			return rec, derr
		}
		wait := s.backoff(attempt)
		if s.now().Add(wait).Sub(start) > s.maxElapsed {
			return rec, derr
		}
		t := time.NewTimer(wait)
		select {
		case <-ctx.Done():
			t.Stop()
			return rec, fmt.Errorf("webhook: delivery of %s stopped: %w", d.ID, ctx.Err())
		case <-t.C:
		}
	}
}

// backoff is the wait after the given failed attempt.
func (s *Sender) backoff(attempt int) time.Duration {
	d := s.initialBackoff
	for i := 1; i < attempt && d < s.maxBackoff; i++ {
		d *= 2
	}
	d = min(d, s.maxBackoff)
	return d - time.Duration(rand.Int64N(int64(d)/5+1))
}

// attempt makes one signed POST of d to u and returns the status of the
// answer (0 if none). read, if not nil, reads the body of a 2xx answer and
// decides the outcome; otherwise the body is drained.
func (s *Sender) attempt(ctx context.Context, u *url.URL, d *Delivery, read func(*http.Response) *DeliveryError) (int, *DeliveryError) {
	ctx, cancel := context.WithTimeout(s.withOrigin(ctx, u), s.attemptTimeout)
	defer cancel()
	host := u.Hostname()
	ips, err := s.resolve(ctx, host)
	if err != nil {
		return 0, &DeliveryError{Category: transportCategory(err), err: err}
	}
	ctx = context.WithValue(ctx, resolvedKey{}, resolved{host: host, ips: ips})
	ts := strconv.FormatInt(s.now().Unix(), 10)
	req := (&http.Request{
		Method:        http.MethodPost,
		URL:           u,
		Host:          u.Host,
		Header:        make(http.Header, 6),
		Body:          io.NopCloser(bytes.NewReader(d.Body)),
		ContentLength: int64(len(d.Body)),
		GetBody: func() (io.ReadCloser, error) {
			return io.NopCloser(bytes.NewReader(d.Body)), nil
		},
		Proto: "HTTP/1.1", ProtoMajor: 1, ProtoMinor: 1,
	}).WithContext(ctx)
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("User-Agent", s.userAgent)
	req.Header.Set(HeaderID, d.ID)
	req.Header.Set(HeaderTimestamp, ts)
	req.Header.Set(HeaderSignature, signWith(d.ID, ts, d.Body, d.Secrets))
	req.Header.Set(HeaderSubscriptionID, d.SubscriptionID)
	resp, err := s.transport.RoundTrip(req)
	if err != nil {
		return 0, &DeliveryError{Category: transportCategory(err), err: err}
	}
	defer resp.Body.Close()
	if resp.StatusCode < 200 || resp.StatusCode > 299 {
		_, _ = io.CopyN(io.Discard, resp.Body, drainLimit)
		return resp.StatusCode, &DeliveryError{Category: statusCategory(resp.StatusCode), StatusCode: resp.StatusCode}
	}
	if read != nil {
		return resp.StatusCode, read(resp)
	}
	_, _ = io.CopyN(io.Discard, resp.Body, drainLimit)
	return resp.StatusCode, nil
}
