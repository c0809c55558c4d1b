/**
 * The Go package `idlrpc` written beside the generated packages: the JSON-RPC transport (calls,
 * batches, Server-Sent Events streams), the errors, and the check of answers against the IDL that
 * every generated package shares. Standard library only; it builds with Go 1.19.
 */

/** The source of `idlrpc/idlrpc.go` after its generated header. */
export const GO_RUNTIME_SOURCE = `// Package idlrpc is the JSON-RPC 2.0 client transport that the packages idlrpc generates share:
// calls, batches and streams over HTTP, the errors they return, and the check of every answer
// against the IDL.
package idlrpc

import (
	"bufio"
	"bytes"
	"context"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"net/http"
	"reflect"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"
)

// ContractHeader is the request header that carries the contract fingerprint of the interface a
// client was generated from, so that a server can tell clients of another version.
const ContractHeader = "x-idlrpc-contract"

// Error codes of JSON-RPC 2.0 and of this protocol.
const (
	CodeParseError       = -32700
	CodeInvalidRequest   = -32600
	CodeMethodNotFound   = -32601
	CodeInvalidParams    = -32602
	CodeInternalError    = -32603
	CodeTransportError   = -32000
	CodeContractMismatch = -32001
)

// DefaultTimeout bounds each call (and the wait for a stream's first answer) unless WithTimeout says otherwise.
const DefaultTimeout = 30 * time.Second

// DefaultMaxResponseBytes bounds the body of an answer (and each event of a stream).
const DefaultMaxResponseBytes int64 = 64 << 20

// RPCError is an error answer of the server (its code, message and data), or a -32000 transport
// error of the client: an HTTP status other than 2xx, a body that is no JSON-RPC answer, a result
// that does not match the IDL, a network error, a timeout.
type RPCError struct {
	Code    int
	Message string
	// Data is the error's data as the server sent it; nil when it sent none.
	Data json.RawMessage
}

func (e *RPCError) Error() string {
	return fmt.Sprintf("%s (code %d)", e.Message, e.Code)
}

// TransportError returns a -32000 error "Transport error: <detail>".
func TransportError(detail string) *RPCError {
	return &RPCError{Code: CodeTransportError, Message: "Transport error: " + detail}
}

// ErrorDecoder turns an error answer into the declared error of its code, or returns it as it is.
type ErrorDecoder func(*RPCError) error

// Method describes one method of an interface as the generated clients call it.
type Method struct {
	// Name is the JSON-RPC method name, "<Interface>.<method>".
	Name string
	// Contract is the contract fingerprint of the method's interface.
	Contract string
	// Result is the IDL type of the result (of each item, for a stream): a built-in type, "[]T",
	// "map[string]T", "@<name>" for a declared type, "?T" when it may be null.
	Result string
	// Errors maps error answers to the method's declared errors; nil when it raises none.
	Errors ErrorDecoder
}

// Option configures a Transport.
type Option func(*Transport)

// WithHTTPClient sends the requests with client instead of http.DefaultClient.
func WithHTTPClient(client *http.Client) Option {
	return func(t *Transport) { t.client = client }
}

// WithTimeout bounds each call (0: no bound but the context's).
func WithTimeout(timeout time.Duration) Option {
	return func(t *Transport) { t.timeout = timeout }
}

// WithHeader adds a header to every request.
func WithHeader(name, value string) Option {
	return func(t *Transport) { t.header.Add(name, value) }
}

// WithMaxResponseBytes bounds the size of an answer.
func WithMaxResponseBytes(limit int64) Option {
	return func(t *Transport) { t.maxResponseBytes = limit }
}

// Transport posts JSON-RPC requests to one base address. It is safe for concurrent use; the
// clients of several interfaces may share one.
type Transport struct {
	baseURL          string
	client           *http.Client
	timeout          time.Duration
	header           http.Header
	maxResponseBytes int64
	nextID           int64
}

// NewTransport returns a transport posting to baseURL, exactly as given.
func NewTransport(baseURL string, opts ...Option) *Transport {
	t := &Transport{
		baseURL:          baseURL,
		client:           http.DefaultClient,
		timeout:          DefaultTimeout,
		header:           http.Header{},
		maxResponseBytes: DefaultMaxResponseBytes,
	}
	for _, opt := range opts {
		opt(t)
	}
	return t
}

// Params lists the parameters of a call: the trailing optional ones that are nil are left out.
func Params(required int, values ...any) []any {
	end := len(values)
	for end > required && isNil(values[end-1]) {
		end--
	}
	return values[:end]
}

func isNil(value any) bool {
	if value == nil {
		return true
	}
	v := reflect.ValueOf(value)
	switch v.Kind() {
	case reflect.Pointer, reflect.Slice, reflect.Map, reflect.Interface:
		return v.IsNil()
	}
	return false
}

// Call runs one call and decodes its result into result (a pointer).
func (t *Transport) Call(ctx context.Context, method Method, params []any, result any) error {
	id := atomic.AddInt64(&t.nextID, 1)
	body, err := json.Marshal(request{JSONRPC: "2.0", ID: id, Method: method.Name, Params: params})
	if err != nil {
		return TransportError("cannot encode the params of " + method.Name + ": " + err.Error())
	}
	answer, err := t.post(ctx, body, method.Contract)
	if err != nil {
		return err
	}
	var response rawResponse
	if err := decodeResponse(answer, &response); err != nil {
		return err
	}
	return finish(method, response, result)
}

type request struct {
	JSONRPC string \`json:"jsonrpc"\`
	ID      int64  \`json:"id"\`
	Method  string \`json:"method"\`
	Params  []any  \`json:"params"\`
}

type rawResponse struct {
	ID     json.RawMessage
	Result json.RawMessage
	Error  *RPCError
}

// decodeResponse reads one JSON-RPC response object.
func decodeResponse(text []byte, response *rawResponse) error {
	var members map[string]json.RawMessage
	if err := json.Unmarshal(text, &members); err != nil || members == nil {
		return TransportError("the answer is no JSON-RPC response object: " + excerpt(text))
	}
	response.ID = members["id"]
	if raw, ok := members["error"]; ok && string(raw) != "null" {
		var e struct {
			Code    json.Number
			Message *string
			Data    json.RawMessage
		}
		if err := json.Unmarshal(raw, &e); err != nil || e.Message == nil {
			return TransportError("the answer's error is no {code, message} object: " + excerpt(raw))
		}
		code, err := strconv.Atoi(string(e.Code))
		if err != nil {
			return TransportError("the answer's error code is no integer: " + excerpt(raw))
		}
		response.Error = &RPCError{Code: code, Message: *e.Message, Data: e.Data}
		return nil
	}
	raw, ok := members["result"]
	if !ok {
		return TransportError("the answer has neither result nor error: " + excerpt(text))
	}
	response.Result = raw
	return nil
}

// finish turns a response into the call's outcome: its declared error, or its checked result.
func finish(method Method, response rawResponse, result any) error {
	if response.Error != nil {
		if method.Errors != nil {
			return method.Errors(response.Error)
		}
		return response.Error
	}
	if err := checkResult(method, response.Result); err != nil {
		return err
	}
	if err := json.Unmarshal(response.Result, result); err != nil {
		return TransportError("invalid result of " + method.Name + ": " + err.Error())
	}
	return nil
}

func checkResult(method Method, raw json.RawMessage) error {
	value, err := parseValue(raw)
	if err != nil {
		return TransportError("invalid result of " + method.Name + ": " + err.Error())
	}
	if problem := checkValue(value, method.Result, "result"); problem != "" {
		return TransportError("invalid result of " + method.Name + ": " + problem)
	}
	return nil
}

func parseValue(raw []byte) (any, error) {
	decoder := json.NewDecoder(bytes.NewReader(raw))
	decoder.UseNumber()
	var value any
	if err := decoder.Decode(&value); err != nil {
		return nil, err
	}
	return value, nil
}

// post sends one request body and returns the answer's body.
func (t *Transport) post(ctx context.Context, body []byte, contract string) ([]byte, error) {
	if t.timeout > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, t.timeout)
		defer cancel()
	}
	req, err := t.newRequest(ctx, body, contract)
	if err != nil {
		return nil, err
	}
	res, err := t.client.Do(req)
	if err != nil {
		return nil, networkError(ctx, err)
	}
	defer res.Body.Close()
	answer, err := io.ReadAll(io.LimitReader(res.Body, t.maxResponseBytes+1))
	if err != nil {
		return nil, networkError(ctx, err)
	}
	if int64(len(answer)) > t.maxResponseBytes {
		return nil, TransportError(fmt.Sprintf("the answer is larger than %d bytes", t.maxResponseBytes))
	}
	if res.StatusCode < 200 || res.StatusCode > 299 {
		e := TransportError(fmt.Sprintf("HTTP %d: %s", res.StatusCode, excerpt(answer)))
		e.Data, _ = json.Marshal(map[string]any{"status": res.StatusCode})
		return nil, e
	}
	if len(bytes.TrimSpace(answer)) == 0 {
		return nil, TransportError(fmt.Sprintf("HTTP %d with an empty body", res.StatusCode))
	}
	return answer, nil
}

func (t *Transport) newRequest(ctx context.Context, body []byte, contract string) (*http.Request, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, t.baseURL, bytes.NewReader(body))
	if err != nil {
		return nil, TransportError(err.Error())
	}
	for name, values := range t.header {
		req.Header[name] = append([]string(nil), values...)
	}
	req.Header.Set("Content-Type", "application/json")
	if contract != "" {
		req.Header.Set(ContractHeader, contract)
	}
	return req, nil
}

func networkError(ctx context.Context, err error) error {
	if ctxErr := ctx.Err(); ctxErr != nil {
		if errors.Is(ctxErr, context.DeadlineExceeded) {
			return TransportError("timed out")
		}
		return TransportError("aborted: " + ctxErr.Error())
	}
	return TransportError(err.Error())
}

// excerpt quotes the start of a text for an error message.
func excerpt(text []byte) string {
	const most = 200
	if len(text) > most {
		return strconv.Quote(string(text[:most])) + "..."
	}
	return strconv.Quote(string(text))
}

// Batch collects calls (of clients of any interfaces) and sends them in one JSON-RPC batch.
type Batch struct {
	transport *Transport
	calls     []*BatchCall
}

// BatchCall is one call of a batch: its error is known once the batch was sent.
type BatchCall struct {
	method Method
	params []any
	result any
	err    error
}

// NewBatch returns an empty batch.
func NewBatch() *Batch {
	return &Batch{}
}

// Add adds a call; its result is decoded into result (a pointer) when the batch is sent. The
// batch is sent with the transport of the first call added.
func (b *Batch) Add(transport *Transport, method Method, params []any, result any) *BatchCall {
	if b.transport == nil {
		b.transport = transport
	}
	call := &BatchCall{method: method, params: params, result: result, err: TransportError("the batch was not sent")}
	b.calls = append(b.calls, call)
	return call
}

// Err is the call's error, nil when it succeeded.
func (c *BatchCall) Err() error {
	return c.err
}

// Send sends every call added and settles each; it returns the error that failed the whole
// batch (each call then has it too), nil when the server answered.
func (b *Batch) Send(ctx context.Context) error {
	if len(b.calls) == 0 {
		return nil
	}
	requests := make([]request, len(b.calls))
	var contracts []string
	for i, call := range b.calls {
		requests[i] = request{JSONRPC: "2.0", ID: int64(i + 1), Method: call.method.Name, Params: call.params}
		if call.method.Contract != "" && !contains(contracts, call.method.Contract) {
			contracts = append(contracts, call.method.Contract)
		}
	}
	err := b.send(ctx, requests, strings.Join(contracts, ", "))
	if err != nil {
		for _, call := range b.calls {
			call.err = err
		}
	}
	return err
}

func (b *Batch) send(ctx context.Context, requests []request, contracts string) error {
	body, err := json.Marshal(requests)
	if err != nil {
		return TransportError("cannot encode the batch: " + err.Error())
	}
	answer, err := b.transport.post(ctx, body, contracts)
	if err != nil {
		return err
	}
	var members []json.RawMessage
	if err := json.Unmarshal(answer, &members); err != nil {
		// A server refuses a whole batch with one error response.
		var response rawResponse
		if decodeErr := decodeResponse(answer, &response); decodeErr == nil && response.Error != nil {
			return response.Error
		}
		return TransportError("the answer to a batch is no array: " + excerpt(answer))
	}
	answered := make([]bool, len(b.calls))
	for _, member := range members {
		var response rawResponse
		if err := decodeResponse(member, &response); err != nil {
			return err
		}
		index, err := strconv.Atoi(string(response.ID))
		if err != nil || index < 1 || index > len(b.calls) || answered[index-1] {
			return TransportError("the answer to a batch holds an unknown id: " + excerpt(response.ID))
		}
		answered[index-1] = true
		call := b.calls[index-1]
		call.err = finish(call.method, response, call.result)
	}
	for i, call := range b.calls {
		if !answered[i] {
			call.err = TransportError("the answer to the batch has no response to " + call.method.Name)
		}
	}
	return nil
}

func contains(list []string, item string) bool {
	for _, candidate := range list {
		if candidate == item {
			return true
		}
	}
	return false
}

// Stream reads the items of a stream method as they come (Server-Sent Events), reconnecting with
// Last-Event-ID when the server asks it to or the connection drops.
type Stream struct {
	transport   *Transport
	method      Method
	body        []byte
	ctx         context.Context
	cancel      context.CancelFunc
	events      *bufio.Reader
	response    io.Closer
	item        json.RawMessage
	lastEventID string
	err         error
	done        bool
	retries     int
}

// maxReconnects bounds the reconnections in a row that bring no item.
const maxReconnects = 5

// OpenStream starts a call of a stream method.
func (t *Transport) OpenStream(ctx context.Context, method Method, params []any) (*Stream, error) {
	body, err := json.Marshal(request{JSONRPC: "2.0", ID: atomic.AddInt64(&t.nextID, 1), Method: method.Name, Params: params})
	if err != nil {
		return nil, TransportError("cannot encode the params of " + method.Name + ": " + err.Error())
	}
	ctx, cancel := context.WithCancel(ctx)
	s := &Stream{transport: t, method: method, body: body, ctx: ctx, cancel: cancel}
	if err := s.connect(); err != nil {
		cancel()
		return nil, err
	}
	return s, nil
}

func (s *Stream) connect() error {
	req, err := s.transport.newRequest(s.ctx, s.body, s.method.Contract)
	if err != nil {
		return err
	}
	req.Header.Set("Accept", "text/event-stream")
	if s.lastEventID != "" {
		req.Header.Set("Last-Event-ID", s.lastEventID)
	}
	var timer *time.Timer
	timedOut := int32(0)
	if s.transport.timeout > 0 {
		timer = time.AfterFunc(s.transport.timeout, func() { atomic.StoreInt32(&timedOut, 1); s.cancel() })
	}
	res, err := s.transport.client.Do(req)
	if timer != nil {
		timer.Stop()
	}
	if err != nil {
		if atomic.LoadInt32(&timedOut) == 1 {
			return TransportError("timed out")
		}
		return networkError(s.ctx, err)
	}
	if !strings.HasPrefix(res.Header.Get("Content-Type"), "text/event-stream") {
		defer res.Body.Close()
		answer, _ := io.ReadAll(io.LimitReader(res.Body, s.transport.maxResponseBytes))
		var response rawResponse
		if decodeResponse(answer, &response) == nil && response.Error != nil {
			return finish(s.method, response, nil)
		}
		return TransportError(fmt.Sprintf("HTTP %d without an event stream: %s", res.StatusCode, excerpt(answer)))
	}
	s.response = res.Body
	s.events = bufio.NewReader(res.Body)
	return nil
}

// Next waits for the next item and decodes it into item (a pointer); false when the stream ended
// or failed (see Err).
func (s *Stream) Next(item any) bool {
	for !s.done {
		event, err := s.readEvent()
		if err != nil {
			if s.ctx.Err() != nil {
				s.fail(networkError(s.ctx, err))
				return false
			}
			s.reconnect(0)
			continue
		}
		if event.data == "" {
			continue
		}
		if s.handle(event, item) {
			return true
		}
	}
	return false
}

type sseEvent struct {
	id    string
	data  string
	retry int
}

func (s *Stream) readEvent() (sseEvent, error) {
	var event sseEvent
	size := int64(0)
	for {
		line, err := s.events.ReadString('\\n')
		size += int64(len(line))
		if size > s.transport.maxResponseBytes {
			return event, errors.New("an event is larger than the limit")
		}
		if err != nil {
			return event, err
		}
		line = strings.TrimRight(line, "\\r\\n")
		if line == "" {
			return event, nil
		}
		field, value, _ := strings.Cut(line, ":")
		value = strings.TrimPrefix(value, " ")
		switch field {
		case "id":
			event.id = value
		case "data":
			event.data += value
		case "retry":
			event.retry, _ = strconv.Atoi(value)
		}
	}
}

// handle acts on one event; true when it was an item.
func (s *Stream) handle(event sseEvent, item any) bool {
	var message struct {
		Method string
		Params struct {
			Item json.RawMessage
		}
	}
	if err := json.Unmarshal([]byte(event.data), &message); err != nil {
		s.fail(TransportError("an event of the stream is no JSON-RPC message: " + excerpt([]byte(event.data))))
		return false
	}
	switch message.Method {
	case "rpc.stream.item":
		if err := checkResult(s.method, message.Params.Item); err != nil {
			s.fail(err)
			return false
		}
		if err := json.Unmarshal(message.Params.Item, item); err != nil {
			s.fail(TransportError("invalid result of " + s.method.Name + ": " + err.Error()))
			return false
		}
		if event.id != "" {
			s.lastEventID = event.id
		}
		s.retries = 0
		return true
	case "rpc.stream.reconnect":
		s.reconnect(event.retry)
		return false
	}
	var response rawResponse
	if err := decodeResponse([]byte(event.data), &response); err != nil {
		s.fail(err)
		return false
	}
	if response.Error != nil {
		s.fail(finish(s.method, response, nil))
		return false
	}
	s.fail(nil)
	return false
}

// reconnect waits about retry milliseconds and sends the request again with Last-Event-ID.
func (s *Stream) reconnect(retry int) {
	s.response.Close()
	s.retries++
	if s.retries > maxReconnects {
		s.fail(TransportError("the stream of " + s.method.Name + " keeps ending without an answer"))
		return
	}
	if retry <= 0 {
		retry = 1000
	}
	select {
	case <-time.After(time.Duration(retry/2+int(time.Now().UnixNano()%int64(retry/2+1))) * time.Millisecond):
	case <-s.ctx.Done():
		s.fail(networkError(s.ctx, s.ctx.Err()))
		return
	}
	if err := s.connect(); err != nil {
		s.fail(err)
	}
}

func (s *Stream) fail(err error) {
	s.err = err
	s.done = true
	if s.response != nil {
		s.response.Close()
	}
	s.cancel()
}

// Err is the error that ended the stream, nil when it ended normally.
func (s *Stream) Err() error {
	return s.err
}

// LastEventID is the event id of the last item received.
func (s *Stream) LastEventID() string {
	return s.lastEventID
}

// Close stops reading the stream.
func (s *Stream) Close() error {
	if !s.done {
		s.fail(nil)
	}
	return nil
}

type typeInfo struct {
	kind          string
	fields        []fieldInfo
	values        map[string]bool
	discriminator string
	variants      map[string]string
}

type fieldInfo struct {
	name     string
	typ      string
	optional bool
}

var (
	registryMu sync.RWMutex
	registry   = map[string]*typeInfo{}
)

// RegisterStruct declares a struct of the IDL for the checks of answers; each field is written
// "<name> <type>", the type "?T" when the field is optional.
func RegisterStruct(name string, fields ...string) {
	info := &typeInfo{kind: "struct"}
	for _, field := range fields {
		fieldName, typ, _ := strings.Cut(field, " ")
		optional := strings.HasPrefix(typ, "?")
		info.fields = append(info.fields, fieldInfo{name: fieldName, typ: strings.TrimPrefix(typ, "?"), optional: optional})
	}
	register(name, info)
}

// RegisterEnum declares an enum of the IDL and its values.
func RegisterEnum(name string, values ...string) {
	info := &typeInfo{kind: "enum", values: map[string]bool{}}
	for _, value := range values {
		info.values[value] = true
	}
	register(name, info)
}

// RegisterUnion declares a union of the IDL: its discriminator, then "<tag> <struct>" per variant.
func RegisterUnion(name, discriminator string, variants ...string) {
	info := &typeInfo{kind: "union", discriminator: discriminator, variants: map[string]string{}}
	for _, variant := range variants {
		tag, typ, _ := strings.Cut(variant, " ")
		info.variants[tag] = typ
	}
	register(name, info)
}

func register(name string, info *typeInfo) {
	registryMu.Lock()
	defer registryMu.Unlock()
	registry[name] = info
}

func lookup(name string) *typeInfo {
	registryMu.RLock()
	defer registryMu.RUnlock()
	return registry[name]
}

// checkValue returns the first problem of value against the IDL type typ, as "<path>: <problem>";
// "" when there is none.
func checkValue(value any, typ string, path string) string {
	if strings.HasPrefix(typ, "?") {
		if value == nil {
			return ""
		}
		typ = typ[1:]
	}
	if value == nil && typ != "json" {
		return path + ": expected " + describe(typ) + ", got null"
	}
	switch {
	case strings.HasPrefix(typ, "[]"):
		items, ok := value.([]any)
		if !ok {
			return path + ": expected an array"
		}
		for i, item := range items {
			if problem := checkValue(item, typ[2:], fmt.Sprintf("%s[%d]", path, i)); problem != "" {
				return problem
			}
		}
		return ""
	case strings.HasPrefix(typ, "map[string]"):
		entries, ok := value.(map[string]any)
		if !ok {
			return path + ": expected an object"
		}
		for key, item := range entries {
			if problem := checkValue(item, typ[len("map[string]"):], path+memberPath(key)); problem != "" {
				return problem
			}
		}
		return ""
	}
	if !strings.HasPrefix(typ, "@") {
		if checkScalar(value, typ) {
			return ""
		}
		return path + ": expected " + describe(typ) + ", got " + shortJSON(value)
	}
	typ = typ[1:]
	info := lookup(typ)
	if info == nil {
		return path + ": unknown IDL type " + typ
	}
	object, ok := value.(map[string]any)
	switch info.kind {
	case "enum":
		text, isText := value.(string)
		if !isText || !info.values[text] {
			return path + ": expected a value of enum " + typ + ", got " + shortJSON(value)
		}
		return ""
	case "union":
		if !ok {
			return path + ": expected an object (union " + typ + ")"
		}
		tag, _ := object[info.discriminator].(string)
		variant, known := info.variants[tag]
		if !known {
			return path + memberPath(info.discriminator) + ": expected a tag of union " + typ + ", got " + shortJSON(object[info.discriminator])
		}
		return checkValue(value, variant, path)
	}
	if !ok {
		return path + ": expected an object (struct " + typ + ")"
	}
	for _, field := range info.fields {
		member, present := object[field.name]
		if !present || member == nil {
			if field.optional || (present && field.typ == "json") {
				continue
			}
			return path + memberPath(field.name) + ": missing required field of " + typ
		}
		if problem := checkValue(member, field.typ, path+memberPath(field.name)); problem != "" {
			return problem
		}
	}
	return ""
}

// checkScalar judges a value of a built-in type.
func checkScalar(value any, typ string) bool {
	ok := false
	switch typ {
	case "string", "date":
		text, isText := value.(string)
		ok = isText
		if isText && typ == "date" {
			_, err := time.Parse("2006-01-02", text)
			ok = err == nil
		}
	case "timestamp":
		text, isText := value.(string)
		if isText {
			_, err := time.Parse(time.RFC3339Nano, text)
			ok = err == nil
		}
	case "bytes":
		text, isText := value.(string)
		if isText {
			_, err := base64.StdEncoding.DecodeString(text)
			ok = err == nil
		}
	case "bool":
		_, ok = value.(bool)
	case "int":
		number, isNumber := value.(json.Number)
		if isNumber {
			f, err := number.Float64()
			ok = err == nil && f == math.Trunc(f) && math.Abs(f) <= 1<<53-1
		}
	case "float":
		_, ok = value.(json.Number)
	case "json":
		ok = true
	}
	return ok
}

func describe(typ string) string {
	switch typ {
	case "string":
		return "a string"
	case "int":
		return "an integer"
	case "float":
		return "a number"
	case "bool":
		return "a boolean"
	case "timestamp":
		return "an RFC 3339 timestamp"
	case "date":
		return "a date YYYY-MM-DD"
	case "bytes":
		return "base64 text"
	}
	return typ
}

func memberPath(name string) string {
	for i, r := range name {
		if !(r == '_' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || i > 0 && r >= '0' && r <= '9') {
			return "[" + strconv.Quote(name) + "]"
		}
	}
	return "." + name
}

// shortJSON writes a value for an error message, cut after 100 bytes.
func shortJSON(value any) string {
	text, _ := json.Marshal(value)
	if len(text) > 100 {
		return string(text[:100]) + "..."
	}
	return string(text)
}

// MarshalUnion writes a union variant: the discriminator first, then the variant's fields.
func MarshalUnion(discriminator, tag string, variant any) ([]byte, error) {
	fields, err := json.Marshal(variant)
	if err != nil {
		return nil, err
	}
	head, err := json.Marshal(map[string]string{discriminator: tag})
	if err != nil {
		return nil, err
	}
	if len(fields) < 2 || fields[0] != '{' {
		return nil, errors.New("a union variant must be a struct")
	}
	if string(fields) == "{}" {
		return head, nil
	}
	return append(append(head[:len(head)-1], ','), fields[1:]...), nil
}

// UnionTag reads the discriminator of a union's JSON value.
func UnionTag(data []byte, discriminator string) (string, error) {
	var members map[string]json.RawMessage
	if err := json.Unmarshal(data, &members); err != nil {
		return "", err
	}
	var tag string
	if err := json.Unmarshal(members[discriminator], &tag); err != nil {
		return "", fmt.Errorf("missing discriminator %q", discriminator)
	}
	return tag, nil
}
`;
