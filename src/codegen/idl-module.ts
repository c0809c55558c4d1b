/**
 * Turns one `.idl` source into what a bundler needs: the plain JavaScript module, the `.d.ts` that
 * types it for editors and `tsc`, and the checked model (for openapi.json). Compile errors come back
 * as data with file:line:column, so each shell (the plugin per bundler, `idlrpc -dts`) can report
 * them its own way. Below both shells: neither imports the other.
 */
import path from 'node:path';
import { codeFrame, type FrameGutter, compileIdl, formatDiagnosticHeaders, formatDiagnostics, IdlCompileError } from '../idl/index.js';
import type { Diagnostic } from '../idl/diagnostic.js';
import type { IdlModel } from '../idl/model.js';
import { RUNTIME_CLIENT_IMPORT, RUNTIME_CORE_IMPORT } from '../own-package.js';
import { generateModule } from './module.js';

export interface CompiledIdlModule {
  file: string;
  model: IdlModel;
  js: string;
  dts: string;
}

/** A broken `.idl`: every diagnostic, and the source text for code frames. */
export class IdlModuleError extends Error {
  readonly file: string;
  readonly diagnostics: Diagnostic[];
  readonly source: string;

  constructor(file: string, diagnostics: Diagnostic[], source: string) {
    super(formatDiagnostics(diagnostics, source));
    this.name = 'IdlModuleError';
    this.file = file;
    this.diagnostics = diagnostics;
    this.source = source;
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

/** Compiles an `.idl` source text; throws {@link IdlModuleError} for a broken file. */
export function compileIdlSource(source: string, file: string): CompiledIdlModule {
  let model: IdlModel;
  try {
    model = compileIdl(source, file);
  } catch (error) {
    if (error instanceof IdlCompileError) throw new IdlModuleError(file, error.diagnostics, source);
    throw error;
  }
  const { js, dts } = generateModule(model, {
    runtimeImport: RUNTIME_CORE_IMPORT,
    runtimeClientImport: RUNTIME_CLIENT_IMPORT,
    // The base name keeps the generated header the same on every machine.
    sourceFile: path.basename(file),
  });
  return { file, model, js, dts };
}

/** The path of the declaration file written beside an `.idl` file. */
export function dtsFileOf(idlFile: string): string {
  return `${idlFile}.d.ts`;
}
