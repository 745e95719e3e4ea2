package bench

import (
	"errors"
	"os"
)

// A PipeEnd is one end of a bidirectional stream made of two os.Pipe, the
// way a parent and a child process talk over stdin and stdout.
type PipeEnd struct {
	// R reads what the other end writes.
	R *os.File
	// W writes what the other end reads.
	W *os.File
}

// Read reads from the other end.
func (p *PipeEnd) Read(b []byte) (int, error) { return p.R.Read(b) }

// Write writes to the other end.
func (p *PipeEnd) Write(b []byte) (int, error) { return p.W.Write(b) }

// Close closes both files of this end; the other end then reads io.EOF.
func (p *PipeEnd) Close() error {
	return errors.Join(p.W.Close(), p.R.Close())
}

// NewPipePair returns the two ends of a new bidirectional os.Pipe stream.
func NewPipePair() (server, client *PipeEnd, err error) {
	r1, w1, err := os.Pipe()
	if err != nil {
		return nil, nil, err
	}
	r2, w2, err := os.Pipe()
	if err != nil {
		r1.Close()
		w1.Close()
		return nil, nil, err
	}
	return &PipeEnd{R: r1, W: w2}, &PipeEnd{R: r2, W: w1}, nil
}
