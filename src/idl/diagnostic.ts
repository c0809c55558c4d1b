/**
 * Problems found in an IDL file, with the place they were found.
 *
 * A diagnostic is data for tools as much as text for people: `line`/`column`/`length` are what the
 * code frame underlines, `range` is the same place as start and end positions (what an editor
 * marks), and a second place that the message names ("on line 3") is also in `related`.
 */
import type { SourceRange, SourceSpan } from './ast.js';

/** `note`: something worth knowing that is not wrong (an unknown doc tag); it never fails a command. */
export type Severity = 'error' | 'warning' | 'note';

/** Another place a diagnostic is about, such as the first declaration of a duplicated name. */
export interface RelatedLocation {
  /** What is there, e.g. `'Cart' is first declared here`. */
  message: string;
  file: string;
  range: SourceRange;
}

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
  /**
   * The offending text: `start` is at `line`/`column`; `end` is where it stops (equal to `start`
   * where there is no text to mark, such as a missing namespace or the end of the file).
   */
  range: SourceRange;
  /** The other places the message names ("already declared ... on line 3"), in the order it names them. */
  related?: RelatedLocation[];
}

/**
 * What the formatters read of a diagnostic: one built by hand, without `range`, formats the same
 * as one the compiler made.
 */
export type FormattableDiagnostic = Omit<Diagnostic, 'range' | 'related'> & Partial<Pick<Diagnostic, 'range' | 'related'>>;

/** A place a message names, as a related location of its diagnostic. */
export function relatedLocation(message: string, span: SourceSpan): RelatedLocation {
  return { message, file: span.file, range: { start: { ...span.start }, end: { ...span.end } } };
}

/**
 * An error diagnostic at `span`. `length` (the caret underline) defaults to the span's length on its
 * line, at least 1.
 */
export function errorAt(
  code: string,
  message: string,
  span: SourceSpan,
  options: { length?: number; related?: RelatedLocation[] } = {},
): Diagnostic {
  const diagnostic: Diagnostic = {
    severity: 'error',
    code,
    message,
    file: span.file,
    line: span.start.line,
    column: span.start.column,
    length: Math.max(1, options.length ?? lengthOnLine(span)),
    range: { start: { ...span.start }, end: { ...span.end } },
  };
  if (options.related !== undefined) diagnostic.related = options.related;
  return diagnostic;
}

function lengthOnLine(span: SourceSpan): number {
  return span.end.line === span.start.line ? span.end.column - span.start.column : 1;
}
