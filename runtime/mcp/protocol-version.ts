/**
 * The MCP protocol revisions this binding speaks, newest first, and how a client's is chosen.
 * `initialize` agrees on one: the client's when it is known, else the newest (the client then
 * decides whether to go on). Later requests name it in the `MCP-Protocol-Version` header; a
 * request without the header is taken as 2025-03-26, as the specification says.
 */

export const PROTOCOL_VERSIONS = ['2025-11-25', '2025-06-18', '2025-03-26'] as const;
export type ProtocolVersion = (typeof PROTOCOL_VERSIONS)[number];

export const LATEST_PROTOCOL_VERSION: ProtocolVersion = PROTOCOL_VERSIONS[0];

/** What a request without an `MCP-Protocol-Version` header is taken to speak. */
export const ASSUMED_PROTOCOL_VERSION: ProtocolVersion = '2025-03-26';

export function isProtocolVersion(value: unknown): value is ProtocolVersion {
  return (PROTOCOL_VERSIONS as readonly unknown[]).includes(value);
}

/** The revision `initialize` answers for the client's `protocolVersion`. */
export function negotiatedVersion(requested: unknown): ProtocolVersion {
  return isProtocolVersion(requested) ? requested : LATEST_PROTOCOL_VERSION;
}

/** JSON-RPC batches were allowed by 2025-03-26 only. */
export function allowsBatches(version: ProtocolVersion): boolean {
  return version === '2025-03-26';
}
