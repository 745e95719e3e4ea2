package webhook

import (
	"fmt"
	"time"

	"github.com/gomcp/sdk/internal/strictjson"
)

// Suspension thresholds: a subscription whose deliveries failed more than
// 95% of the time over a window of an hour with at least 100 attempts is
// suspended until its next refresh (the guidance of the events extension).
const (
	suspendWindow      = time.Hour
	suspendMinAttempts = 100
	suspendFailPercent = 95
)

// A DeliveryStatus is the delivery bookkeeping of one subscription: what a
// refresh reports as deliveryStatus, plus the counts of the current window
// that decide suspension.
type DeliveryStatus struct {
	// Suspended reports that delivery is suspended (active: false) after
	// sustained failure; Reactivate, on a refresh, resumes it.
	Suspended bool
	// LastDeliveryAt is when the last delivery ended, successful or not
	// (zero if none).
	LastDeliveryAt time.Time
	// LastError is the category of the last delivery if it failed, and
	// "" if it succeeded.
	LastError Category
	// FailedSince is when the current run of failures began (zero after a
	// success).
	FailedSince time.Time
	// WindowStart, WindowAttempts and WindowFailures count the deliveries
	// of the current hour.
	WindowStart                    time.Time
	WindowAttempts, WindowFailures int
}

// Active reports whether deliveries go out.
func (s *DeliveryStatus) Active() bool { return !s.Suspended }

// Record counts a delivery that ended at at with err (nil for success) and
// reports whether it changed the status. Errors without a category (a
// cancelled context, a body too large) are not outcomes of the endpoint and
// change nothing.
func (s *DeliveryStatus) Record(at time.Time, err error) bool {
	var cat Category
	if err != nil {
		if cat = CategoryOf(err); cat == "" {
			return false
		}
	}
	if s.WindowStart.IsZero() || at.Sub(s.WindowStart) >= suspendWindow || at.Before(s.WindowStart) {
		s.WindowStart, s.WindowAttempts, s.WindowFailures = at, 0, 0
	}
	s.WindowAttempts++
	s.LastDeliveryAt, s.LastError = at, cat
	if cat == "" {
		s.FailedSince = time.Time{}
		return true
	}
	s.WindowFailures++
	if s.FailedSince.IsZero() {
		s.FailedSince = at
	}
	if s.WindowAttempts >= suspendMinAttempts && s.WindowFailures*100 > s.WindowAttempts*suspendFailPercent {
		s.Suspended = true
	}
	return true
}

// Reactivate resumes a suspended subscription, as a refresh does, and
// starts a new window.
func (s *DeliveryStatus) Reactivate() {
	s.Suspended = false
	s.WindowStart, s.WindowAttempts, s.WindowFailures = time.Time{}, 0, 0
}

// deliveryStatusJSON is the wire form of a DeliveryStatus.
type deliveryStatusJSON struct {
	Active         bool    `json:"active"`
	LastDeliveryAt *string `json:"lastDeliveryAt,omitempty"`
	LastError      *string `json:"lastError"`
	FailedSince    *string `json:"failedSince,omitempty"`
}

// MarshalJSON writes the deliveryStatus of a subscribe result: active,
// lastDeliveryAt (when there was a delivery), lastError (null after a
// success) and failedSince (during a run of failures).
func (s DeliveryStatus) MarshalJSON() ([]byte, error) {
	w := deliveryStatusJSON{Active: !s.Suspended}
	if !s.LastDeliveryAt.IsZero() {
		t := formatTime(s.LastDeliveryAt)
		w.LastDeliveryAt = &t
	}
	if s.LastError != "" {
		e := string(s.LastError)
		w.LastError = &e
	}
	if !s.FailedSince.IsZero() {
		t := formatTime(s.FailedSince)
		w.FailedSince = &t
	}
	return strictjson.Marshal(w)
}

// UnmarshalJSON reads a deliveryStatus as a client receives it: active,
// lastDeliveryAt, lastError and failedSince (the window counts stay zero).
func (s *DeliveryStatus) UnmarshalJSON(b []byte) error {
	var w deliveryStatusJSON
	if err := strictjson.Unmarshal(b, &w); err != nil {
		return fmt.Errorf("webhook: deliveryStatus: %w", err)
	}
	*s = DeliveryStatus{Suspended: !w.Active}
	parse := func(p *string, into *time.Time) error {
		if p == nil {
			return nil
		}
		t, err := time.Parse(time.RFC3339Nano, *p)
		if err != nil {
			return fmt.Errorf("webhook: deliveryStatus: %w", err)
		}
		*into = t
		return nil
	}
	if w.LastError != nil {
		s.LastError = Category(*w.LastError)
	}
	if err := parse(w.LastDeliveryAt, &s.LastDeliveryAt); err != nil {
		return err
	}
	return parse(w.FailedSince, &s.FailedSince)
}
