/**
 * Which runtime files an output directory gets (docs/generator.md): its `runtime/` folder is a copy
 * of exactly these, not of everything in the package's `runtime/`. Every listed file ships in every
 * generated package and must type-check there with only `@sinclair/typebox` and `@types/node`
 * installed, so adapters and optional integrations (Express, Fastify, OpenTelemetry, ...) are never
 * listed: they live in their own entry points (`runtime/adapters/...`, each its own `exports`
 * subpath of this package) and users import them from the package.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { CodegenError } from './names.js';

/**
 * The copied runtime, relative to `runtime/`, sorted: what generated modules import (`core.ts`,
 * `client.ts`), the entry a user's server imports beside them (`index.ts`: `core.ts` plus the Node
 * adapters), and every file those import. `runtimeSources` checks that the list is closed.
 */
export const RUNTIME_MANIFEST: readonly string[] = [
  'base-path.ts',
  'batching-transport.ts',
  'body-budget.ts',
  'body-pace.ts',
  'cache-rules.ts',
  'call-context.ts',
  'call-instrumentation.ts',
  'call-observer.ts',
  'call-outcome.ts',
  'call-pipeline.ts',
  'client-call.ts',
  'client-conversion.ts',
  'client.ts',
  'constraints.ts',
  'contract-check.ts',
  'contract-fingerprint.ts',
  'core.ts',
  'cors.ts',
  'deadline-queue.ts',
  'declared-error-of.ts',
  'declared-error-status.ts',
  'entity-tag.ts',
  'errors.ts',
  'explain.ts',
  'fetch-answer-stream.ts',
  'fetch.ts',
  'field-defaults.ts',
  'http-answer.ts',
  'idl-json.ts',
  'index.ts',
  'json-body.ts',
  'json-path.ts',
  'json-rpc-binding.ts',
  'json-rpc-exchange.ts',
  'json-text.ts',
  'media-type.ts',
  'method-table.ts',
  'middleware.ts',
  'mounted-binding.ts',
  'node-answer-stream.ts',
  'node.ts',
  'operation-id.ts',
  'optional-parameters.ts',
  'problem-walkers.ts',
  'query-params.ts',
  'read-binding.ts',
  'read-exchange.ts',
  'rest-binding.ts',
  'result-check.ts',
  'result-serializer.ts',
  'retry.ts',
  'schema.ts',
  'server.ts',
  'settle.ts',
  'shutdown.ts',
  'text-strings.ts',
  'transport-error.ts',
  'unref-timer.ts',
  'validation.ts',
  'wire-conversion.ts',
  'wire-formats.ts',
  'wire-values.ts',
];

/**
 * Folders of `runtime/` that are part of what generated modules import (the stream methods' server
 * and client halves, which `core.ts` and `client.ts` import): every `.ts` file in them but tests is
 * copied, so a file added there ships without a manifest change. Adapters never go in these.
 */
export const RUNTIME_FOLDERS: readonly string[] = ['streams'];

/**
 * The files an output directory gets from `runtimeDir`: {@link RUNTIME_MANIFEST}, then the `.ts`
 * files (tests left out) of each of {@link RUNTIME_FOLDERS} that exists there, as `folder/file.ts`, sorted.
 */
export function runtimeManifest(runtimeDir: string): string[] {
  const folders = RUNTIME_FOLDERS.flatMap((folder) => {
    const dir = path.join(runtimeDir, folder);
    if (!existsSync(dir)) return [];
    return readdirSync(dir)
      .filter((name) => name.endsWith('.ts') && !name.endsWith('.test.ts'))
      .map((name) => `${folder}/${name}`);
  });
  return [...RUNTIME_MANIFEST, ...folders.sort()];
}

/** Relative module specifiers of a source text: `from './x.js'`, `import './x.js'`, `import('./x.js')`. */
const RELATIVE_IMPORT = /(?:\bfrom\s+|\bimport\s*\(?\s*)'(\.{1,2}\/[^']+)'/g;

/**
 * The manifest's files (by default {@link runtimeManifest}) read from `runtimeDir`, in manifest order: `[name, text]`. Throws a
 * CodegenError when a file is missing or imports a relative module the manifest does not list (the
 * copy would not compile), so a runtime change that forgets the manifest fails at generation, with
 * the file named, instead of in the generated package's `tsc`.
 */
export function runtimeSources(runtimeDir: string, manifest: readonly string[] = runtimeManifest(runtimeDir)): [string, string][] {
  const listed = new Set(manifest);
  return manifest.map((name) => {
    const file = path.join(runtimeDir, name);
    if (!existsSync(file)) throw new CodegenError(`Cannot copy the runtime: ${file} is missing from this installation`);
    const text = readFileSync(file, 'utf8');
    for (const [, specifier] of text.matchAll(RELATIVE_IMPORT)) {
      const target = path.posix.join(path.posix.dirname(name), specifier).replace(/\.js$/, '.ts');
      if (!listed.has(target)) {
        throw new CodegenError(
          `Cannot copy the runtime: runtime/${name} imports '${specifier}', which is not in the copied runtime ` +
            `(RUNTIME_MANIFEST in src/codegen/runtime-manifest.ts): list it there, or keep optional code out of the copied files`,
        );
      }
    }
    return [name, text];
  });
}
