// The Go client generated from test/clients/go-fixtures/every-construct.idl against servers written
// here (net/http/httptest): every construct on the wire, and servers that answer garbage, which
// must give a clear RPCError, never a panic or a hang. go-client.test.ts copies this file into the
// generated module and runs it.
package every_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"example.com/every/common"
	"example.com/every/every"
	"example.com/every/idlrpc"
)

// received is one request the test server got.
type received struct {
	header http.Header
	body   string
}

// serve answers every request with answer(body); the requests are recorded.
func serve(t *testing.T, answer func(w http.ResponseWriter, body string)) (string, *[]received) {
	t.Helper()
	var requests []received
	server := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		requests = append(requests, received{header: r.Header.Clone(), body: string(body)})
		answer(w, string(body))
	}))
	t.Cleanup(server.Close)
	return server.URL, &requests
}

// replying answers with a JSON text.
func replying(text string) func(http.ResponseWriter, string) {
	return func(w http.ResponseWriter, _ string) {
		w.Header().Set("Content-Type", "application/json")
		_, _ = io.WriteString(w, text)
	}
}

// rpcError asserts that err is an RPCError of that code whose message contains part.
func rpcError(t *testing.T, err error, code int, part string) *idlrpc.RPCError {
	t.Helper()
	var e *idlrpc.RPCError
	if !errors.As(err, &e) {
		t.Fatalf("expected an RPCError, got %T %v", err, err)
	}
	if e.Code != code || !strings.Contains(e.Message, part) {
		t.Fatalf("expected code %d and %q, got %d %q", code, part, e.Code, e.Message)
	}
	return e
}

func TestParamsContractAndTrailingOptionals(t *testing.T) {
	url, requests := serve(t, replying(`{"jsonrpc":"2.0","id":1,"result":[]}`))
	client := every.NewEverythingClient(url, every.WithHeader("authorization", "Bearer x"))
	if _, err := client.List(context.Background(), "shoes", nil, nil); err != nil {
		t.Fatal(err)
	}
	perPage := int64(5)
	if _, err := client.List(context.Background(), "shoes", nil, &perPage); err != nil {
		t.Fatal(err)
	}
	first, second := (*requests)[0], (*requests)[1]
	if !strings.Contains(first.body, `"params":["shoes"]`) || !strings.Contains(second.body, `"params":["shoes",null,5]`) {
		t.Fatalf("params: %s / %s", first.body, second.body)
	}
	if first.header.Get("x-idlrpc-contract") != every.EverythingContract || !strings.HasPrefix(every.EverythingContract, "2.") {
		t.Fatalf("contract header %q", first.header.Get("x-idlrpc-contract"))
	}
	if first.header.Get("authorization") != "Bearer x" || first.header.Get("content-type") != "application/json" {
		t.Fatalf("headers %v", first.header)
	}
}

func TestRichTypesRoundTrip(t *testing.T) {
	// The server echoes the first param as the result.
	url, _ := serve(t, func(w http.ResponseWriter, body string) {
		var request struct {
			ID     int
			Method string
			Params []json.RawMessage
		}
		_ = json.Unmarshal([]byte(body), &request)
		result := request.Params[0]
		if request.Method == "Everything.pay" {
			var checkout map[string]json.RawMessage
			_ = json.Unmarshal(result, &checkout)
			result = checkout["payment"]
		}
		answer, _ := json.Marshal(map[string]any{"jsonrpc": "2.0", "id": request.ID, "result": result})
		_, _ = w.Write(answer)
	})
	client := every.NewEverythingClient(url)
	at := time.Date(2026, 1, 31, 12, 0, 0, 500_000_000, time.UTC)
	times, err := client.Times(context.Background(), every.Times{At: at, Day: "2024-02-29", Blob: []byte{0, 1, 254}, Anything: json.RawMessage(`{"a":[1,null]}`)})
	if err != nil {
		t.Fatal(err)
	}
	if !times.At.Equal(at) || !bytes.Equal(times.Blob, []byte{0, 1, 254}) || string(times.Anything) != `{"a":[1,null]}` || times.MaybeAt != nil {
		t.Fatalf("times %+v", times)
	}
	payment, err := client.Pay(context.Background(), every.Checkout{
		Payment: every.Payment{BankTransfer: &every.Transfer{Iban: "DE00"}},
		History: []every.Payment{{Card: &every.Card{Number: "4242", Expires: at}}},
	})
	if err != nil || payment == nil || payment.BankTransfer == nil || payment.BankTransfer.Iban != "DE00" || payment.Card != nil {
		t.Fatalf("payment %+v %v", payment, err)
	}
	text, _ := json.Marshal(every.Payment{Card: &every.Card{Number: "4242", Expires: at}})
	if !strings.HasPrefix(string(text), `{"method":"card","number":"4242"`) {
		t.Fatalf("union on the wire: %s", text)
	}
	color := every.ColorNil
	item, err := client.EchoItem(context.Background(), every.Item{Id: "i", Price: common.Money{Amount: 1, Currency: "EUR"}, Unit: common.UnitPiece, Quantity: 2, Sku: "ABC1", Grid: [][]map[string]int64{{{"a": 1}}}, Color: &color})
	if err != nil || item.Color == nil || *item.Color != every.ColorNil || !item.Color.Valid() || every.Color("purple").Valid() {
		t.Fatalf("item %+v %v", item, err)
	}
}

func TestDeclaredErrors(t *testing.T) {
	url, _ := serve(t, replying(`{"jsonrpc":"2.0","id":1,"error":{"code":4001,"message":"NotFound: no such thing","data":{"id":"missing"}}}`))
	_, err := every.NewEverythingClient(url).EchoItem(context.Background(), every.Item{})
	var notFound *common.NotFoundError
	if !errors.As(err, &notFound) || notFound.Code != common.NotFoundCode || string(notFound.Data) != `{"id":"missing"}` {
		t.Fatalf("expected common.NotFoundError, got %T %v", err, err)
	}
	rpcError(t, err, 4001, "NotFound: no such thing")
	// A code the method does not declare stays a plain RPCError.
	url, _ = serve(t, replying(`{"jsonrpc":"2.0","id":1,"error":{"code":-32602,"message":"Invalid params: params[0].id: expected a string"}}`))
	_, err = every.NewEverythingClient(url).EchoItem(context.Background(), every.Item{})
	if errors.As(err, &notFound) {
		t.Fatal("an undeclared code became a declared error")
	}
	rpcError(t, err, idlrpc.CodeInvalidParams, "Invalid params")
}

func TestGarbageAnswers(t *testing.T) {
	checkout := every.Checkout{Payment: every.Payment{BankTransfer: &every.Transfer{}}}
	cases := []struct {
		name   string
		answer func(http.ResponseWriter, string)
		call   func(*every.EverythingClient) error
		part   string
	}{
		{"no JSON", replying(`<html>oops`), nil, "no JSON-RPC response object"},
		{"truncated JSON", replying(`{"jsonrpc":"2.0","id":1,"res`), nil, "no JSON-RPC response object"},
		{"JSON but no object", replying(`[1,2]`), nil, "no JSON-RPC response object"},
		{"neither result nor error", replying(`{"jsonrpc":"2.0","id":1}`), nil, "neither result nor error"},
		{"error that is a string", replying(`{"jsonrpc":"2.0","id":1,"error":"boom"}`), nil, "no {code, message} object"},
		{"error code that is no integer", replying(`{"jsonrpc":"2.0","id":1,"error":{"code":1.5,"message":"x"}}`), nil, "no integer"},
		{"empty body", replying(``), nil, "empty body"},
		{"HTTP 502", func(w http.ResponseWriter, _ string) { w.WriteHeader(502); _, _ = io.WriteString(w, "<h1>Bad Gateway</h1>") }, nil, "HTTP 502"},
		{"wrong type", replying(`{"jsonrpc":"2.0","id":1,"result":{"id":5}}`), nil, "invalid result of Everything.findBase: result.id: expected a string"},
		{"missing required field", replying(`{"jsonrpc":"2.0","id":1,"result":{"day":"2024-01-01","blob":"","anything":null}}`),
			func(c *every.EverythingClient) error { _, err := c.Times(context.Background(), every.Times{}); return err }, "result.at: missing required field of Times"},
		{"bad timestamp", replying(`{"jsonrpc":"2.0","id":1,"result":{"at":"yesterday","day":"2024-01-01","blob":"","anything":1}}`),
			func(c *every.EverythingClient) error { _, err := c.Times(context.Background(), every.Times{}); return err }, "result.at: expected an RFC 3339 timestamp"},
		{"unknown union tag", replying(`{"jsonrpc":"2.0","id":1,"result":{"method":"cash"}}`),
			func(c *every.EverythingClient) error { _, err := c.Pay(context.Background(), checkout); return err }, `result.method: expected a tag of union Payment, got "cash"`},
		{"int out of range", replying(`{"jsonrpc":"2.0","id":1,"result":{"func":"f","range":1e300,"len":"l","go_to":"","goTo":""}}`),
			func(c *every.EverythingClient) error {
				_, err := c.Type(context.Background(), "", 0, false, "", "", "", "", "", "", "", "")
				return err
			}, "result.range: expected an integer, got 1e300"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			url, _ := serve(t, c.answer)
			client := every.NewEverythingClient(url)
			call := c.call
			if call == nil {
				call = func(c *every.EverythingClient) error { _, err := c.FindBase(context.Background(), "x"); return err }
			}
			rpcError(t, call(client), idlrpc.CodeTransportError, c.part)
		})
	}
}

func TestEnumValuesAreChecked(t *testing.T) {
	url, _ := serve(t, replying(`{"jsonrpc":"2.0","id":1,"result":{"id":"i","price":{"amount":1,"currency":"EUR"},"unit":"litre","quantity":1,"sku":"A","grid":[],"enabled":true}}`))
	_, err := every.NewEverythingClient(url).EchoItem(context.Background(), every.Item{})
	rpcError(t, err, idlrpc.CodeTransportError, `result.unit: expected a value of enum common.Unit, got "litre"`)
}

func TestNoHang(t *testing.T) {
	release := make(chan struct{})
	url, _ := serve(t, func(w http.ResponseWriter, _ string) { <-release })
	// Registered after serve's: cleanups run last first, so the handler returns before the server closes.
	t.Cleanup(func() { close(release) })
	client := every.NewEverythingClient(url, every.WithTimeout(200*time.Millisecond))
	_, err := client.FindBase(context.Background(), "x")
	rpcError(t, err, idlrpc.CodeTransportError, "timed out")
	// The context bounds a call too.
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	_, err = client.FindBase(ctx, "x")
	rpcError(t, err, idlrpc.CodeTransportError, "aborted")
	// An endless body stops at the size limit.
	url, _ = serve(t, func(w http.ResponseWriter, _ string) {
		chunk := bytes.Repeat([]byte(" "), 1024)
		for i := 0; i < 64; i++ {
			if _, err := w.Write(chunk); err != nil {
				return
			}
		}
	})
	_, err = every.NewEverythingClient(url, every.WithMaxResponseBytes(4096)).FindBase(context.Background(), "x")
	rpcError(t, err, idlrpc.CodeTransportError, "larger than 4096 bytes")
}

func TestBatch(t *testing.T) {
	url, requests := serve(t, replying(`[{"jsonrpc":"2.0","id":2,"result":"pong"},{"jsonrpc":"2.0","id":1,"result":null},{"jsonrpc":"2.0","id":3,"error":{"code":4001,"message":"NotFound: x"}}]`))
	everything := every.NewEverythingClient(url)
	selected := every.NewSelectClient(url)
	batch := every.NewBatch()
	var base *every.Base
	var pong string
	var item every.Item
	first := everything.FindBaseIn(batch, &base, "x")
	second := selected.GoIn(batch, &pong)
	third := everything.EchoItemIn(batch, &item, every.Item{})
	if err := batch.Send(context.Background()); err != nil {
		t.Fatal(err)
	}
	var notFound *common.NotFoundError
	if first.Err() != nil || base != nil || second.Err() != nil || pong != "pong" || !errors.As(third.Err(), &notFound) {
		t.Fatalf("batch: %v %v %v %v", first.Err(), second.Err(), third.Err(), pong)
	}
	if got := (*requests)[0].header.Get("x-idlrpc-contract"); got != every.EverythingContract+", "+every.SelectContract {
		t.Fatalf("batch contract header %q", got)
	}
	for _, answer := range []string{`{"jsonrpc":"2.0","id":null,"error":{"code":-32600,"message":"Invalid Request: batch too large"}}`, `[{"jsonrpc":"2.0","id":9,"result":null}]`, `"nope"`} {
		url, _ := serve(t, replying(answer))
		batch := every.NewBatch()
		call := every.NewEverythingClient(url).FindBaseIn(batch, &base, "x")
		err := batch.Send(context.Background())
		if err == nil || call.Err() == nil {
			t.Fatalf("%s: expected the batch to fail", answer)
		}
	}
}

// events answers with a text/event-stream body.
func events(text string) func(http.ResponseWriter, string) {
	return func(w http.ResponseWriter, _ string) {
		w.Header().Set("Content-Type", "text/event-stream")
		_, _ = io.WriteString(w, text)
	}
}

func TestStreams(t *testing.T) {
	item := func(id, value string) string {
		return "id: " + id + "\ndata: {\"jsonrpc\":\"2.0\",\"method\":\"rpc.stream.item\",\"params\":{\"id\":1,\"item\":" + value + "}}\n\n"
	}
	calls := 0
	url, requests := serve(t, func(w http.ResponseWriter, body string) {
		calls++
		if calls == 1 {
			events(item("1", "1") + ": heartbeat\n\n" + "retry: 5\ndata: {\"jsonrpc\":\"2.0\",\"method\":\"rpc.stream.reconnect\",\"params\":{\"id\":1}}\n\n")(w, body)
			return
		}
		events(item("2", "2") + item("3", "3") + "data: {\"jsonrpc\":\"2.0\",\"id\":1,\"result\":null}\n\n")(w, body)
	})
	stream, err := every.NewEverythingClient(url).Ticks(context.Background(), 3)
	if err != nil {
		t.Fatal(err)
	}
	var got []int64
	for stream.Next() {
		got = append(got, stream.Item())
	}
	if stream.Err() != nil || len(got) != 3 || got[2] != 3 || stream.LastEventID() != "3" {
		t.Fatalf("stream: %v %v", got, stream.Err())
	}
	if (*requests)[1].header.Get("Last-Event-ID") != "1" || (*requests)[0].header.Get("Accept") != "text/event-stream" {
		t.Fatalf("resume headers %v", (*requests)[1].header)
	}

	url, _ = serve(t, events(item("1", `{"id":"w"}`)))
	watch, err := every.NewEverythingClient(url).Watch(context.Background(), "w")
	if err != nil {
		t.Fatal(err)
	}
	if watch.Next() {
		t.Fatal("an item missing required fields was accepted")
	}
	rpcError(t, watch.Err(), idlrpc.CodeTransportError, "invalid result of Everything.watch: result.price: missing required field")

	url, _ = serve(t, events("data: {\"jsonrpc\":\"2.0\",\"id\":1,\"error\":{\"code\":4001,\"message\":\"NotFound: w\"}}\n\n"))
	watch, _ = every.NewEverythingClient(url).Watch(context.Background(), "w")
	var notFound *common.NotFoundError
	if watch.Next() || !errors.As(watch.Err(), &notFound) {
		t.Fatalf("expected the declared error, got %v", watch.Err())
	}

	url, _ = serve(t, events("data: {garbage\n\n"))
	watch, _ = every.NewEverythingClient(url).Watch(context.Background(), "w")
	if watch.Next() {
		t.Fatal("garbage became an item")
	}
	rpcError(t, watch.Err(), idlrpc.CodeTransportError, "no JSON-RPC message")

	url, _ = serve(t, replying(`{"jsonrpc":"2.0","id":1,"error":{"code":-32602,"message":"Invalid params: x"}}`))
	_, err = every.NewEverythingClient(url).Watch(context.Background(), "w")
	rpcError(t, err, idlrpc.CodeInvalidParams, "Invalid params")
}
