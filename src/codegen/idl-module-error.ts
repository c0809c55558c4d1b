/**
 * The error of a broken `.idl` file, which the shells need before (or without) compiling one. Kept apart from the compiler so that loading a bundler
 * plugin does not load the compiler (docs/benchmarks.md, start-up).
 */
import { codeFrame, type FrameGutter, formatDiagnosticHeaders, formatDiagnostics } from '../idl/code-frame.js';
import type { Diagnostic } from '../idl/diagnostic.js';

/** A broken `.idl` (or a file it imports): every diagnostic, and the source texts for code frames. */
export class IdlModuleError extends Error {
  readonly file: string;
  readonly diagnostics: Diagnostic[];
  /** The text of the file the first error is in. */
  readonly source: string;
  /** The text of every file read, by name (for code frames of errors in imported files). */
  readonly sources: ReadonlyMap<string, string>;
  /** Every file read, and every imported file that could not be read: a watcher should watch them all. */
  readonly files: string[];

  constructor(file: string, diagnostics: Diagnostic[], sources: ReadonlyMap<string, string>, files: string[] = [file]) {
    super(formatDiagnostics(diagnostics, sources));
    this.name = 'IdlModuleError';
    this.file = file;
    this.diagnostics = diagnostics;
    const first = diagnostics.find((d) => d.severity === 'error') ?? diagnostics[0];
    this.source = sources.get(first?.file ?? file) ?? sources.get(file) ?? '';
    this.sources = sources;
    this.files = files;
  }

  /** The first error, which is where the bundler points. */
  get first(): Diagnostic {
    return this.diagnostics.find((d) => d.severity === 'error') ?? this.diagnostics[0];
  }

  /** One `file:line:column: message` line per diagnostic (the first 100, then `and N more`), without code frames. */
  get summary(): string {
    return formatDiagnosticHeaders(this.diagnostics);
  }

  /** The code frame of the first error (`gutter`: see {@link codeFrame}). */
  frame(gutter: FrameGutter = 'marked'): string {
    const { line, column, length } = this.first;
    return codeFrame(this.source, line, column, length ?? 1, gutter);
  }
}
