/**
 * The OpenAPI converter: IDL -> OpenAPI (`idlToOpenApi`) and OpenAPI -> IDL (`openApiToIdl`).
 * Rules and choices: docs/openapi.md.
 */
export {
  idlToOpenApi,
  type IdlToOpenApiOptions,
  type IdlToOpenApiResult,
  type OpenApiContact,
  type OpenApiLicense,
  type OpenApiVersion,
} from './idl-to-openapi.js';
export {
  METHOD_NAMINGS,
  type MethodNaming,
  openApiToIdl,
  type OpenApiInput,
  type OpenApiToIdlOptions,
  type OpenApiToIdlResult,
} from './openapi-to-idl.js';
export type { PrefixedMethods } from './operation-converter.js';
export { ConversionError, type ConversionWarning } from './warnings.js';
export { BinaryDataError, type BinaryDataLocation, describeBinaryLocation } from './binary-data.js';
export { MAX_DOCUMENT_BYTES, readDocumentFile } from './source-documents.js';
export { isOpenApiReservedWord, OPENAPI_RESERVED_WORDS } from './reserved-words.js';
