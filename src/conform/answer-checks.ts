/**
 * The checks of one answer against the IDL and docs/protocol.md: the JSON-RPC envelope, the result's
 * type (with the IDL's own validators: constraints, formats, unions and all), which errors a method
 * may answer with and their shape, and the REST binding's statuses against the compiler's openapi.json.
 * Each check gives findings; the run turns them into violations, one per rule and method.
 */
import { ErrorCode } from '../../runtime/errors.js';
import { formatPath } from '../../runtime/validation.js';
import type { HttpAnswer } from './http-exchange.js';
import type { MethodUnderTest } from './method-under-test.js';

/** One broken rule, in words. */
export interface Finding {
  rule: string;
  message: string;
}

/** What an answer was, when it broke no rule (counted in the summary). */
export type AnswerKind = 'result' | 'declared-error' | 'refused' | 'server-error' | 'rejected-invalid';

export interface AnswerCheck {
  findings: Finding[];
  kind?: AnswerKind;
}

/** The code -> status map of one REST operation, from the compiler's openapi.json. */
export type RestStatuses = (code: number) => number;

const JSON_MEDIA_TYPE = /^application\/(?:json|json-rpc|jsonrequest|[^;\s]+\+json)\s*(?:;|$)/i;

/** Whether a `content-type` is a JSON media type (docs/protocol.md §1). */
export function isJsonMediaType(contentType: string): boolean {
  return JSON_MEDIA_TYPE.test(contentType.trim());
}

/** Parses an answer's body as JSON, or gives the finding that it is none. */
export function answerJson(answer: HttpAnswer): { value?: unknown; finding?: Finding } {
  if (answer.tooLarge) return { finding: { rule: 'answer-size', message: 'the answer is larger than 16 MiB; the rest was not read' } };
  if (!isJsonMediaType(answer.contentType)) {
    return { finding: { rule: 'content-type', message: `the answer's content-type is ${JSON.stringify(answer.contentType)}, not JSON` } };
  }
  try {
    return { value: JSON.parse(answer.text) };
  } catch {
    return { finding: { rule: 'not-json', message: `the answer's body is not JSON: ${quote(answer.text)}` } };
  }
}

/** Checks a JSON-RPC answer to a call with the id `id`; `valid` says whether the IDL accepts the request. */
export function checkJsonRpcAnswer(target: MethodUnderTest, answer: HttpAnswer | undefined, id: number, valid: boolean): AnswerCheck {
  if (!answer) return { findings: [noAnswer()] };
  if (answer.status !== 200) {
    return {
      findings: [{ rule: 'http-status', message: `a JSON-RPC answer has HTTP status ${answer.status}, not 200: ${quote(answer.text)}` }],
    };
  }
  const { value, finding } = answerJson(answer);
  if (finding) return { findings: [finding] };
  const envelope = envelopeFindings(value, id);
  if (envelope.length > 0) return { findings: envelope };
  const response = value as { result?: unknown; error?: unknown };
  if ('error' in response) return checkError(target, response.error, valid);
  return checkResult(target, response.result, valid);
}

/** Checks a REST answer (docs/protocol.md §3): a bare result with 200, or `{code, message, data?}` with the status openapi.json gives the code. */
export function checkRestAnswer(
  target: MethodUnderTest,
  answer: HttpAnswer | undefined,
  valid: boolean,
  statuses: RestStatuses,
): AnswerCheck {
  if (!answer) return { findings: [noAnswer()] };
  const { value, finding } = answerJson(answer);
  if (finding) return { findings: [finding] };
  if (answer.status === 200) return checkResult(target, value, valid);
  const check = checkError(target, value, valid);
  const code = (value as { code?: unknown } | null)?.code;
  if (typeof code === 'number') {
    const expected = statuses(code);
    if (expected !== answer.status) {
      check.findings.unshift({
        rule: 'rest-status',
        message: `error ${code} came with HTTP ${answer.status}; openapi.json gives it ${expected}`,
      });
    }
  }
  return check;
}

function envelopeFindings(value: unknown, id: number): Finding[] {
  const problem = (message: string): Finding[] => [{ rule: 'envelope', message }];
  if (value === null || typeof value !== 'object' || Array.isArray(value))
    return problem(`the answer is not a JSON-RPC response object: ${quote(JSON.stringify(value))}`);
  const response = value as Record<string, unknown>;
  if (response.jsonrpc !== '2.0') return problem(`"jsonrpc" is ${JSON.stringify(response.jsonrpc)}, not "2.0"`);
  if (response.id !== id) return problem(`"id" is ${JSON.stringify(response.id)}, not the request's ${id}`);
  if ('result' in response === 'error' in response) return problem('a response must hold exactly one of "result" and "error"');
  return [];
}

function checkResult(target: MethodUnderTest, result: unknown, valid: boolean): AnswerCheck {
  if (!valid) {
    return {
      findings: [
        {
          rule: 'invalid-params-accepted',
          message: `a request the IDL refuses was answered with a result instead of error -32602: ${quote(JSON.stringify(result))}`,
        },
      ],
    };
  }
  if (target.method.stream) return { findings: [], kind: 'result' };
  const validator = target.validators.result;
  if (validator.check(result)) return { findings: [], kind: 'result' };
  const issues = validator.errors(result);
  const missing = issues.find((issue) => issue.message.startsWith('missing required field'));
  const shown = missing ?? issues[0];
  const where = shown ? `${formatPath(['result', ...shown.path])}: ${shown.message}` : 'it does not match';
  return {
    findings: [
      { rule: missing ? 'missing-field' : 'result-type', message: `the result does not match the IDL's ${typeText(target)}: ${where}` },
    ],
  };
}

function typeText(target: MethodUnderTest): string {
  return `return type of ${target.name}`;
}

function checkError(target: MethodUnderTest, error: unknown, valid: boolean): AnswerCheck {
  const shape = errorShapeFinding(error);
  if (shape) return { findings: [shape] };
  const { code, message } = error as { code: number; message: string };
  if (!valid) {
    if (code === ErrorCode.InvalidParams) return { findings: [], kind: 'rejected-invalid' };
    if (isServerError(code)) return { findings: [], kind: 'server-error' };
    return {
      findings: [
        {
          rule: 'invalid-params-code',
          message: `a request the IDL refuses was answered with error ${code} (${quote(message)}), not -32602`,
        },
      ],
    };
  }
  if (code === ErrorCode.InvalidParams) return { findings: [], kind: 'refused' };
  if (isServerError(code)) return { findings: [], kind: 'server-error' };
  const declared = declaredErrorName(target, code);
  if (declared !== undefined) {
    if (message.startsWith(`${declared}: `)) return { findings: [], kind: 'declared-error' };
    return {
      findings: [
        {
          rule: 'declared-error-message',
          message: `declared error ${code} has the message ${quote(message)}, which does not start with "${declared}: "`,
        },
      ],
    };
  }
  const reserved: Record<number, [string, string]> = {
    [ErrorCode.InternalError]: ['internal-error', 'a valid request was answered with -32603 (the handler failed)'],
    [ErrorCode.MethodNotFound]: ['method-not-found', `the server does not know ${target.name} (-32601)`],
    [ErrorCode.InvalidRequest]: ['valid-request-refused', 'a valid request was answered with -32600 Invalid Request'],
    [ErrorCode.ParseError]: ['valid-request-refused', 'a valid request was answered with -32700 Parse error'],
    [ErrorCode.ContractMismatch]: [
      'contract-mismatch',
      "the server refuses this IDL's contract fingerprint (-32001): it serves another version",
    ],
  };
  const known = reserved[code];
  if (known) return { findings: [{ rule: known[0], message: `${known[1]}: ${quote(message)}` }] };
  return {
    findings: [
      {
        rule: 'undeclared-error',
        message: `error ${code} (${quote(message)}) is not among the errors ${target.name} raises${raisesText(target)}`,
      },
    ],
  };
}

function raisesText(target: MethodUnderTest): string {
  const raises = target.method.raises ?? [];
  return raises.length === 0 ? ' (none)' : ` (${raises.join(', ')})`;
}

/** The error's name when `code` is one the method declares in `raises`, as its message starts with it. */
function declaredErrorName(target: MethodUnderTest, code: number): string | undefined {
  return target.declaredErrors.get(code);
}

/**
 * The implementation-defined server errors of JSON-RPC (-32099..-32000) but the contract mismatch:
 * a busy server, a client over its rate (-32029). Allowed, and counted.
 */
function isServerError(code: number): boolean {
  return code <= -32000 && code >= -32099 && code !== ErrorCode.ContractMismatch;
}

/** docs/protocol.md's error object: an integer code, a string message, optional data, nothing else. */
export function errorShapeFinding(error: unknown): Finding | undefined {
  const problem = (message: string): Finding => ({ rule: 'error-shape', message });
  if (error === null || typeof error !== 'object' || Array.isArray(error))
    return problem(`the error is not an object: ${quote(JSON.stringify(error))}`);
  const { code, message } = error as Record<string, unknown>;
  if (typeof code !== 'number' || !Number.isInteger(code))
    return problem(`the error's code is ${quote(JSON.stringify(code))}, not an integer`);
  if (typeof message !== 'string') return problem(`the error's message is ${quote(JSON.stringify(message))}, not a string`);
  const extra = Object.keys(error).filter((key) => key !== 'code' && key !== 'message' && key !== 'data');
  if (extra.length > 0) return problem(`the error object has members the protocol does not define: ${extra.join(', ')}`);
  return undefined;
}

function noAnswer(): Finding {
  return { rule: 'no-answer', message: 'no answer within 10 seconds' };
}

/** A text for a message: at most 200 characters, in JSON quotes. */
export function quote(text: string | undefined): string {
  const value = text ?? '';
  return JSON.stringify(value.length > 200 ? `${value.slice(0, 200)}…` : value);
}
