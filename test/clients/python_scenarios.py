"""Runs test/clients/checkout-scenarios.json with the Python client generated from the playground's
checkout.idl (idlrpc -plugin py-client).

    python3 python_scenarios.py <folder holding the checkout package> <base url> <scenarios.json> [watch]

Prints one line per step, "ok <name>" or "FAIL <name>: <why>", and exits 1 when a step failed.
With "watch", also places an order and follows OrderService.watchOrder to "delivered".
"""

# This script walks arbitrary JSON: the generated package it calls is checked strictly, its own
# JSON walking is left untyped.
# It also builds params from JSON with the package's readers, which are private to the package.
# pyright: reportUnknownVariableType=false, reportUnknownArgumentType=false, reportUnknownMemberType=false
# pyright: reportPrivateUsage=false

from __future__ import annotations

import json
import re
import sys
from typing import Any

sys.path.insert(0, sys.argv[1])

import checkout as co  # noqa: E402

Json = Any


def wire(value: object) -> Json:
    """A result as the wire carries it: dataclasses through the package's writers, enums as values."""
    if isinstance(value, co.PaymentMethod) or isinstance(value, co.OrderStatus):
        return value.value
    if isinstance(value, list):
        return [wire(item) for item in value]
    if value is None or isinstance(value, (str, int, float, bool, dict)):
        return value
    stem = re.sub(r"(?<=[a-z0-9])(?=[A-Z])", "_", type(value).__name__).lower()
    return getattr(co, f"_write_{stem}")(value)


def plain(transport: co.Transport, method: str, params: list[Json]) -> object:
    """Calls a method as a program would: through its client's method."""
    catalog, carts, orders = co.CatalogServiceClient(transport), co.CartServiceClient(transport), co.OrderServiceClient(transport)
    if method == "CatalogService.listProducts":
        return catalog.list_products()
    if method == "CatalogService.getProduct":
        return catalog.get_product(params[0])
    if method == "CartService.addToCart":
        return carts.add_to_cart(co._read_add_to_cart_request(params[0], "params[0]"))
    if method == "CartService.getCart":
        return carts.get_cart(params[0])
    if method == "CartService.clearCart":
        return carts.clear_cart(params[0])
    if method == "OrderService.createOrder":
        return orders.create_order(co._read_create_order_request(params[0], "params[0]"))
    if method == "OrderService.getOrder":
        return orders.get_order(params[0])
    raise ValueError(f"no scenario method {method}")


def unsent(transport: co.Transport, method: str, params: list[Json]) -> co.Call[Any]:
    """The unsent call of a method, for a batch."""
    catalog, carts = co.CatalogServiceClient(transport), co.CartServiceClient(transport)
    if method == "CatalogService.getProduct":
        return catalog.get_product_call(params[0])
    if method == "CartService.getCart":
        return carts.get_cart_call(params[0])
    if method == "CartService.clearCart":
        return carts.clear_cart_call(params[0])
    raise ValueError(f"no batch method {method}")


def substitute(value: Json, saved: dict[str, Json]) -> Json:
    if isinstance(value, str) and value.startswith("$"):
        return saved[value[1:]]
    if isinstance(value, list):
        return [substitute(item, saved) for item in value]
    if isinstance(value, dict):
        return {key: substitute(item, saved) for key, item in value.items()}
    return value


def matches(actual: Json, expected: Json) -> bool:
    if isinstance(expected, dict):
        return isinstance(actual, dict) and all(key in actual and matches(actual[key], item) for key, item in expected.items())
    if isinstance(expected, list):
        return (
            isinstance(actual, list)
            and len(actual) == len(expected)
            and all(matches(a, e) for a, e in zip(actual, expected))
        )
    return bool(actual == expected)


def check(outcome: object, error: BaseException | None, expect: dict[str, Json]) -> str | None:
    """Why the outcome is not what the step expects, or None."""
    if "error" in expect:
        name, code = expect["error"]["name"], expect["error"]["code"]
        declared = getattr(co, f"{name}Error")
        if not isinstance(error, declared) or not isinstance(error, co.DeclaredError):
            return f"expected {name}Error, got {error!r} / {outcome!r}"
        if error.code != code or type(error).NAME != name:
            return f"expected code {code}, got {error.code}"
        return None
    if "invalidParams" in expect:
        if not isinstance(error, co.RpcError) or error.code != -32602:
            return f"expected an RpcError -32602, got {error!r} / {outcome!r}"
        return None
    if error is not None:
        return f"raised {type(error).__name__}: {error}"
    result = wire(outcome)
    if "result" in expect and result != expect["result"]:
        return f"expected {expect['result']!r}, got {result!r}"
    if "resultMatches" in expect and not matches(result, expect["resultMatches"]):
        return f"expected to match {expect['resultMatches']!r}, got {result!r}"
    if "resultCountAtLeast" in expect and not (isinstance(result, list) and len(result) >= expect["resultCountAtLeast"]):
        return f"expected at least {expect['resultCountAtLeast']} items, got {result!r}"
    return None


def run(transport: co.Transport, steps: list[Json]) -> bool:
    saved: dict[str, Json] = {}
    passed = True
    for step in steps:
        name = step["name"]
        problems: list[str] = []
        if "batch" in step:
            members = [substitute(member, saved) for member in step["batch"]]
            with transport.batch() as batch:
                outcomes = [batch.add(unsent(transport, member["method"], member["params"])) for member in members]
            for index, (member, pending) in enumerate(zip(members, outcomes)):
                outcome: object = None
                error: BaseException | None = None
                try:
                    outcome = pending.result()
                except co.RpcError as raised:
                    error = raised
                problem = check(outcome, error, member["expect"])
                if problem is not None:
                    problems.append(f"[{index}] {problem}")
        else:
            outcome = None
            error = None
            try:
                outcome = plain(transport, step["method"], substitute(step["params"], saved))
            except co.RpcError as raised:
                error = raised
            problem = check(outcome, error, substitute(step["expect"], saved))
            if problem is not None:
                problems.append(problem)
            elif "save" in step:
                for key, field in step["save"].items():
                    saved[key] = wire(outcome)[field]
        passed = passed and not problems
        print(f"FAIL {name}: {'; '.join(problems)}" if problems else f"ok {name}", flush=True)
    return passed


def watch(transport: co.Transport) -> bool:
    """Follows a new order with the stream method until it is delivered."""
    carts, orders = co.CartServiceClient(transport), co.OrderServiceClient(transport)
    cart = carts.add_to_cart(co.AddToCartRequest(product_id="mug", quantity=1))
    address = co.Address(street="1 Market Street", city="San Francisco", state="CA", zip_code="94105", country="US")
    placed = orders.create_order(co.CreateOrderRequest(cart_id=cart.cart_id, shipping_address=address, payment_method=co.PaymentMethod.PAYPAL))
    statuses = [order.status.value for order in orders.watch_order(placed.order_id)]
    passed = bool(statuses) and statuses[-1] == "delivered"
    try:
        for _ in orders.watch_order("no-such-order"):
            pass
        passed = False
    except co.OrderNotFoundError:
        pass
    print(f"ok watch {','.join(statuses)}" if passed else f"FAIL watch: {statuses}", flush=True)
    return passed


def main() -> int:
    with open(sys.argv[3], encoding="utf-8") as file:
        scenarios = json.load(file)
    transport = co.Transport(sys.argv[2], timeout=10.0)
    passed = run(transport, scenarios["steps"])
    if len(sys.argv) > 4 and sys.argv[4] == "watch":
        passed = watch(transport) and passed
    return 0 if passed else 1


if __name__ == "__main__":
    sys.exit(main())
