/**
 * OpenRPC error objects -> the IDL's `errors` block and each method's `raises` (docs/openrpc.md,
 * "Errors"). An error is its code: the same code met again (another method, a `$ref` to
 * `components.errors`) is the same IDL error, and a different message for it is warned. The IDL
 * names errors; OpenRPC does not, so the name comes from the component's key, else the message.
 */
import type { ErrorDecl, Name, SourceSpan } from '../idl/ast.js';
import { NameScope, typeName } from '../openapi/names.js';
import { child, displayPointer } from '../openapi/source-documents.js';
import type { WarningSink } from '../openapi/warnings.js';
import type { ErrorObject, OpenRpcDocument } from './openrpc-document.js';

/** JSON-RPC reserves these codes for the protocol; the IDL declares no error there. */
const RESERVED_MIN = -32768;
const RESERVED_MAX = -32000;
// biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what an IDL message cannot hold
const CONTROL_CHARACTERS = /[\u0000-\u001f\u007f]+/g;
/** The words of a message that make an error's name at most. */
const NAME_WORDS = 6;

/** The declared errors and, per method (same order as the document's), the names it raises. */
export interface ConvertedErrors {
  errors: ErrorDecl[];
  raises: Name[][];
}

/** An error's name: the component key, else the first words of its message, else `Error<code>`. */
function wantedName(error: ErrorObject, key: string | undefined): string {
  if (key !== undefined && /[A-Za-z]/.test(key)) return typeName(key);
  const words = error.message.split(/[^A-Za-z0-9]+/).filter((w) => w !== '');
  if (words.some((w) => /[A-Za-z]/.test(w))) return typeName(words.slice(0, NAME_WORDS).join(' '));
  return `Error${String(error.code).replace('-', 'Minus')}`;
}

/** Declares every error of the document: `components.errors` first, then each method's, by code. */
export function convertErrors(document: OpenRpcDocument, span: SourceSpan, sink: WarningSink): ConvertedErrors {
  const names = new NameScope();
  const byCode = new Map<number, { decl: ErrorDecl; message: string; site: string } | undefined>();
  const errors: ErrorDecl[] = [];
  const declare = (error: ErrorObject, key?: string): ErrorDecl | undefined => {
    const known = byCode.get(error.code);
    if (byCode.has(error.code)) {
      if (known && known.message !== error.message) {
        sink.warn(
          displayPointer(child(error.location, 'message')),
          `error code ${error.code} has the message "${error.message}" here and "${known.message}" at ${known.site}: the IDL keeps one message per code, the first`,
        );
      }
      return known?.decl;
    }
    const codeAt = displayPointer(child(error.location, 'code'));
    if ((error.code >= RESERVED_MIN && error.code <= RESERVED_MAX) || !Number.isSafeInteger(error.code)) {
      const why = Number.isSafeInteger(error.code)
        ? `is in the range JSON-RPC reserves for the protocol (${RESERVED_MIN} to ${RESERVED_MAX})`
        : 'is beyond ±(2^53−1)';
      sink.warn(codeAt, `error code ${error.code} ${why}: the IDL declares no error there; dropped (a handler may still throw it)`);
      byCode.set(error.code, undefined);
      return undefined;
    }
    if (error.error.data !== undefined) {
      sink.warn(
        displayPointer(child(error.location, 'data')),
        `the data of error ${error.code} dropped: the IDL's declared errors carry no data`,
      );
    }
    // An IDL message is one line of text.
    const message = error.message.replace(CONTROL_CHARACTERS, ' ');
    if (message !== error.message) {
      sink.warn(
        displayPointer(child(error.location, 'message')),
        `the message of error ${error.code} has line breaks or control characters: written with spaces instead`,
      );
    }
    const decl: ErrorDecl = {
      code: error.code,
      codeSpan: span,
      name: { text: names.claim(wantedName(error, key)), span },
      message,
      span,
    };
    byCode.set(error.code, { decl, message: error.message, site: displayPointer(error.location) });
    errors.push(decl);
    return decl;
  };
  for (const { key, error } of document.componentErrors) declare(error, key);
  const raises = document.methods.map((method) => {
    const raised = new Set<ErrorDecl>();
    for (const error of method.errors) {
      const key = /^\/components\/errors\/([^/]+)$/.exec(error.location.pointer)?.[1];
      const decl = declare(error, key?.replace(/~1/g, '/').replace(/~0/g, '~'));
      if (decl) raised.add(decl);
    }
    return [...raised].map((decl) => ({ text: decl.name.text, span }));
  });
  return { errors, raises };
}
