/**
 * Version skew between deployed clients and the server (docs/protocol.md, "Contract header"):
 * generated clients send the fingerprint of the interface they were generated from in the
 * `x-idlrpc-contract` header, and the server, when asked to (`contractMismatch`), compares it
 * with its own and logs, counts or refuses the calls of clients of another version. Off by default;
 * a call without the header (curl, clients of other implementations) is never a mismatch.
 */
import type { RequestContext } from './call-context.js';
import { errorOutcome, type Outcome, type RpcLogger } from './call-outcome.js';
import { CONTRACT_HEADER } from './client-call.js';
import {
  FINGERPRINT_VERSION,
  interfaceFingerprints,
  LEGACY_FINGERPRINT_VERSION,
  legacyInterfaceFingerprints,
} from './contract-fingerprint.js';
import { ErrorCode } from './errors.js';
import type { IdlJson } from './idl-json.js';

/** A call from a client generated from another version of the method's interface. */
export interface ContractMismatch {
  /** `"<Interface>.<method>"`. */
  method: string;
  /** The fingerprint the client sent. */
  clientContract: string;
  /** The server's fingerprint of that interface. */
  serverContract: string;
  remoteAddress?: string;
}

/**
 * What the server does with a mismatching call: `'log'` logs the first call of each client
 * version (then stays quiet about that version), `'reject'` answers every one with error -32001,
 * a function is called for every one (count them; return `'reject'` to refuse the call, anything
 * else lets it through).
 */
export type ContractMismatchPolicy = 'log' | 'reject' | ((mismatch: ContractMismatch) => unknown);

/** Checks one call; the refusal when the policy refuses it, else undefined. */
export type ContractCheck = (method: string, request: RequestContext) => Outcome | undefined;

/** How many client versions `'log'` remembers having logged (a client can send any header). */
const LOGGED_VERSIONS_LIMIT = 100;

/** The check of a policy, or undefined when there is none (off: nothing runs per call). */
export function createContractCheck(
  policy: ContractMismatchPolicy | undefined,
  idl: IdlJson,
  logger: RpcLogger,
): ContractCheck | undefined {
  if (policy === undefined) return undefined;
  if (policy !== 'log' && policy !== 'reject' && typeof policy !== 'function') {
    throw new Error(`createRpcServer: contractMismatch must be 'log', 'reject' or a function, got ${JSON.stringify(policy)}`);
  }
  // Both versions are compared during the upgrade to version 2, so that clients generated before it
  // are still seen; version 1 costs the size of what each interface reaches, so it is computed only
  // when a client sends it.
  const byVersion = new Map<string, () => Map<string, string>>();
  const current = interfaceFingerprints(idl);
  byVersion.set(FINGERPRINT_VERSION, () => current);
  let legacy: Map<string, string> | undefined;
  byVersion.set(LEGACY_FINGERPRINT_VERSION, () => (legacy ??= legacyInterfaceFingerprints(idl)));
  const logged = new Set<string>();
  return (method, request) => {
    const header = request.headers?.[CONTRACT_HEADER];
    // A batch to several interfaces lists their fingerprints; those of an unknown fingerprint version
    // cannot be compared. None left (or no header): nothing to compare with.
    const listed =
      header
        ?.split(',')
        .map((entry) => entry.trim())
        .filter((entry) => byVersion.has(versionOf(entry))) ?? [];
    if (listed.length === 0) return undefined;
    const iface = method.slice(0, method.lastIndexOf('.'));
    // The server's fingerprint in each version the client sent (in the order first sent).
    const versions = [...new Set(listed.map(versionOf))];
    const serverContracts = versions.map((version) => byVersion.get(version)!().get(iface));
    if (serverContracts.some((contract) => contract === undefined || listed.includes(contract))) return undefined;
    const serverContract = serverContracts.join(', ');
    const clientContract = listed.join(', ');
    const mismatch: ContractMismatch = { method, clientContract, serverContract };
    if (request.remoteAddress !== undefined) mismatch.remoteAddress = request.remoteAddress;
    let refuse = policy === 'reject';
    if (policy === 'log') {
      if (!logged.has(clientContract) && logged.size < LOGGED_VERSIONS_LIMIT) {
        logged.add(clientContract);
        const message = `${method}: called by a client of contract ${clientContract}, this server has ${serverContract} (further calls of that client version are not logged)`;
        if (logger.warn) logger.warn(message);
        else logger.error(message);
      }
    } else if (typeof policy === 'function') {
      refuse = policy(mismatch) === 'reject';
    }
    if (!refuse) return undefined;
    return errorOutcome(
      ErrorCode.ContractMismatch,
      `Contract mismatch: the client was generated from another version of ${iface} (${clientContract}; this server has ${serverContract}); update the client`,
      { clientContract, serverContract },
    );
  };
}

/** The version prefix of a fingerprint: what comes before its first `.`. */
function versionOf(fingerprint: string): string {
  const dot = fingerprint.indexOf('.');
  return dot === -1 ? '' : fingerprint.slice(0, dot);
}
