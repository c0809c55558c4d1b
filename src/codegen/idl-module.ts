/**
 * Turns one `.idl` source into what a bundler needs: the plain JavaScript module, the `.d.ts` that
 * types it for editors and `tsc`, and the checked model (for openapi.json). Compile errors come back
 * as data with file:line:column, so each shell (the plugin per bundler, `idlrpc -dts`) can report
 * them its own way. Below both shells: neither imports the other.
 */
import path from 'node:path';
import { codeFrame, type FrameGutter, formatDiagnosticHeaders, formatDiagnostics, tryCompileIdl } from '../idl/index.js';
import type { Diagnostic } from '../idl/diagnostic.js';
import { nodeFileHost } from '../idl/file-host.js';
import type { IdlModel } from '../idl/model.js';
import { RUNTIME_CLIENT_IMPORT, RUNTIME_CORE_IMPORT } from '../own-package.js';
import { generateModule } from './module.js';

export interface CompiledIdlModule {
  file: string;
  /** Every file the module was compiled from: `file`, then the files it imports (to watch them). */
  files: string[];
  model: IdlModel;
  js: string;
  dts: string;
}

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

/** Where imported files are read from: relative names against `cwd`, each file at most `maxImportedBytes`. */
export interface ImportReading {
  cwd?: string;
  maxImportedBytes?: number;
}

/**
 * Compiles an `.idl` source text with the files it imports (read from disk); throws
 * {@link IdlModuleError} for a broken file.
 */
export function compileIdlSource(source: string, file: string, reading: ImportReading = {}): CompiledIdlModule {
  const host = nodeFileHost({ cwd: reading.cwd, maxBytes: reading.maxImportedBytes });
  const result = tryCompileIdl(source, file, { host });
  if (!result.model) throw new IdlModuleError(file, result.diagnostics, result.sources, [...result.files, ...result.unreadableImports]);
  const model = result.model;
  const { js, dts } = generateModule(model, {
    runtimeImport: RUNTIME_CORE_IMPORT,
    runtimeClientImport: RUNTIME_CLIENT_IMPORT,
    // The base name keeps the generated header the same on every machine.
    sourceFile: path.basename(file),
    namespaceImport: (namespace) => relativeImport(file, declaringFile(model, namespace)),
  });
  return { file, files: result.files, model, js, dts };
}

/** The file that declares an imported namespace: the first of the program's files in it. */
function declaringFile(model: IdlModel, namespace: string): string {
  const declaring = model.files.find((candidate) => candidate.namespace === namespace);
  if (!declaring) throw new Error(`internal error: no file declares the namespace '${namespace}'`);
  return declaring.fileName;
}

/**
 * The specifier importing `target` from `importer`, e.g. `./common.idl` or `../types/money.idl`:
 * the other `.idl` file's own module, so that its error classes are the same classes everywhere.
 */
function relativeImport(importer: string, target: string): string {
  const relative = path.relative(path.dirname(importer), target).split(path.sep).join('/');
  return relative.startsWith('.') ? relative : `./${relative}`;
}

/** The path of the declaration file written beside an `.idl` file. */
export function dtsFileOf(idlFile: string): string {
  return `${idlFile}.d.ts`;
}
