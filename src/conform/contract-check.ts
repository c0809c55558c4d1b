/**
 * `rpc-idl` against the IDL given on the command line: the server must serve the contract it was
 * built from (docs/protocol.md §2). Compared by the checksum (names, types, codes, flags) and by each
 * interface's contract fingerprint (which also sees swapped parameters); comments, doc tags and
 * declaration order may differ.
 */
import { interfaceFingerprints } from '../../runtime/contract-fingerprint.js';
import type { IdlJson } from '../../runtime/idl-json.js';
import { answerJson, type Finding, quote } from './answer-checks.js';
import type { HttpAnswer } from './http-exchange.js';

/** The finding of an `rpc-idl` answer, if it is not the IDL's contract. */
export function contractFinding(idl: IdlJson, answer: HttpAnswer | undefined): Finding | undefined {
  const problem = (message: string): Finding => ({ rule: 'rpc-idl', message });
  if (!answer) return problem('rpc-idl was not answered within 10 seconds');
  const { value, finding } = answerJson(answer);
  if (finding) return problem(`rpc-idl: ${finding.message}`);
  const response = value as { result?: unknown; error?: { code?: unknown; message?: unknown } } | null;
  if (response === null || typeof response !== 'object') return problem(`rpc-idl was answered with ${quote(answer.text)}`);
  if (response.error)
    return problem(`rpc-idl was answered with error ${response.error.code} (${quote(String(response.error.message))}), not the IDL's JSON`);
  const served = response.result as IdlJson | null;
  if (served === null || typeof served !== 'object' || typeof served.checksum !== 'string') {
    return problem(`rpc-idl's result is not the IDL's JSON form: ${quote(JSON.stringify(served))}`);
  }
  if (served.checksum !== idl.checksum) {
    return problem(
      `the server's rpc-idl is another contract: checksum ${served.checksum}, the IDL's is ${idl.checksum}${differingInterfaces(idl, served)}`,
    );
  }
  let servedPrints: Map<string, string>;
  try {
    servedPrints = interfaceFingerprints(served);
  } catch {
    return problem("rpc-idl's result could not be read as the IDL's JSON form");
  }
  const swapped = [...interfaceFingerprints(idl)].filter(([name, print]) => servedPrints.get(name) !== print).map(([name]) => name);
  if (swapped.length > 0) return problem(`the server's rpc-idl has the same checksum but other parameter orders in ${swapped.join(', ')}`);
  return undefined;
}

/** ` (differs in: A, B)`: the interfaces whose fingerprints differ, when the served JSON can be read. */
function differingInterfaces(idl: IdlJson, served: IdlJson): string {
  try {
    const servedPrints = interfaceFingerprints(served);
    const names = [...interfaceFingerprints(idl)].filter(([name, print]) => servedPrints.get(name) !== print).map(([name]) => name);
    return names.length > 0 ? ` (differs in ${names.join(', ')})` : '';
  } catch {
    return '';
  }
}
