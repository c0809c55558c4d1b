/**
 * What the OpenAPI converter reports besides its result: warnings for everything it had to drop or
 * change, and errors for documents it cannot convert. Both point at the source with a JSON pointer.
 */

/** Something the conversion lost or changed. `pointer` is a JSON pointer into the source document. */
export interface ConversionWarning {
  /**
   * RFC 6901 JSON pointer, e.g. `/paths/~1pets/get/parameters/0`. A place in another file (reached
   * through a `$ref`) is written `<relative file>#<pointer>`.
   */
  pointer: string;
  message: string;
}

/** A document that cannot be converted: invalid, Swagger 2.0, a remote `$ref`, binary data. */
export class ConversionError extends Error {
  /** Where the problem is (same form as `ConversionWarning.pointer`; `''` is the whole document). */
  readonly pointer: string;

  constructor(pointer: string, message: string) {
    super(pointer === '' ? message : `${message} (at ${pointer})`);
    this.name = 'ConversionError';
    this.pointer = pointer;
  }
}

/** Escapes one reference token of a JSON pointer (RFC 6901: `~` -> `~0`, `/` -> `~1`). */
export function escapePointerToken(token: string | number): string {
  return String(token).replace(/~/g, '~0').replace(/\//g, '~1');
}

/** Appends reference tokens to a JSON pointer. */
export function joinPointer(pointer: string, ...tokens: (string | number)[]): string {
  return pointer + tokens.map((token) => `/${escapePointerToken(token)}`).join('');
}

/** Collects warnings in the order they were found. */
export class WarningSink {
  readonly warnings: ConversionWarning[] = [];

  warn(pointer: string, message: string): void {
    this.warnings.push({ pointer, message });
  }
}
