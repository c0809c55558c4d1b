/**
 * Error codes: `error-code-range` (beyond ±(2^53-1), where JSON numbers stop being exact),
 * `error-code-reserved` (the JSON-RPC range) and `duplicate-error-code` (across every errors block).
 */
import type { ErrorDecl } from '../ast.js';
import { errorAt, relatedLocation } from '../diagnostic.js';
import type { CheckContext } from './context.js';

/** JSON-RPC 2.0 reserves these codes for the protocol itself. */
const JSON_RPC_RESERVED_MIN = -32768;
const JSON_RPC_RESERVED_MAX = -32000;

export function checkErrorCodes({ file, errors, report }: CheckContext): void {
  const errorsByCode = new Map<number, ErrorDecl>();
  for (const error of errors) {
    if (!Number.isSafeInteger(error.code)) {
      const written = file.source.slice(error.codeSpan.start.offset, error.codeSpan.end.offset) || String(error.code);
      report(errorAt('error-code-range', `error code ${written} is too large: use an integer within ±(2^53-1)`, error.codeSpan));
    } else if (error.code >= JSON_RPC_RESERVED_MIN && error.code <= JSON_RPC_RESERVED_MAX) {
      report(
        errorAt(
          'error-code-reserved',
          `error code ${error.code} is reserved by JSON-RPC (-32768 to -32000): choose another code`,
          error.codeSpan,
        ),
      );
    } else {
      const first = errorsByCode.get(error.code);
      if (!first) {
        errorsByCode.set(error.code, error);
        continue;
      }
      report(
        errorAt(
          'duplicate-error-code',
          `error code ${error.code} is already used by '${first.name.text}' on line ${first.codeSpan.start.line}`,
          error.codeSpan,
          { related: [relatedLocation(`error code ${error.code} is first used here, by '${first.name.text}'`, first.codeSpan)] },
        ),
      );
    }
  }
}
