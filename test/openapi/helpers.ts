/**
 * Shared helpers of the OpenAPI converter tests: minimal documents, strict validation of generated
 * documents, and a comparable form of checked models.
 */
import { compileErrors, validate as readmeValidate } from '@readme/openapi-parser';
import { createConfig, lintFromString } from '@redocly/openapi-core';
import { formatDiagnostics } from '../../src/idl/code-frame.js';
import { tryCompileIdl } from '../../src/idl/compile.js';
import { toIdlJson } from '../../src/idl/json.js';
import type { IdlModel } from '../../src/idl/model.js';
import type { OpenApiToIdlResult } from '../../src/openapi/index.js';

/** A minimal OpenAPI 3.0.3 document (title `T`, so the namespace is `t`) with the given parts. */
export function openApiDocument(parts: { paths?: object; schemas?: object; openapi?: string; [key: string]: unknown }): object {
  const { paths = {}, schemas, openapi = '3.0.3', ...rest } = parts;
  return {
    openapi,
    info: { title: 'T', version: '1' },
    paths,
    ...(schemas ? { components: { schemas } } : {}),
    ...rest,
  };
}

/** Compiles IDL text and fails with the diagnostics when it does not check clean. */
export function expectChecksClean(idl: string): IdlModel {
  const result = tryCompileIdl(idl, 'converted.idl');
  if (!result.model) throw new Error(`converted IDL does not check:\n${formatDiagnostics(result.diagnostics, result.source)}\n\n${idl}`);
  return result.model;
}

/**
 * Every problem of a document under Redocly's `recommended-strict` ruleset (plus `struct`,
 * `no-unresolved-refs` and the other structural rules, explicitly) and @readme/openapi-parser.
 * `info-license` is off unless `complete` is set: an IDL knows no license, so the writer adds one
 * only when asked (see docs/openapi.md).
 */
export async function strictProblems(document: object, complete = false, off: string[] = []): Promise<string[]> {
  const optional: Record<string, string> = complete ? {} : { 'info-license': 'off', 'info-license-strict': 'off' };
  for (const rule of off) optional[rule] = 'off';
  const config = await createConfig({
    extends: ['recommended-strict'],
    rules: {
      struct: 'error',
      'no-unresolved-refs': 'error',
      'no-enum-type-mismatch': 'error',
      'no-invalid-schema-examples': 'error',
      'operation-operationId-unique': 'error',
      'operation-parameters-unique': 'error',
      'path-parameters-defined': 'error',
      'no-identical-paths': 'error',
      'no-ambiguous-paths': 'error',
      'spec-components-invalid-map-name': 'error',
      'spec-ref-siblings': 'error',
      'no-unused-components': 'error',
      'operation-2xx-response': 'error',
      'operation-4xx-response': 'error',
      'operation-summary': 'error',
      'tag-description': 'error',
      'security-defined': 'error',
      ...optional,
    } as never,
  });
  const source = JSON.stringify(document);
  const redocly = await lintFromString({ source, absoluteRef: '/virtual/openapi.json', config });
  const problems = redocly.map((p) => `redocly ${p.ruleId} ${p.location?.[0]?.pointer ?? ''}: ${p.message}`);
  const readme = await readmeValidate(JSON.parse(source) as never);
  if (!readme.valid) problems.push(`openapi-parser: ${compileErrors(readme)}`);
  return problems;
}

/**
 * A model in a form that compares equal exactly when two models declare the same contract with the
 * same comments: the JSON form of docs/protocol.md §2 (checksum included), arrays sorted by name.
 */
export function comparableModel(model: IdlModel): unknown {
  const json = toIdlJson(model) as unknown as Record<string, unknown>;
  const byName = (list: unknown) =>
    [...((list as { name: string }[] | undefined) ?? [])].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  return {
    ...json,
    namespaceComment: model.namespaceComment,
    interfaces: byName(json.interfaces),
    structs: byName(json.structs),
    enums: byName(json.enums),
    errors: byName(json.errors),
  };
}

/** Structs, enums, interfaces, methods and warnings of a conversion. */
export function counts(result: OpenApiToIdlResult): [number, number, number, number, number] {
  const declarations = result.file.declarations;
  const interfaces = declarations.filter((d) => d.kind === 'interface');
  return [
    declarations.filter((d) => d.kind === 'struct').length,
    declarations.filter((d) => d.kind === 'enum').length,
    interfaces.length,
    interfaces.reduce((n, i) => n + i.methods.length, 0),
    result.warnings.length,
  ];
}
