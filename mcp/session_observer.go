package mcp

// Session lifecycle events, for telemetry such as session-duration
// metrics.

// AddSessionObserver registers observe to be told of the server's
// sessions: it is called when a session starts (a connection is made with
// Connect or Run, or a streamable HTTP session has completed initialize)
// and may return a function to call when that session ends, with the
// reason (nil when the client disconnected or the session was closed).
// Stateless 2026-07-28 requests over HTTP have no session and are not
// observed. Sessions that started before the call are not reported.
func (s *Server) AddSessionObserver(observe func(*ServerSession) (ended func(error))) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.observers = append(s.observers, observe)
}

// sessionStarted tells the observers that ss started.
func (s *Server) sessionStarted(ss *ServerSession) {
	s.mu.Lock()
	observers := s.observers
	s.mu.Unlock()
	for _, observe := range observers {
		if end := observe(ss); end != nil {
			ss.mu.Lock()
			ss.ended = append(ss.ended, end)
			ss.mu.Unlock()
		}
	}
}

// sessionEnded calls the end functions of ss's observers, once.
func (ss *ServerSession) sessionEnded() {
	ss.mu.Lock()
	ended := ss.ended
	ss.ended = nil
	ss.mu.Unlock()
	if len(ended) == 0 {
		return
	}
	err := connErr(ss.conn)
	for _, end := range ended {
		end(err)
	}
}

// AddSessionObserver registers observe to be told of the client's
// sessions: it is called when a session has settled its protocol (Connect
// succeeded) and may return a function to call when that session ends,
// with the reason (nil when it was closed normally). Sessions that started
// before the call are not reported.
func (c *Client) AddSessionObserver(observe func(*ClientSession) (ended func(error))) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.observers = append(c.observers, observe)
}

// sessionStarted tells the observers that cs started.
func (c *Client) sessionStarted(cs *ClientSession) {
	c.mu.Lock()
	observers := c.observers
	c.mu.Unlock()
	for _, observe := range observers {
		if end := observe(cs); end != nil {
			cs.mu.Lock()
			cs.ended = append(cs.ended, end)
			cs.mu.Unlock()
		}
	}
}

// sessionEnded calls the end functions of cs's observers, once.
func (cs *ClientSession) sessionEnded() {
	cs.mu.Lock()
	ended := cs.ended
	cs.ended = nil
	cs.mu.Unlock()
	if len(ended) == 0 {
		return
	}
	err := connErr(cs.conn)
	for _, end := range ended {
		end(err)
	}
}

// connErr returns why a connection ended, if it says.
func connErr(conn any) error {
	if c, ok := conn.(interface{ Err() error }); ok {
		return c.Err()
	}
	return nil
}
