package mcp

import (
	"context"
	"errors"
	"log/slog"
	"time"
)

// cancelledNotificationTimeout bounds the sending of one
// notifications/cancelled.
const cancelledNotificationTimeout = 5 * time.Second

// sendCancelledNotification tells the peer, with notifications/cancelled,
// that a request this side sent is cancelled. It sends on a goroutine of
// its own, within cancelledNotificationTimeout: the cancelled call returns
// at once, and a slow transport (a POST that takes a while on a busy
// peer) still gets time to deliver what lets the peer stop its work.
// Failures are logged at debug level: the peer then finishes the request
// and its answer is dropped.
func sendCancelledNotification(logger *slog.Logger, notify func(ctx context.Context, method string, params any) error, params *CancelledParams) {
	go func() {
		ctx, cancel := context.WithTimeout(context.Background(), cancelledNotificationTimeout)
		defer cancel()
		if err := notify(ctx, NotificationCancelled, params); err != nil && !errors.Is(err, ErrConnectionClosed) {
			logger.Debug("mcp: sending notifications/cancelled failed", "error", err)
		}
	}()
}
