package jsonrpc2

import (
	"context"
	"sync"
)

// NewPipe returns two connected in-memory Streams: what one writes, the
// other reads. Messages pass as values, without encoding, so the in-memory
// transport costs no serialization of the envelope. Closing either end
// closes both.
func NewPipe() (Stream, Stream) {
	shared := &pipeState{done: make(chan struct{})}
	a2b := make(chan Message, 4)
	b2a := make(chan Message, 4)
	return &pipeEnd{in: b2a, out: a2b, state: shared}, &pipeEnd{in: a2b, out: b2a, state: shared}
}

type pipeState struct {
	once sync.Once
	done chan struct{}
}

type pipeEnd struct {
	in    <-chan Message
	out   chan<- Message
	state *pipeState
}

func (p *pipeEnd) Read(ctx context.Context) (Message, error) {
	select {
	case msg := <-p.in:
		return msg, nil
	case <-p.state.done:
		// Deliver what was written before the close.
		select {
		case msg := <-p.in:
			return msg, nil
		default:
			return nil, ErrClosed
		}
	case <-ctx.Done():
		return nil, ctx.Err()
	}
}

func (p *pipeEnd) Write(ctx context.Context, msg Message) error {
	select {
	case <-p.state.done:
		return ErrClosed
	default:
	}
	select {
	case p.out <- msg:
		return nil
	case <-p.state.done:
		return ErrClosed
	case <-ctx.Done():
		return ctx.Err()
	}
}

func (p *pipeEnd) Close() error {
	p.state.once.Do(func() { close(p.state.done) })
	return nil
}
