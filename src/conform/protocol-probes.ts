/**
 * The protocol probes of `-conform`: a few fixed requests whose answers docs/protocol.md §1 fixes
 * exactly, sent once per run before the methods. They call nothing but `rpc-idl` (which changes
 * nothing) or no method at all, so they are safe on any server. docs/conform.md lists them.
 */
import { answerJson, errorShapeFinding, type Finding, quote } from './answer-checks.js';
import type { HttpAnswer, HttpRequest } from './http-exchange.js';

export interface ProtocolProbe {
  /** The rule id a failure is reported under. */
  rule: string;
  /** What is sent: the body, and a content-type other than JSON when the probe is about it. */
  body: string;
  contentType?: string;
  /** What the protocol says must come back, in words (for the report). */
  expected: string;
  check(answer: HttpAnswer): string | undefined;
}

/** A JSON-RPC error answer with `code` and `"id": null` (or the given id), as §1 fixes it. */
function errorAnswer(answer: HttpAnswer, code: number, id: number | null): string | undefined {
  if (answer.status !== 200) return `HTTP ${answer.status} ${quote(answer.text)}`;
  const { value, finding } = answerJson(answer);
  if (finding) return finding.message;
  const response = value as { jsonrpc?: unknown; id?: unknown; error?: { code?: unknown } };
  if (response === null || typeof response !== 'object' || Array.isArray(response)) return `the answer is ${quote(answer.text)}`;
  if (response.jsonrpc !== '2.0' || response.id !== id) return `the answer is ${quote(answer.text)}`;
  const shape = errorShapeFinding(response.error);
  if (shape) return shape.message;
  if (response.error?.code !== code) return `error ${response.error?.code}, not ${code}: ${quote(answer.text)}`;
  return undefined;
}

/** The probes, in the order they are sent. */
export const PROTOCOL_PROBES: readonly ProtocolProbe[] = [
  {
    rule: 'parse-error',
    body: '{"jsonrpc": "2.0", "method": ',
    expected: 'HTTP 200 and a JSON-RPC error -32700 with "id": null',
    check: (answer) => errorAnswer(answer, -32700, null),
  },
  {
    rule: 'id-null',
    body: '{"jsonrpc":"2.0","id":null,"method":"rpc-idl"}',
    expected: 'an answer with "id": null ("id": null is a request, not a notification)',
    check(answer) {
      if (answer.status === 204 || answer.text === '')
        return `HTTP ${answer.status} with no body: the request was taken for a notification`;
      const { value, finding } = answerJson(answer);
      if (finding) return finding.message;
      const response = value as { id?: unknown } | null;
      return response !== null && typeof response === 'object' && response.id === null ? undefined : `the answer is ${quote(answer.text)}`;
    },
  },
  {
    rule: 'invalid-request',
    body: '{"jsonrpc":"1.0","id":1,"method":"rpc-idl"}',
    expected: 'a JSON-RPC error -32600 (jsonrpc must be "2.0")',
    check: (answer) => errorAnswer(answer, -32600, 1),
  },
  {
    rule: 'unknown-method',
    body: '{"jsonrpc":"2.0","id":1,"method":"NoSuchInterface.noSuchMethod","params":[]}',
    expected: 'a JSON-RPC error -32601',
    check: (answer) => errorAnswer(answer, -32601, 1),
  },
  {
    rule: 'empty-batch',
    body: '[]',
    expected: 'one JSON-RPC error -32600 with "id": null',
    check: (answer) => errorAnswer(answer, -32600, null),
  },
  {
    rule: 'batch',
    body: '[{"jsonrpc":"2.0","id":1,"method":"rpc-idl"},{"jsonrpc":"2.0","method":"rpc-idl"},{"jsonrpc":"2.0","id":2,"method":"NoSuchInterface.noSuchMethod"}]',
    expected: 'an array of two responses, ids 1 and 2 in that order (the notification gets none)',
    check(answer) {
      const { value, finding } = answerJson(answer);
      if (finding) return finding.message;
      if (!Array.isArray(value)) return `the answer is ${quote(answer.text)}`;
      const ids = value.map((response) => (response as { id?: unknown } | null)?.id);
      return ids.length === 2 && ids[0] === 1 && ids[1] === 2 ? undefined : `the answer's ids are ${JSON.stringify(ids)}`;
    },
  },
  {
    rule: 'notification',
    body: '{"jsonrpc":"2.0","method":"rpc-idl"}',
    expected: 'HTTP 204 with an empty body',
    check: (answer) => (answer.status === 204 && answer.text === '' ? undefined : `HTTP ${answer.status} ${quote(answer.text)}`),
  },
  {
    rule: 'media-type',
    body: '{"jsonrpc":"2.0","id":1,"method":"rpc-idl"}',
    contentType: 'text/plain',
    expected: 'HTTP 415: a body not sent as JSON runs no call',
    check: (answer) => (answer.status === 415 ? undefined : `HTTP ${answer.status} ${quote(answer.text)}`),
  },
];

/** The request of a probe to the JSON-RPC endpoint `url`. */
export function probeRequest(probe: ProtocolProbe, url: string, headers: Readonly<Record<string, string>>): HttpRequest {
  return { method: 'POST', url, headers: { ...headers, 'content-type': probe.contentType ?? 'application/json' }, body: probe.body };
}

/** The finding of a probe's answer, if it broke the rule (undefined answer: none within the time limit). */
export function probeFinding(probe: ProtocolProbe, answer: HttpAnswer | undefined): Finding | undefined {
  const problem = answer ? probe.check(answer) : 'no answer within 10 seconds';
  return problem === undefined ? undefined : { rule: probe.rule, message: `expected ${probe.expected}; got ${problem}` };
}
