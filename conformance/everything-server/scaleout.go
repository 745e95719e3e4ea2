package main

import (
	"encoding/hex"
	"errors"
	"fmt"

	goredis "github.com/redis/go-redis/v9"

	"github.com/gomcp/sdk/mcp"
	"github.com/gomcp/sdk/redis"
)

// scaleOut is what -redis and -state-key configure: the state every
// instance of the server shares, so that any number of instances behind a
// load balancer serve as one. A nil *scaleOut changes nothing.
type scaleOut struct {
	client  *goredis.Client
	backend *redis.Backend
	key     []byte
}

// newScaleOut parses the flags; it returns nil when neither is set.
func newScaleOut(redisURL, keyHex string) (*scaleOut, error) {
	if redisURL == "" && keyHex == "" {
		return nil, nil
	}
	s := &scaleOut{}
	if keyHex != "" {
		key, err := hex.DecodeString(keyHex)
		if err != nil {
			return nil, fmt.Errorf("-state-key: not hex: %w", err)
		}
		if len(key) < 32 {
			return nil, fmt.Errorf("-state-key: %d bytes, want at least 32", len(key))
		}
		s.key = key
	}
	if redisURL == "" {
		return s, nil
	}
	if s.key == nil {
		return nil, errors.New("-redis needs -state-key: every instance must verify the requestState any other minted")
	}
	opts, err := goredis.ParseURL(redisURL)
	if err != nil {
		return nil, fmt.Errorf("-redis: %w", err)
	}
	s.client = goredis.NewClient(opts)
	s.backend = redis.New(s.client, nil)
	return s, nil
}

// tuneServer sets the server's shared requestState key, event bus and
// task store.
func (s *scaleOut) tuneServer(o *mcp.ServerOptions) {
	if s == nil {
		return
	}
	o.RequestStateKey = s.key
	if s.backend == nil {
		return
	}
	o.EventBus = s.backend.EventBus()
	tasks := mcp.TaskOptions{}
	if o.Tasks != nil {
		tasks = *o.Tasks
	}
	tasks.Store = s.backend.TaskStore()
	o.Tasks = &tasks
}

// tuneHandler sets the handler's shared session store, router and event
// store.
func (s *scaleOut) tuneHandler(o *mcp.StreamableHTTPOptions) *mcp.StreamableHTTPOptions {
	if s == nil || s.backend == nil {
		return o
	}
	o.SessionStore = s.backend.SessionStore()
	o.SessionRouter = s.backend.SessionRouter()
	o.EventStore = s.backend.EventStore()
	return o
}

func (s *scaleOut) close() {
	if s == nil || s.backend == nil {
		return
	}
	_ = s.backend.Close()
	_ = s.client.Close()
}
