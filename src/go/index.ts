/**
 * The Go client generator (`idlrpc -plugin go-client`): one package per namespace of the checked
 * model, plus the shared `idlrpc` transport package, as files in memory (docs/generator.md, "Go").
 */
import type { IdlModel } from '../idl/model.js';
import { toIdlJson } from '../idl/json.js';
import { interfaceFingerprints } from '../../runtime/contract-fingerprint.js';
import { emitClients } from './emit-go-client.js';
import { emitTypes } from './emit-go-types.js';
import { goProgram, RUNTIME_PACKAGE, type GoPackage } from './go-program.js';
import { goGeneratedHeader } from './go-source.js';
import type { GoTypeContext } from './go-types.js';
import { GO_RUNTIME_SOURCE } from './runtime-source.js';

export interface GenerateGoOptions {
  /** The import path of the output directory: packages are `<module>/<package>`. */
  module: string;
  /** The IDL file name written in the headers (a base name keeps them the same wherever the command runs). */
  sourceFile: string;
  /** Also write `go.mod` declaring the module (for an output directory that is a module of its own). */
  goMod?: boolean;
}

/** Thrown for options the generator cannot use (a module path that is no Go import path). */
export class GoGeneratorError extends Error {
  override name = 'GoGeneratorError';
}

/** A Go module path: slash-separated elements of letters, digits and `-._~`, none empty or dot-led. */
const MODULE_PATH = /^[A-Za-z0-9_~-][A-Za-z0-9._~-]*(?:\/[A-Za-z0-9_~-][A-Za-z0-9._~-]*)*$/;

/** Every file of the Go client of `model`, by path relative to the output directory, in a fixed order. */
export function generateGoFiles(model: IdlModel, options: GenerateGoOptions): Map<string, string> {
  if (!MODULE_PATH.test(options.module)) {
    throw new GoGeneratorError(`-go-module '${options.module}' is not a Go module path (e.g. example.com/shop/rpc)`);
  }
  const header = goGeneratedHeader(options.sourceFile);
  const program = goProgram(model);
  const fingerprints = interfaceFingerprints(toIdlJson(model));
  const files = new Map<string, string>();
  if (options.goMod) files.set('go.mod', `module ${options.module}\n\ngo 1.19\n`);
  files.set(`${RUNTIME_PACKAGE}/${RUNTIME_PACKAGE}.go`, `${header}\n\n${GO_RUNTIME_SOURCE}`);
  for (const pkg of program.packages) {
    const context = (): GoTypeContext => ({ model, program, pkg, module: options.module, imports: new Set() });
    const types = context();
    files.set(`${pkg.name}/types.go`, goFile(header, pkg, types, emitTypes(types), packageDoc(model, pkg)));
    const clients = context();
    files.set(`${pkg.name}/client.go`, goFile(header, pkg, clients, emitClients(clients, fingerprints)));
  }
  return files;
}

function packageDoc(model: IdlModel, pkg: GoPackage): string[] {
  const namespace = pkg.namespace ?? model.namespace;
  return [`// Package ${pkg.name} is the client of the IDL namespace ${namespace}.`];
}

/** A whole file: header, package clause, imports (standard library first, as gofmt groups them), declarations. */
function goFile(header: string, pkg: GoPackage, context: GoTypeContext, blocks: string[], doc: string[] = []): string {
  const imports = [...context.imports].sort();
  const standard = imports.filter((path) => !path.startsWith(`${context.module}/`));
  const own = imports.filter((path) => path.startsWith(`${context.module}/`));
  const importLines = [
    ...standard.map((path) => `\t${JSON.stringify(path)}`),
    ...(standard.length > 0 && own.length > 0 ? [''] : []),
    ...own.map((path) => `\t${JSON.stringify(path)}`),
  ];
  const parts = [header, [...doc, `package ${pkg.name}`].join('\n')];
  if (importLines.length > 0) parts.push(['import (', ...importLines, ')'].join('\n'));
  parts.push(...blocks);
  return `${parts.join('\n\n')}\n`;
}
