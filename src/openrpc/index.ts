/**
 * The OpenRPC emitter: IDL -> OpenRPC (`idlToOpenRpc`). Rules and choices: docs/openrpc.md.
 */
export {
  idlToOpenRpc,
  type IdlToOpenRpcOptions,
  type IdlToOpenRpcResult,
  type OpenRpcContact,
  type OpenRpcLicense,
} from './idl-to-openrpc.js';
export { OPENRPC_EXTENSION, OPENRPC_VERSION } from './extensions.js';
