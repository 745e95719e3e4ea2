package webhook

import (
	"context"
	"crypto/subtle"
	"errors"
	"fmt"
	"io"
	"net/http"

	"github.com/gomcp/sdk/internal/strictjson"
)

// maxChallengeAnswer bounds the body of an answer to a challenge.
const maxChallengeAnswer = 4 << 10

// challengeEcho is the answer an endpoint gives a challenge.
type challengeEcho struct {
	Challenge string `json:"challenge"`
}

// Challenge confirms that the endpoint at url wants deliveries: it POSTs a
// verification envelope with a fresh single-use nonce, signed with secrets
// like any delivery, and succeeds if the endpoint answers 2xx with
// {"challenge":"<nonce>"}, compared in constant time. It makes one attempt,
// and at most SenderOptions.ChallengesPerHost a minute to one host.
// A failure is a *DeliveryError whose Category is the CallbackEndpointError
// reason: challenge_failed (a non-2xx answer, or no echo), or
// connection_refused, timeout or tls_error.
func (s *Sender) Challenge(ctx context.Context, url, subscriptionID string, secrets []Secret) error {
	nonce := randomToken(24)
	body, err := strictjson.Marshal(verificationEnvelope{Type: EnvelopeVerification, Challenge: nonce})
	if err != nil {
		return fmt.Errorf("webhook: encoding a challenge: %w", err)
	}
	d := &Delivery{URL: url, SubscriptionID: subscriptionID, ID: NewEnvelopeID(EnvelopeVerification), Body: body, Secrets: secrets}
	if err := d.check(); err != nil {
		return err
	}
	u, err := s.CheckURL(url)
	if err != nil {
		return err
	}
	if !s.challenges.allow(u.Hostname(), s.now()) {
		return fmt.Errorf("%w: %s", ErrChallengeRateLimited, u.Hostname())
	}
	_, derr := s.attempt(ctx, u, d, func(resp *http.Response) *DeliveryError {
		b, err := io.ReadAll(io.LimitReader(resp.Body, maxChallengeAnswer+1))
		if err != nil {
			cat := transportCategory(err)
			if cat != CategoryTimeout {
				cat = CategoryChallengeFailed
			}
			return &DeliveryError{Category: cat, StatusCode: resp.StatusCode, err: err}
		}
		var echo challengeEcho
		switch {
		case len(b) > maxChallengeAnswer:
			err = fmt.Errorf("the answer is longer than %d bytes", maxChallengeAnswer)
		case strictjson.Unmarshal(b, &echo) != nil:
			err = errors.New("the answer is not a JSON object")
		case subtle.ConstantTimeCompare([]byte(echo.Challenge), []byte(nonce)) != 1:
			err = errors.New("the answer does not echo the challenge")
		}
		if err != nil {
			return &DeliveryError{Category: CategoryChallengeFailed, StatusCode: resp.StatusCode, err: err}
		}
		return nil
	})
	if derr == nil {
		return nil
	}
	derr.Attempts = 1
	if derr.Category == CategoryHTTP4xx || derr.Category == CategoryHTTP5xx {
		derr.Category = CategoryChallengeFailed
	}
	if ctx.Err() != nil {
		return fmt.Errorf("webhook: challenge stopped: %w", ctx.Err())
	}
	return derr
}

// VerifyEndpoint makes sure the endpoint url is verified for principal
// before a first delivery: if the registry holds a verification of
// (principal, url), it returns at once; otherwise it runs Challenge and
// records success in the registry. A server calls it in events/subscribe
// (its error then becomes a CallbackEndpointError whose data.reason is
// CategoryOf(err)) or before the first delivery of a new subscription.
func VerifyEndpoint(ctx context.Context, s *Sender, reg Registry, principal, url, subscriptionID string, secrets []Secret) error {
	at, err := reg.Verification(ctx, principal, url)
	if err != nil {
		return fmt.Errorf("webhook: reading the verification of %s: %w", url, err)
	}
	if !at.IsZero() {
		return nil
	}
	if err := s.Challenge(ctx, url, subscriptionID, secrets); err != nil {
		return err
	}
	if err := reg.SetVerification(ctx, principal, url, s.now()); err != nil {
		return fmt.Errorf("webhook: recording the verification of %s: %w", url, err)
	}
	return nil
}
