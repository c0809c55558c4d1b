/**
 * Problems found in an IDL file, with the place they were found.
 */

export type Severity = 'error' | 'warning';

export interface Diagnostic {
  severity: Severity;
  /** Stable machine-readable identifier, e.g. `syntax`, `duplicate-type`, `unknown-type`. */
  code: string;
  /** One sentence a user can act on, without location (that is in `file`/`line`/`column`). */
  message: string;
  file: string;
  /** 1-based. */
  line: number;
  /** 1-based, in UTF-16 units like editors count. */
  column: number;
  /** Length of the offending text on that line, for the caret underline (at least 1). */
  length?: number;
}
