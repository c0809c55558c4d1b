/**
 * The end of a conversion into IDL, shared by OpenAPI -> IDL and OpenRPC -> IDL: the file in the
 * order a person writes it (namespace and its comment, the types, the errors block, the
 * interfaces), without the examples and attributes the checker would refuse (each dropped with a
 * warning at its place in the document), and its printed text.
 */
import type { Declaration, ErrorDecl, IdlFile, InterfaceDecl } from '../idl/ast.js';
import { printIdl } from '../idl/format.js';
import { dropInvalidAttributes } from './attributes-in.js';
import { dropInvalidExamples } from './doc-tags-in.js';
import type { ConversionContext } from './schema-converter.js';
import type { WarningSink } from './warnings.js';

/** What a converter made, to be put together. */
export interface ConvertedParts {
  fileName: string;
  namespace: string;
  /** The namespace's doc comment, if the document has one. */
  comment: string | undefined;
  types: readonly Declaration[];
  errors: ErrorDecl[];
  interfaces: readonly InterfaceDecl[];
}

/** The converted IDL file and its printed text. */
export function convertedIdlFile(parts: ConvertedParts, ctx: ConversionContext, sink: WarningSink): { idl: string; file: IdlFile } {
  const file: IdlFile = {
    fileName: parts.fileName,
    source: '',
    namespace: { kind: 'namespace', name: { text: parts.namespace, span: ctx.span }, span: ctx.span },
    declarations: [...parts.types],
  };
  if (parts.comment !== undefined) file.namespace!.comment = parts.comment;
  if (parts.errors.length > 0) file.declarations.push({ kind: 'errors', errors: parts.errors, span: ctx.span });
  file.declarations.push(...parts.interfaces);
  const pointerOf = (node: object) => ctx.examplePointers.get(node) ?? '';
  dropInvalidExamples(file, sink, pointerOf);
  dropInvalidAttributes(file, sink, pointerOf);
  const idl = printIdl(file);
  file.source = idl;
  return { idl, file };
}
