/**
 * The openrpc.json written next to each bundle (beside openapi.json): one OpenRPC document for every
 * `.idl` file the build imported, made by the OpenRPC emitter from the checked models.
 */
import type { IdlModel } from '../idl/model.js';
import { idlToOpenRpc } from '../openrpc/index.js';
import type { OpenApiAsset } from './openapi-asset.js';
import type { ResolvedOpenRpcOptions } from './options.js';

/**
 * The document for the given models, as JSON text; models are ordered by file path, as for
 * openapi.json, so the output does not depend on the order a bundler loaded the files in.
 */
export function openRpcAsset(models: Iterable<IdlModel>, options: Omit<ResolvedOpenRpcOptions, 'fileName'>): OpenApiAsset {
  const ordered = [...models].sort((a, b) => (a.file.fileName < b.file.fileName ? -1 : a.file.fileName > b.file.fileName ? 1 : 0));
  const { document, warnings } = idlToOpenRpc(ordered, {
    serverUrl: options.serverUrl,
    license: options.info.license,
    contact: options.info.contact,
  });
  return {
    source: `${JSON.stringify(document, null, 2)}\n`,
    warnings: warnings.map((w) => `${w.pointer}: ${w.message}`),
  };
}
