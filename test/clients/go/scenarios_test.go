// The checkout scenario list (test/clients/checkout-scenarios.json) run by the generated Go client.
// go-client-scenarios.test.ts copies this file next to the client generated from the playground's
// IDL and runs it with SCENARIOS (the list's path) and SERVER_URL (the server to call).
package scenarios

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"reflect"
	"strings"
	"testing"
	"time"

	"example.com/checkoutclient/checkout"
	"example.com/checkoutclient/idlrpc"
)

type step struct {
	Name   string
	Method string
	Params []json.RawMessage
	Save   map[string]string
	Expect expectation
	Batch  []step
}

type expectation struct {
	Result             *json.RawMessage
	ResultMatches      any
	ResultCountAtLeast *int
	Error              *struct {
		Name string
		Code int
	}
	InvalidParams bool
}

// call runs one method with its positional params; add puts it in a batch and returns how to read its result.
type method struct {
	call func(ctx context.Context, params []json.RawMessage) (any, error)
	add  func(b *checkout.Batch, params []json.RawMessage) (func() any, *idlrpc.BatchCall)
}

func param(t *testing.T, params []json.RawMessage, index int, into any) {
	t.Helper()
	if err := json.Unmarshal(params[index], into); err != nil {
		t.Fatalf("param %d: %v", index, err)
	}
}

func methods(t *testing.T, url string) map[string]method {
	catalog := checkout.NewCatalogServiceClient(url)
	cart := checkout.NewCartServiceClient(url, checkout.WithTimeout(10*time.Second), checkout.WithHeader("x-scenario", "go"))
	orders := checkout.NewOrderServiceClient(url)
	text := func(params []json.RawMessage) string {
		var s string
		param(t, params, 0, &s)
		return s
	}
	return map[string]method{
		"CatalogService.listProducts": {call: func(ctx context.Context, _ []json.RawMessage) (any, error) { return catalog.ListProducts(ctx) }},
		"CatalogService.getProduct": {
			call: func(ctx context.Context, p []json.RawMessage) (any, error) { return catalog.GetProduct(ctx, text(p)) },
			add: func(b *checkout.Batch, p []json.RawMessage) (func() any, *idlrpc.BatchCall) {
				var result *checkout.Product
				return func() any { return result }, catalog.GetProductIn(b, &result, text(p))
			},
		},
		"CartService.addToCart": {call: func(ctx context.Context, p []json.RawMessage) (any, error) {
			var request checkout.AddToCartRequest
			param(t, p, 0, &request)
			return cart.AddToCart(ctx, request)
		}},
		"CartService.getCart": {
			call: func(ctx context.Context, p []json.RawMessage) (any, error) { return cart.GetCart(ctx, text(p)) },
			add: func(b *checkout.Batch, p []json.RawMessage) (func() any, *idlrpc.BatchCall) {
				var result *checkout.Cart
				return func() any { return result }, cart.GetCartIn(b, &result, text(p))
			},
		},
		"CartService.clearCart": {
			call: func(ctx context.Context, p []json.RawMessage) (any, error) { return cart.ClearCart(ctx, text(p)) },
			add: func(b *checkout.Batch, p []json.RawMessage) (func() any, *idlrpc.BatchCall) {
				var result bool
				return func() any { return result }, cart.ClearCartIn(b, &result, text(p))
			},
		},
		"OrderService.createOrder": {call: func(ctx context.Context, p []json.RawMessage) (any, error) {
			var request checkout.CreateOrderRequest
			param(t, p, 0, &request)
			if !request.PaymentMethod.Valid() {
				t.Fatalf("invalid payment method %q", request.PaymentMethod)
			}
			return orders.CreateOrder(ctx, request)
		}},
		"OrderService.getOrder": {call: func(ctx context.Context, p []json.RawMessage) (any, error) { return orders.GetOrder(ctx, text(p)) }},
	}
}

// declaredError reports whether err is the typed error of that name (found with errors.As) and its code.
func declaredError(err error, name string) (bool, int) {
	var (
		notFound *checkout.CartNotFoundError
		empty    *checkout.CartEmptyError
		payment  *checkout.PaymentFailedError
		stock    *checkout.OutOfStockError
		address  *checkout.InvalidAddressError
		order    *checkout.OrderNotFoundError
	)
	switch name {
	case "CartNotFound":
		return errors.As(err, &notFound), checkout.CartNotFoundCode
	case "CartEmpty":
		return errors.As(err, &empty), checkout.CartEmptyCode
	case "PaymentFailed":
		return errors.As(err, &payment), checkout.PaymentFailedCode
	case "OutOfStock":
		return errors.As(err, &stock), checkout.OutOfStockCode
	case "InvalidAddress":
		return errors.As(err, &address), checkout.InvalidAddressCode
	case "OrderNotFound":
		return errors.As(err, &order), checkout.OrderNotFoundCode
	}
	return false, 0
}

func substitute(value any, saved map[string]string) any {
	switch v := value.(type) {
	case string:
		if strings.HasPrefix(v, "$") {
			if s, ok := saved[v[1:]]; ok {
				return s
			}
		}
		return v
	case []any:
		out := make([]any, len(v))
		for i, item := range v {
			out[i] = substitute(item, saved)
		}
		return out
	case map[string]any:
		out := map[string]any{}
		for key, item := range v {
			out[key] = substitute(item, saved)
		}
		return out
	}
	return value
}

func substituteRaw(t *testing.T, raws []json.RawMessage, saved map[string]string) []json.RawMessage {
	out := make([]json.RawMessage, len(raws))
	for i, raw := range raws {
		var value any
		if err := json.Unmarshal(raw, &value); err != nil {
			t.Fatal(err)
		}
		out[i], _ = json.Marshal(substitute(value, saved))
	}
	return out
}

// plain turns a result into what JSON makes of it, to compare with the list's values.
func plain(t *testing.T, result any) any {
	text, err := json.Marshal(result)
	if err != nil {
		t.Fatal(err)
	}
	var value any
	if err := json.Unmarshal(text, &value); err != nil {
		t.Fatal(err)
	}
	return value
}

func matches(actual, expected any) bool {
	switch e := expected.(type) {
	case map[string]any:
		a, ok := actual.(map[string]any)
		if !ok {
			return false
		}
		for key, value := range e {
			if !matches(a[key], value) {
				return false
			}
		}
		return true
	case []any:
		a, ok := actual.([]any)
		if !ok || len(a) != len(e) {
			return false
		}
		for i := range e {
			if !matches(a[i], e[i]) {
				return false
			}
		}
		return true
	}
	return reflect.DeepEqual(actual, expected)
}

func check(t *testing.T, name string, s step, result any, err error, saved map[string]string) {
	t.Helper()
	e := s.Expect
	if e.Error != nil || e.InvalidParams {
		var rpcErr *checkout.RPCError
		if !errors.As(err, &rpcErr) {
			t.Fatalf("%s: expected an error, got %v, %v", name, result, err)
		}
		if e.InvalidParams && rpcErr.Code != idlrpc.CodeInvalidParams {
			t.Fatalf("%s: expected invalid params, got %v", name, err)
		}
		if e.Error != nil {
			typed, code := declaredError(err, e.Error.Name)
			if !typed || code != e.Error.Code || rpcErr.Code != e.Error.Code {
				t.Fatalf("%s: expected %s (%d), got %T %v", name, e.Error.Name, e.Error.Code, err, err)
			}
		}
		return
	}
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	value := plain(t, result)
	switch {
	case e.Result != nil:
		var expected any
		_ = json.Unmarshal(*e.Result, &expected)
		if !reflect.DeepEqual(value, substitute(expected, saved)) {
			t.Fatalf("%s: expected %s, got %v", name, *e.Result, value)
		}
	case e.ResultMatches != nil:
		if !matches(value, substitute(e.ResultMatches, saved)) {
			t.Fatalf("%s: %v does not match %v", name, value, e.ResultMatches)
		}
	case e.ResultCountAtLeast != nil:
		items, ok := value.([]any)
		if !ok || len(items) < *e.ResultCountAtLeast {
			t.Fatalf("%s: expected at least %d items, got %v", name, *e.ResultCountAtLeast, value)
		}
	}
	for key, field := range s.Save {
		object, _ := value.(map[string]any)
		text, ok := object[field].(string)
		if !ok {
			t.Fatalf("%s: no %s to save in %v", name, field, value)
		}
		saved[key] = text
	}
}

func TestScenarios(t *testing.T) {
	text, err := os.ReadFile(os.Getenv("SCENARIOS"))
	if err != nil {
		t.Fatal(err)
	}
	var list struct{ Steps []step }
	if err := json.Unmarshal(text, &list); err != nil {
		t.Fatal(err)
	}
	table := methods(t, os.Getenv("SERVER_URL"))
	saved := map[string]string{}
	ctx := context.Background()
	for _, s := range list.Steps {
		if s.Batch != nil {
			batch := checkout.NewBatch()
			var reads []func() any
			var calls []*idlrpc.BatchCall
			for _, member := range s.Batch {
				read, call := table[member.Method].add(batch, substituteRaw(t, member.Params, saved))
				reads = append(reads, read)
				calls = append(calls, call)
			}
			if err := batch.Send(ctx); err != nil {
				t.Fatalf("%s: %v", s.Name, err)
			}
			for i, member := range s.Batch {
				check(t, fmt.Sprintf("%s, call %d", s.Name, i+1), member, reads[i](), calls[i].Err(), saved)
			}
			continue
		}
		m, ok := table[s.Method]
		if !ok {
			t.Fatalf("%s: no Go call for %s", s.Name, s.Method)
		}
		result, err := m.call(ctx, substituteRaw(t, s.Params, saved))
		check(t, s.Name, s, result, err, saved)
		t.Logf("passed: %s", s.Name)
	}
}

// TestWatchOrder follows a stream method (watchOrder) on servers that serve streams (STREAMS=1):
// the first item is the order as it is, and an unknown order is the declared OrderNotFound.
func TestWatchOrder(t *testing.T) {
	if os.Getenv("STREAMS") != "1" {
		t.Skip("this server serves no streams")
	}
	url := os.Getenv("SERVER_URL")
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	cart, err := checkout.NewCartServiceClient(url).AddToCart(ctx, checkout.AddToCartRequest{ProductId: "filters", Quantity: 1})
	if err != nil {
		t.Fatal(err)
	}
	address := checkout.Address{Street: "1 Market Street", City: "San Francisco", State: "CA", ZipCode: "94105", Country: "US"}
	orders := checkout.NewOrderServiceClient(url)
	placed, err := orders.CreateOrder(ctx, checkout.CreateOrderRequest{CartId: cart.CartId, ShippingAddress: address, PaymentMethod: checkout.PaymentMethodPaypal})
	if err != nil {
		t.Fatal(err)
	}
	stream, err := orders.WatchOrder(ctx, placed.OrderId)
	if err != nil {
		t.Fatal(err)
	}
	if !stream.Next() {
		t.Fatalf("no first item: %v", stream.Err())
	}
	if order := stream.Item(); order.OrderId != placed.OrderId || !order.Status.Valid() || stream.LastEventID() == "" {
		t.Fatalf("first item %+v, event id %q", order, stream.LastEventID())
	}
	if err := stream.Close(); err != nil || stream.Next() {
		t.Fatalf("after Close: %v", err)
	}
	unknown, err := orders.WatchOrder(ctx, "no-such-order")
	if err == nil {
		for unknown.Next() {
		}
		err = unknown.Err()
	}
	var notFound *checkout.OrderNotFoundError
	if !errors.As(err, &notFound) || notFound.Code != checkout.OrderNotFoundCode {
		t.Fatalf("expected OrderNotFound, got %T %v", err, err)
	}
	t.Logf("passed: watch an order")
}
