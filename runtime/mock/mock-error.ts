/**
 * The `x-idlrpc-mock-error` request header of mock mode: a request carrying
 * `x-idlrpc-mock-error: <ErrorName>` gets that declared error from every mocked method it calls,
 * so a page's error paths can be tried before any server exists (docs/mock.md).
 */
import { RpcError } from '../errors.js';
import type { IdlJson, IdlJsonError, IdlJsonMethod } from '../idl-json.js';

/** The request header naming the declared error every mocked call of the request answers with. */
export const MOCK_ERROR_HEADER = 'x-idlrpc-mock-error';

/** JSON-RPC's "Invalid Request": the header names no error the method may raise. */
const INVALID_REQUEST = -32600;

/**
 * The error a mocked call answers with when its request carries the header, or undefined without
 * it. The header names the error as the IDL does (`CartNotFound`, or `<namespace>.<Name>` for an
 * imported one); a name the IDL does not declare, or one the method does not raise, gets a clear
 * Invalid Request error that lists what it does raise.
 */
export function requestedMockError(
  idl: IdlJson,
  qualifiedMethod: string,
  method: IdlJsonMethod,
  headers: Record<string, string> | undefined,
): RpcError | undefined {
  const requested = headers?.[MOCK_ERROR_HEADER]?.trim();
  if (requested === undefined || requested === '') return undefined;
  const raises = method.raises ?? [];
  const raised = raises.find((name) => sameErrorName(idl, name, requested));
  const declared = raised === undefined ? undefined : declaredError(idl, raised);
  if (declared === undefined) {
    const known = (idl.errors ?? []).some((error) => sameErrorName(idl, error.name, requested));
    const what = known ? `${qualifiedMethod} does not raise it` : 'the IDL declares no such error';
    const list = raises.length > 0 ? `it raises ${raises.join(', ')}` : 'it raises no declared error';
    return new RpcError(INVALID_REQUEST, `Invalid Request: ${MOCK_ERROR_HEADER} names ${JSON.stringify(requested)}, but ${what} (${list})`);
  }
  const shortName = declared.name.slice(declared.name.lastIndexOf('.') + 1);
  return new RpcError(declared.code, `${shortName}: ${declared.message}`);
}

/** The declared error a `raises` entry names (plain for the root namespace's errors). */
function declaredError(idl: IdlJson, raisedName: string): IdlJsonError | undefined {
  return (idl.errors ?? []).find((error) => sameErrorName(idl, error.name, raisedName));
}

/** Whether two spellings name one error: `CartNotFound` is `<root namespace>.CartNotFound`. */
function sameErrorName(idl: IdlJson, a: string, b: string): boolean {
  const qualify = (name: string) => (name.includes('.') ? name : `${idl.rootNamespace}.${name}`);
  return qualify(a) === qualify(b);
}
