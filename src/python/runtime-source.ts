/**
 * The Python runtime every generated package carries as `rpc_runtime.py`: the transport (JSON-RPC over
 * http.client, timeouts, batches, streams), the errors, and the checks the generated readers call.
 * Standard library only. Kept as text here so that the published package holds it (dist/ has no .py).
 */

/** The text of `rpc_runtime.py` (after the generated header). */
export const PYTHON_RUNTIME = String.raw`
"""The transport, errors and result checks the generated clients share.

Standard library only. JSON-RPC 2.0 over HTTP POST (docs/protocol.md of
unplugin-idl-rpc).
"""

# The transport settles the outcomes of a batch it sends: one module.
# pyright: reportPrivateUsage=false

from __future__ import annotations

import base64
import binascii
import datetime as _dt
import enum
import http.client
import itertools
import json
import math
import re
import socket
import ssl
import time
import urllib.parse
from collections.abc import Callable, Iterator, Mapping, Sequence
from typing import Any, ClassVar, Generic, NoReturn, Optional, TypeVar, cast

__all__ = [
    "CONTRACT_HEADER",
    "Batch",
    "BatchResult",
    "Call",
    "DeclaredError",
    "InvalidResultError",
    "RpcError",
    "Transport",
    "TransportError",
]

T = TypeVar("T")
E = TypeVar("E", bound=enum.Enum)

CONTRACT_HEADER = "x-idlrpc-contract"
"""The request header carrying the contract fingerprint of a client's
interface."""

TRANSPORT_ERROR = -32000
MAX_SAFE_INTEGER = 2**53 - 1


class RpcError(Exception):
    """A JSON-RPC error: the server's, a declared error of the IDL, or the
    transport's (-32000)."""

    code: int
    message: str
    data: Any

    def __init__(self, code: int, message: str, data: Any = None) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.data = data

    def __str__(self) -> str:
        return f"{self.message} (code {self.code})"


class TransportError(RpcError):
    """-32000: no usable answer (network error, timeout, HTTP status, a body
    that is no JSON-RPC response)."""

    def __init__(self, detail: str, data: Any = None) -> None:
        super().__init__(TRANSPORT_ERROR, f"Transport error: {detail}", data)


class InvalidResultError(TransportError):
    """-32000: the server answered a result that is not what the IDL says
    (data["errors"]: path and message)."""


class DeclaredError(RpcError):
    """An error declared in the IDL's errors block; each has a subclass."""

    CODE: ClassVar[int] = 0
    NAME: ClassVar[str] = ""
    DESCRIPTION: ClassVar[str] = ""

    def __init__(
        self, message: Optional[str] = None, data: Any = None
    ) -> None:
        kind = type(self)
        if message is None:
            message = f"{kind.NAME}: {kind.DESCRIPTION}"
        super().__init__(kind.CODE, message, data)


class Call(Generic[T]):
    """One call of a method, not yet sent: what Transport.call sends, or
    Batch.add collects."""

    __slots__ = ("method", "params", "read", "errors", "contract")

    def __init__(
        self,
        method: str,
        params: Sequence[Any],
        read: Callable[[object, str], T],
        errors: Sequence[type[DeclaredError]],
        contract: str,
    ) -> None:
        self.method = method
        self.params = list(params)
        self.read = read
        self.errors = tuple(errors)
        self.contract = contract

    def settle(self, response: object) -> T:
        """The result of a JSON-RPC response to this call, checked against
        the IDL; raises its error."""
        answer = _object(response)
        if answer is None:
            raise TransportError(
                f"the answer to {self.method} is no JSON-RPC response: "
                f"{_describe(response)}"
            )
        if "error" in answer:
            raise self._error(answer["error"])
        if "result" not in answer:
            raise TransportError(
                f"the answer to {self.method} has neither result nor error"
            )
        try:
            return self.read(answer["result"], "result")
        except _Invalid as invalid:
            raise _invalid_answer("result", self.method, invalid) from None

    def _error(self, error: object) -> RpcError:
        fields = _object(error)
        if fields is None:
            return TransportError(
                f"the error answered to {self.method} is not an object: "
                f"{_describe(error)}"
            )
        code = fields.get("code")
        message = fields.get("message")
        if (
            not isinstance(code, int)
            or isinstance(code, bool)
            or not isinstance(message, str)
        ):
            return TransportError(
                f"the error answered to {self.method} has no integer code "
                f"and text message: {_describe(error)}"
            )
        data = fields.get("data")
        for declared in self.errors:
            if declared.CODE == code:
                return declared(message, data)
        return RpcError(code, message, data)


class BatchResult(Generic[T]):
    """The outcome of one call of a batch, known once the batch is sent."""

    __slots__ = ("_call", "_response", "_error", "_done")

    def __init__(self, call: Call[T]) -> None:
        self._call = call
        self._response: object = None
        self._error: Optional[RpcError] = None
        self._done = False

    def result(self) -> T:
        """The call's result; raises its error (a declared error's class,
        RpcError, TransportError)."""
        if not self._done:
            raise RuntimeError("the batch has not been sent yet")
        if self._error is not None:
            raise self._error
        return self._call.settle(self._response)

    def _settle(self, response: object, error: Optional[RpcError]) -> None:
        self._response = response
        self._error = error
        self._done = True


class Batch:
    """Calls sent together in one JSON-RPC batch: add them, then send (or
    leave a with block)."""

    def __init__(self, transport: Transport) -> None:
        self._transport = transport
        self._calls: list[tuple[Call[Any], BatchResult[Any]]] = []
        self._sent = False

    def add(self, call: Call[T]) -> BatchResult[T]:
        """Adds a call (from a client's <method>_call); its outcome is in
        the returned object after send."""
        if self._sent:
            raise RuntimeError("the batch has been sent already")
        outcome = BatchResult(call)
        self._calls.append((call, outcome))
        return outcome

    def send(self) -> None:
        """Sends every call added in one request; each outcome then holds
        its result or error."""
        if self._sent:
            raise RuntimeError("the batch has been sent already")
        self._sent = True
        if not self._calls:
            return
        self._transport._send_batch(self._calls)

    def __enter__(self) -> Batch:
        return self

    def __exit__(self, kind: object, error: object, trace: object) -> None:
        if error is None and not self._sent:
            self.send()


class Transport:
    """Sends calls to one JSON-RPC endpoint; the clients of a package can
    share one.

    timeout (seconds, default 30; None waits forever) bounds each exchange
    from connecting to the last byte of the answer; stream_timeout (default
    60) is the longest silence a stream may keep (servers send a heartbeat
    every 15 seconds). headers are sent with every request.
    max_response_bytes (default 64 MiB) bounds an answer.
    """

    def __init__(
        self,
        base_url: str,
        *,
        timeout: Optional[float] = 30.0,
        stream_timeout: Optional[float] = 60.0,
        headers: Optional[Mapping[str, str]] = None,
        max_response_bytes: int = 64 * 1024 * 1024,
        ssl_context: Optional[ssl.SSLContext] = None,
    ) -> None:
        parsed = urllib.parse.urlsplit(base_url)
        if parsed.scheme not in ("http", "https") or not parsed.hostname:
            raise ValueError(
                "base_url must be an http:// or https:// address, "
                f"not {base_url!r}"
            )
        self.base_url = base_url
        self.timeout = timeout
        self.stream_timeout = stream_timeout
        self.headers: dict[str, str] = dict(headers or {})
        self.max_response_bytes = max_response_bytes
        self._parsed = parsed
        self._ssl_context = ssl_context
        self._ids = itertools.count(1)

    def call(self, call: Call[T]) -> T:
        """Sends one call and returns its result, checked against the IDL;
        raises its error."""
        request_id = next(self._ids)
        body = _request_body(call, request_id)
        answer = self._exchange(body, {CONTRACT_HEADER: call.contract})
        fields = _object(answer)
        if fields is not None and fields.get("id") not in (request_id, None):
            raise TransportError(
                f"the answer to {call.method} carries another id: "
                f"{_describe(fields.get('id'))}"
            )
        return call.settle(answer)

    def batch(self) -> Batch:
        """A new batch of calls over this transport."""
        return Batch(self)

    def stream(
        self, call: Call[T], last_event_id: Optional[str] = None
    ) -> Iterator[T]:
        """The items of a stream method's call as they come (docs/protocol.md,
        "Streams").

        Resumes after a lost connection or a reconnect message with
        Last-Event-ID (at most 5 times in a row without an item); a declared
        error is raised from the loop.
        """
        attempts = 0
        while True:
            request_id = next(self._ids)
            headers = {
                CONTRACT_HEADER: call.contract,
                "accept": "text/event-stream",
            }
            if last_event_id is not None:
                headers["last-event-id"] = last_event_id
            ended = False
            body = _request_body(call, request_id)
            events = self._events(body, headers, call.method)
            for kind, payload, event_id in events:
                if kind == "item":
                    attempts = 0
                    if event_id is not None:
                        last_event_id = event_id
                    try:
                        yield call.read(payload, "item")
                    except _Invalid as invalid:
                        raise _invalid_answer(
                            "item", call.method, invalid
                        ) from None
                elif kind == "response":
                    if "error" in (_object(payload) or {}):
                        call.settle(payload)
                    ended = True
                    break
            if ended:
                return
            attempts += 1
            if attempts > 5:
                raise TransportError(
                    f"the stream of {call.method} was cut 5 times in a row "
                    "without an item"
                )
            time.sleep(min(0.5 * attempts, 2.0))

    # -- the exchanges -----------------------------------------------------

    def _send_batch(
        self, calls: Sequence[tuple[Call[Any], BatchResult[Any]]]
    ) -> None:
        ids = [next(self._ids) for _ in calls]
        requests = [
            _request_body(call, request_id)
            for (call, _), request_id in zip(calls, ids)
        ]
        body = b"[" + b",".join(requests) + b"]"
        contracts = ", ".join(
            dict.fromkeys(call.contract for call, _ in calls)
        )
        try:
            answer = self._exchange(body, {CONTRACT_HEADER: contracts})
        except RpcError as error:
            for _, outcome in calls:
                outcome._settle(None, error)
            return
        responses = _array(answer)
        if responses is None:
            not_array = TransportError(
                f"the answer to a batch is not an array: {_describe(answer)}"
            )
            for _, outcome in calls:
                outcome._settle(None, not_array)
            return
        by_id: dict[object, object] = {}
        for response in responses:
            response_fields = _object(response)
            if response_fields is not None:
                response_id = response_fields.get("id")
                if isinstance(response_id, (int, str)) and not isinstance(
                    response_id, bool
                ):
                    by_id[response_id] = response
        for (call, outcome), request_id in zip(calls, ids):
            if request_id in by_id:
                outcome._settle(by_id[request_id], None)
            else:
                missing = TransportError(
                    f"the answer to the batch has no response to {call.method}"
                )
                outcome._settle(None, missing)

    def _exchange(
        self, body: bytes, extra_headers: Mapping[str, str]
    ) -> object:
        """POSTs the body and returns the parsed JSON answer; every failure
        is a TransportError."""
        deadline = self._deadline()
        connection = self._connection(self.timeout)
        try:
            response = self._post(connection, body, extra_headers)
            status = response.status
            text = _read_body(
                response, connection, deadline, self.max_response_bytes
            )
            if status < 200 or status >= 300:
                data: dict[str, object] = {"status": status}
                retry_after = response.getheader("retry-after")
                if retry_after is not None:
                    data["retryAfter"] = retry_after
                raise TransportError(f"HTTP {status}{_excerpt(text)}", data)
            if not text.strip():
                raise TransportError(
                    f"the answer is empty (HTTP {status})", {"status": status}
                )
            return _parse_json(text)
        except RpcError:
            raise
        except (OSError, http.client.HTTPException) as error:
            raise _network_error(error) from None
        finally:
            connection.close()

    def _deadline(self) -> Optional[float]:
        """When the exchange starting now must end (None: never)."""
        if self.timeout is None:
            return None
        return time.monotonic() + self.timeout

    def _events(
        self, body: bytes, extra_headers: Mapping[str, str], method: str
    ) -> Iterator[tuple[str, object, Optional[str]]]:
        """The events of one stream answer: ("item", item, event id) and at
        last ("response", message, None)."""
        connection = self._connection(self.stream_timeout)
        try:
            response = self._post(connection, body, extra_headers)
            content_type = response.getheader("content-type") or ""
            media_type = content_type.split(";")[0].strip().lower()
            if response.status != 200 or media_type != "text/event-stream":
                text = _read_body(
                    response,
                    connection,
                    self._deadline(),
                    self.max_response_bytes,
                )
                if media_type == "application/json" and text.strip():
                    yield ("response", _parse_json(text), None)
                    return
                raise TransportError(
                    f"HTTP {response.status}, no event stream{_excerpt(text)}",
                    {"status": response.status},
                )
            event_id: Optional[str] = None
            data_lines: list[str] = []
            while True:
                raw = response.readline(self.max_response_bytes + 1)
                if len(raw) > self.max_response_bytes:
                    raise TransportError(
                        f"an event of {method} is longer than "
                        f"{self.max_response_bytes} bytes"
                    )
                if not raw:
                    return
                line = raw.decode("utf-8", errors="replace").rstrip("\r\n")
                if line:
                    name, _, value = line.partition(":")
                    value = value[1:] if value.startswith(" ") else value
                    if name == "data":
                        data_lines.append(value)
                    elif name == "id":
                        event_id = value
                    continue
                if not data_lines:
                    continue
                message = _parse_json("\n".join(data_lines))
                data_lines = []
                fields = _object(message)
                if fields is None:
                    raise TransportError(
                        f"an event of {method} is no JSON-RPC message: "
                        f"{_describe(message)}"
                    )
                notice = fields.get("method")
                params = _object(fields.get("params"))
                if notice == "rpc.stream.item" and params is not None:
                    yield ("item", params.get("item"), event_id)
                elif notice == "rpc.stream.reconnect":
                    return
                elif "result" in fields or "error" in fields:
                    yield ("response", message, None)
                    return
        except RpcError:
            raise
        except (OSError, http.client.HTTPException) as error:
            raise _network_error(error) from None
        finally:
            connection.close()

    def _connection(
        self, timeout: Optional[float]
    ) -> http.client.HTTPConnection:
        host = self._parsed.hostname or ""
        port = self._parsed.port
        if self._parsed.scheme == "https":
            return http.client.HTTPSConnection(
                host, port, timeout=timeout, context=self._ssl_context
            )
        return http.client.HTTPConnection(host, port, timeout=timeout)

    def _post(
        self,
        connection: http.client.HTTPConnection,
        body: bytes,
        extra_headers: Mapping[str, str],
    ) -> http.client.HTTPResponse:
        path = self._parsed.path or "/"
        if self._parsed.query:
            path = f"{path}?{self._parsed.query}"
        headers = {
            "content-type": "application/json",
            "accept": "application/json",
            **self.headers,
            **extra_headers,
        }
        connection.request("POST", path, body=body, headers=headers)
        return connection.getresponse()


# -- reading answers ---------------------------------------------------------


def _request_body(call: Call[Any], request_id: int) -> bytes:
    request = {
        "jsonrpc": "2.0",
        "id": request_id,
        "method": call.method,
        "params": call.params,
    }
    text = json.dumps(
        request, ensure_ascii=False, allow_nan=False, separators=(",", ":")
    )
    return text.encode("utf-8")


def _invalid_answer(
    kind: str, method: str, invalid: _Invalid
) -> InvalidResultError:
    """The error of a result or stream item that is not what the IDL says."""
    return InvalidResultError(
        f"invalid {kind} of {method}: {invalid.path}: {invalid.problem}",
        {"errors": [{"path": invalid.path, "message": invalid.problem}]},
    )


def _read_body(
    response: http.client.HTTPResponse,
    connection: http.client.HTTPConnection,
    deadline: Optional[float],
    limit: int,
) -> str:
    """The whole body, within the deadline (checked between reads) and the
    size limit."""
    declared = response.getheader("content-length")
    if declared is not None and declared.isdigit() and int(declared) > limit:
        raise TransportError(
            f"the answer is {declared} bytes, "
            f"more than max_response_bytes ({limit})"
        )
    chunks: list[bytes] = []
    size = 0
    while True:
        if deadline is not None:
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                raise TransportError(
                    "timed out reading the answer", {"cause": "timeout"}
                )
            if connection.sock is not None:
                connection.sock.settimeout(remaining)
        chunk = response.read1(65536)
        if not chunk:
            break
        size += len(chunk)
        if size > limit:
            raise TransportError(
                f"the answer is longer than max_response_bytes ({limit})"
            )
        chunks.append(chunk)
    try:
        return b"".join(chunks).decode("utf-8")
    except UnicodeDecodeError:
        raise TransportError("the answer is not UTF-8 text") from None


def _parse_json(text: str) -> object:
    try:
        return json.loads(text, parse_constant=_refuse_constant)
    except (ValueError, RecursionError) as error:
        cause = f"{type(error).__name__}: {str(error)[:200]}"
        raise TransportError(
            f"the answer is not JSON ({cause}){_excerpt(text)}"
        ) from None


def _refuse_constant(name: str) -> object:
    raise ValueError(f"{name} is not JSON")


def _network_error(error: BaseException) -> TransportError:
    if isinstance(error, (socket.timeout, TimeoutError)):
        return TransportError("timed out", {"cause": "timeout"})
    cause = type(error).__name__
    return TransportError(f"{cause}: {error}", {"cause": cause})


def _excerpt(text: str) -> str:
    text = text.strip()
    if not text:
        return ""
    shown = text[:200] + ("..." if len(text) > 200 else "")
    return f": {shown!r}"


def _describe(value: object) -> str:
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "a boolean"
    if isinstance(value, (int, float)):
        return f"the number {value!r}"
    if isinstance(value, str):
        return f"the string {value[:60]!r}"
    if isinstance(value, list):
        return "an array"
    if isinstance(value, dict):
        return "an object"
    return type(value).__name__


def _object(value: object) -> Optional[dict[str, object]]:
    """The value as a JSON object (what json.loads made of one), or None."""
    if isinstance(value, dict):
        return cast("dict[str, object]", value)
    return None


def _array(value: object) -> Optional[list[object]]:
    """The value as a JSON array, or None."""
    return cast("list[object]", value) if isinstance(value, list) else None


# -- checking results against the IDL (the generated readers call these) ----


class _Invalid(Exception):
    def __init__(self, path: str, problem: str) -> None:
        super().__init__(f"{path}: {problem}")
        self.path = path
        self.problem = problem


def fail(path: str, expected: str, value: object) -> NoReturn:
    """Raises the problem of a value that is not what the IDL says (the call
    then raises InvalidResultError)."""
    raise _Invalid(path, f"expected {expected}, got {_describe(value)}")


_IDENTIFIER = re.compile(r"^[A-Za-z_$][A-Za-z0-9_$]*$")


def member_path(path: str, key: str) -> str:
    """path.key, or path["key"] for a key that is no identifier."""
    if _IDENTIFIER.match(key):
        return f"{path}.{key}"
    return f"{path}[{json.dumps(key)}]"


def read_str(value: object, path: str) -> str:
    if isinstance(value, str):
        return value
    fail(path, "a string", value)


def read_int(value: object, path: str) -> int:
    if isinstance(value, bool):
        fail(path, "an integer within ±(2^53-1)", value)
    if isinstance(value, int) and abs(value) <= MAX_SAFE_INTEGER:
        return value
    if (
        isinstance(value, float)
        and value.is_integer()
        and abs(value) <= MAX_SAFE_INTEGER
    ):
        return int(value)
    fail(path, "an integer within ±(2^53-1)", value)


def read_float(value: object, path: str) -> float:
    if (
        isinstance(value, (int, float))
        and not isinstance(value, bool)
        and math.isfinite(value)
    ):
        return float(value)
    fail(path, "a finite number", value)


def read_bool(value: object, path: str) -> bool:
    if isinstance(value, bool):
        return value
    fail(path, "true or false", value)


_TIMESTAMP = re.compile(
    r"^\d{4}-\d{2}-\d{2}[Tt]\d{2}:\d{2}:\d{2}(\.\d+)?([Zz]|[+-]\d{2}:\d{2})$"
)
_DATE = re.compile(r"^\d{4}-\d{2}-\d{2}$")


def read_timestamp(value: object, path: str) -> _dt.datetime:
    if isinstance(value, str) and _TIMESTAMP.match(value):
        text = value.upper().replace("Z", "+00:00")
        head, dot, rest = text.partition(".")
        if dot:
            digits = re.match(r"\d+", rest)
            fraction = digits.group(0) if digits else ""
            text = f"{head}.{(fraction + '000000')[:6]}{rest[len(fraction):]}"
        try:
            return _dt.datetime.fromisoformat(text)
        except ValueError:
            pass
    fail(path, "an RFC 3339 date-time with an offset", value)


def read_date(value: object, path: str) -> _dt.date:
    if isinstance(value, str) and _DATE.match(value):
        try:
            return _dt.date.fromisoformat(value)
        except ValueError:
            pass
    fail(path, "a date YYYY-MM-DD", value)


def read_bytes(value: object, path: str) -> bytes:
    if isinstance(value, str) and len(value) % 4 == 0:
        try:
            return base64.b64decode(value, validate=True)
        except (binascii.Error, ValueError):
            pass
    fail(path, "standard base64 with padding", value)


def read_json(value: object, path: str) -> Any:
    return value


def read_optional(
    value: object, path: str, read: Callable[[object, str], T]
) -> Optional[T]:
    return None if value is None else read(value, path)


def read_list(
    value: object, path: str, read: Callable[[object, str], T]
) -> list[T]:
    items = _array(value)
    if items is None:
        fail(path, "an array", value)
    return [read(item, f"{path}[{index}]") for index, item in enumerate(items)]


def read_map(
    value: object, path: str, read: Callable[[object, str], T]
) -> dict[str, T]:
    return {
        key: read(item, member_path(path, key))
        for key, item in read_object(value, path).items()
    }


def read_object(value: object, path: str) -> dict[str, object]:
    fields = _object(value)
    if fields is None:
        fail(path, "an object", value)
    return fields


def read_field(
    fields: Mapping[str, object],
    name: str,
    path: str,
    read: Callable[[object, str], T],
) -> T:
    """A required field: present and not null."""
    value = fields.get(name)
    if value is None:
        raise _Invalid(member_path(path, name), "missing required field")
    return read(value, member_path(path, name))


def read_optional_field(
    fields: Mapping[str, object],
    name: str,
    path: str,
    read: Callable[[object, str], T],
) -> Optional[T]:
    """An [optional] field: absent or null is None."""
    value = fields.get(name)
    return None if value is None else read(value, member_path(path, name))


def read_json_field(
    fields: Mapping[str, object], name: str, path: str
) -> Any:
    """A required json field: present (null is one of its values)."""
    if name not in fields:
        raise _Invalid(member_path(path, name), "missing required field")
    return fields[name]


def read_enum(value: object, path: str, kind: type[E]) -> E:
    if isinstance(value, str):
        try:
            return kind(value)
        except ValueError:
            pass
    values = ", ".join(str(member.value) for member in kind)
    fail(path, "one of: " + values, value)


def read_tag(
    fields: Mapping[str, object], name: str, path: str, tags: Sequence[str]
) -> str:
    """The discriminator of a union: present and one of its tags."""
    tag = fields.get(name)
    if isinstance(tag, str) and tag in tags:
        return tag
    if tag is None:
        raise _Invalid(
            member_path(path, name),
            f"missing discriminator '{name}' (one of: {', '.join(tags)})",
        )
    fail(member_path(path, name), "one of: " + ", ".join(tags), tag)


# -- writing params ----------------------------------------------------------


def sent_params(params: list[Any], required: int) -> list[Any]:
    """The params without the optional ones left out at the end: the server
    gives those their defaults."""
    while len(params) > required and params[-1] is None:
        params.pop()
    return params


def write_timestamp(value: _dt.datetime) -> str:
    """RFC 3339 with an offset: a naive datetime is refused (it names no
    instant)."""
    if value.tzinfo is None or value.utcoffset() is None:
        raise ValueError(
            "a timestamp needs a timezone (a naive datetime names no "
            "instant): use datetime.now(timezone.utc)"
        )
    return value.isoformat()


def write_date(value: _dt.date) -> str:
    return value.isoformat()


def write_bytes(value: bytes) -> str:
    return base64.b64encode(value).decode("ascii")
`;
