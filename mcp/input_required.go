package mcp

import (
	"bytes"
	"context"
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"slices"
	"strconv"
	"sync"
	"time"

	"github.com/gomcp/sdk/internal/strictjson"
)

// DefaultRequestStateTTL is how long a requestState issued with an
// input-required result stays valid when ServerOptions.RequestStateTTL is
// zero.
const DefaultRequestStateTTL = 10 * time.Minute

// errInputRequired ends a handler that asked the client for input in the
// 2026-07-28 era: the SDK answers the request with an input-required result
// and the client retries it with the answer. Handlers should return the
// error they get from Elicit, CreateMessage or ListRoots unchanged.
var errInputRequired = errors.New("mcp: input required from the client; return this error from the handler")

// inputState is the per-request state of the multi round-trip pattern:
// answers gathered so far and the requests still open.
type inputState struct {
	active  bool // set while a request is being served
	mu      sync.Mutex
	answers map[string]json.RawMessage
	pending map[string]*InputRequest
	asked   int
	task    *taskRun // the task the request's tool call may become (task_run.go)
}

// ask returns the client's answer to the n-th input request of this
// handler run, or records the request and returns errInputRequired. Keys are
// positional, so a handler must ask the same questions in the same order
// each time it runs for a request.
func (st *inputState) ask(key, method string, params, result any) error {
	st.mu.Lock()
	defer st.mu.Unlock()
	st.asked++
	if key == "" {
		key = "input-" + strconv.Itoa(st.asked)
	}
	if raw, ok := st.answers[key]; ok {
		if err := strictjson.Unmarshal(raw, result); err != nil {
			return newError(CodeInvalidParams, "inputResponses[%q] is not a valid %s result: %v", key, method, err)
		}
		return nil
	}
	if st.pending == nil {
		st.pending = make(map[string]*InputRequest)
	}
	st.pending[key] = &InputRequest{Method: method, Params: params}
	return errInputRequired
}

// stateKey returns the server's HMAC key for requestState.
func (s *Server) stateKey() []byte {
	s.stateKeyOnce.Do(func() {
		if len(s.opts.RequestStateKey) > 0 {
			s.stateKeyBytes = s.opts.RequestStateKey
			return
		}
		s.stateKeyBytes = make([]byte, 32)
		_, _ = rand.Read(s.stateKeyBytes) // crypto/rand.Read never returns an error (it aborts the program instead)
	})
	return s.stateKeyBytes
}

// requestStatePayload is what a requestState carries, signed: the
// answers gathered so far, and the keys of the input requests the server
// issued with it, the only ones the client may answer on the retry.
type requestStatePayload struct {
	Method  string                     `json:"m"`
	Digest  string                     `json:"d"`
	Expires int64                      `json:"e"`
	Answers map[string]json.RawMessage `json:"a,omitempty"`
	Asked   []string                   `json:"q,omitempty"`
}

// sealState encodes and signs the answers gathered for a request and the
// keys of the input requests issued with it.
func (s *Server) sealState(method, digest string, answers map[string]json.RawMessage, asked []string) (string, error) {
	ttl := s.opts.RequestStateTTL
	if ttl <= 0 {
		ttl = DefaultRequestStateTTL
	}
	body, err := strictjson.Marshal(&requestStatePayload{Method: method, Digest: digest, Expires: time.Now().Add(ttl).UnixMilli(), Answers: answers, Asked: asked})
	if err != nil {
		return "", err
	}
	mac := hmac.New(sha256.New, s.stateKey())
	mac.Write(body)
	return base64.RawURLEncoding.EncodeToString(body) + "." + base64.RawURLEncoding.EncodeToString(mac.Sum(nil)), nil
}

// openState verifies a requestState and returns what it carries.
func (s *Server) openState(state, method, digest string) (*requestStatePayload, error) {
	invalid := func(why string) error {
		return newError(CodeInvalidParams, "invalid requestState: %s", why)
	}
	b64body, b64mac, ok := bytes.Cut([]byte(state), []byte("."))
	if !ok {
		return nil, invalid("malformed")
	}
	body, err1 := base64.RawURLEncoding.DecodeString(string(b64body))
	sig, err2 := base64.RawURLEncoding.DecodeString(string(b64mac))
	if err1 != nil || err2 != nil {
		return nil, invalid("malformed")
	}
	if !s.stateMACOK(body, sig) { // the current key or a previous one
		return nil, invalid("signature does not match (tampered, or issued by another server)")
	}
	var p requestStatePayload
	if err := strictjson.Unmarshal(body, &p); err != nil {
		return nil, invalid("malformed")
	}
	if time.Now().UnixMilli() > p.Expires {
		return nil, invalid("expired")
	}
	if p.Method != method || p.Digest != digest {
		return nil, invalid("issued for a different request")
	}
	return &p, nil
}

// paramsDigest hashes the salient params of a request: everything but
// _meta, inputResponses and requestState.
func paramsDigest(params any) string {
	rv := reflect.ValueOf(params)
	if rv.Kind() != reflect.Pointer || rv.IsNil() {
		return ""
	}
	c := reflect.New(rv.Elem().Type())
	c.Elem().Set(rv.Elem())
	cp := c.Interface()
	if m := metaOf(cp); m != nil {
		*m = Meta{}
	}
	if f := structField(cp, "InputResponses", inputResponsesType); f.IsValid() {
		f.SetZero()
	}
	if f := structField(cp, "RequestState", stringType); f.IsValid() {
		f.SetString("")
	}
	b, _ := strictjson.Marshal(cp)
	sum := sha256.Sum256(b)
	return base64.RawURLEncoding.EncodeToString(sum[:16])
}

var inputResponsesType = reflect.TypeFor[map[string]json.RawMessage]()

// beginInput prepares a modern request for the multi round-trip pattern:
// it verifies the echoed requestState and gathers the answers.
//
// The client's inputResponses count only for the input requests the
// server issued with that requestState, and never replace an answer
// sealed in it: a client cannot answer a question the server did not ask
// or rewrite an earlier answer. Other responses are ignored, as the
// multi round-trip pattern asks of servers for data they did not request.
func (ss *ServerSession) beginInput(method string, params any) error {
	st := &ss.request.input
	st.active = true
	responses, state := inputOf(params)
	if state == "" {
		return nil // nothing was asked: any inputResponses are unsolicited
	}
	sealed, err := ss.server.openState(state, method, paramsDigest(params))
	if err != nil {
		return err
	}
	st.answers = make(map[string]json.RawMessage, len(sealed.Answers)+len(sealed.Asked))
	for k, v := range sealed.Answers {
		st.answers[k] = v
	}
	for _, k := range sealed.Asked {
		if v, ok := responses[k]; ok {
			if _, done := st.answers[k]; !done {
				st.answers[k] = v
			}
		}
	}
	return nil
}

// inputOf returns the input responses and request state of a retried
// request's params: directly for tools/call, the hot path, and by
// reflection for the other methods that may carry them.
func inputOf(params any) (map[string]json.RawMessage, string) {
	if p, ok := params.(*CallToolParams); ok && p != nil {
		return p.InputResponses, p.RequestState
	}
	var responses map[string]json.RawMessage
	if f := structField(params, "InputResponses", inputResponsesType); f.IsValid() {
		responses = f.Interface().(map[string]json.RawMessage)
	}
	state := ""
	if f := structField(params, "RequestState", stringType); f.IsValid() {
		state = f.String()
	}
	return responses, state
}

// inputRequired builds the input-required result for the requests a
// handler left open.
func (ss *ServerSession) inputRequired(method string, params any) (*InputRequiredResult, error) {
	st := &ss.request.input
	asked := make([]string, 0, len(st.pending))
	for k := range st.pending {
		asked = append(asked, k)
	}
	slices.Sort(asked)
	state, err := ss.server.sealState(method, paramsDigest(params), st.answers, asked)
	if err != nil {
		return nil, fmt.Errorf("mcp: sealing requestState: %w", err)
	}
	return &InputRequiredResult{ResultType: "input_required", InputRequests: st.pending, RequestState: state}, nil
}

// serverAsk sends a server-to-client request: directly in the legacy era,
// through an input-required result in 2026-07-28. rc is the request's
// sending context, nil without sending middleware.
func serverAsk[P, R any](ctx context.Context, ss *ServerSession, rc *requestContext, method string, params *P) (*R, error) {
	if params == nil {
		params = new(P)
	}
	res := new(R)
	if ss.request != nil {
		if !ss.request.input.active {
			return nil, fmt.Errorf("%w: %s cannot be asked outside a request", ErrNotSupported, method)
		}
		key, _ := ctx.Value(inputKeyContextKey{}).(string)
		if t := ss.request.input.task; t != nil && t.running() {
			// The call runs as a task: wait for tasks/update (task_run.go).
			if err := t.ask(ctx, key, method, params, res); err != nil {
				return nil, err
			}
			return res, nil
		}
		if err := ss.request.input.ask(key, method, params, res); err != nil {
			return nil, err
		}
		return res, nil
	}
	if err := ss.call(ctx, rc, method, params, res); err != nil {
		return nil, err
	}
	return res, nil
}

// missingCapability reports a client capability a request needs: -32021 in
// 2026-07-28, ErrNotSupported before.
func (ss *ServerSession) missingCapability(what string, required *ClientCapabilities) error {
	if ss.request != nil {
		return newErrorWithData(CodeMissingRequiredClientCapability,
			"the client did not declare the "+what+" capability this request needs",
			&MissingCapabilitiesData{RequiredCapabilities: required})
	}
	return fmt.Errorf("%w: the client did not declare the %s capability", ErrNotSupported, what)
}

type inputKeyContextKey struct{}

// InputKey names the input request that Elicit, CreateMessage or ListRoots
// makes when called with the returned context. In 2026-07-28 the name is
// the key of the request in the input-required result's inputRequests and
// of the client's answer in inputResponses. Without a name the SDK numbers
// input requests by their order in the handler. Names must be unique
// within one request's handler.
func InputKey(ctx context.Context, key string) context.Context {
	return context.WithValue(ctx, inputKeyContextKey{}, key)
}

// IsInputRequired reports whether err ends a handler, or a server-to-client
// request (Elicit, CreateMessage, ListRoots), that in protocol 2026-07-28
// was answered with an input-required result rather than an error: the
// client answers the question and retries the request. Middleware that
// observes outcomes, such as telemetry, uses it to tell this from a
// failure.
func IsInputRequired(err error) bool { return errors.Is(err, errInputRequired) }

// stateMACOK reports whether sig is the HMAC-SHA256 of body under the
// server's current requestState key or one of its previous keys
// (ServerOptions.PreviousRequestStateKeys), so that every instance behind
// a load balancer verifies what any instance minted, and keys can rotate
// without failing the retries in progress. States are minted with the
// current key only; their expiry bounds how long a previous key matters.
func (s *Server) stateMACOK(body, sig []byte) bool {
	if macEqual(s.stateKey(), body, sig) {
		return true
	}
	for _, k := range s.opts.PreviousRequestStateKeys {
		if len(k) > 0 && macEqual(k, body, sig) {
			return true
		}
	}
	return false
}

func macEqual(key, body, sig []byte) bool {
	mac := hmac.New(sha256.New, key)
	mac.Write(body)
	return hmac.Equal(sig, mac.Sum(nil))
}
