/**
 * The exceptions the compiler API throws. Both carry the structured diagnostics, and their message
 * is the formatted text (with code frames) so that an uncaught one still tells the user what to fix.
 */
import { formatDiagnostic, formatDiagnostics } from './code-frame.js';
import type { Diagnostic } from './diagnostic.js';

/** Thrown by `parseIdl` when the text is not valid IDL syntax. */
export class IdlSyntaxError extends Error {
  override name = 'IdlSyntaxError';
  readonly diagnostic: Diagnostic;

  constructor(diagnostic: Diagnostic, source?: string) {
    super(formatDiagnostic(diagnostic, source));
    this.diagnostic = diagnostic;
  }
}

/** Thrown by `compileIdl` when the file has syntax or semantic errors; holds every one of them. */
export class IdlCompileError extends Error {
  override name = 'IdlCompileError';
  readonly diagnostics: Diagnostic[];

  constructor(diagnostics: Diagnostic[], source?: string) {
    const count = diagnostics.length;
    super(`${formatDiagnostics(diagnostics, source)}\n\n${count} error${count === 1 ? '' : 's'}`);
    this.diagnostics = diagnostics;
  }
}
