/**
 * The openapi.json written next to each bundle: one document for every `.idl` file the build
 * imported, made by the OpenAPI converter from the checked models (never from TypeBox schemas).
 */
import { idlToOpenApi } from '../openapi/index.js';
import type { IdlModel } from '../idl/model.js';
import type { ResolvedOpenApiOptions } from './options.js';

export interface OpenApiAsset {
  source: string;
  warnings: string[];
}

/**
 * The document for the given models, as JSON text. Models are ordered by file path so the output
 * does not depend on the order a bundler happened to load the files in. An `.idl` that another
 * loaded `.idl` imports is described by that one (under its qualified names), not a second time on
 * its own: see `idlToOpenApi` and docs/openapi.md, "Several IDL files".
 */
export function openApiAsset(models: Iterable<IdlModel>, options: Omit<ResolvedOpenApiOptions, 'fileName'>): OpenApiAsset {
  const ordered = [...models].sort((a, b) => (a.file.fileName < b.file.fileName ? -1 : a.file.fileName > b.file.fileName ? 1 : 0));
  const { version, serverUrl, info, httpStatus } = options;
  const { document, warnings } = idlToOpenApi(ordered, { version, serverUrl, license: info.license, contact: info.contact, httpStatus });
  return {
    source: `${JSON.stringify(document, null, 2)}\n`,
    warnings: warnings.map((w) => `${w.pointer}: ${w.message}`),
  };
}
