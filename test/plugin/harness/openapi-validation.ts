/**
 * Strict OpenAPI validation with two independent validators: Redocly (structure, references, enum
 * types, unique operation ids) and @readme/openapi-parser (schema validation of the whole document).
 */
import { compileErrors, validate as readmeValidate } from '@readme/openapi-parser';
import { createConfig, lintFromString } from '@redocly/openapi-core';

/** Every problem both validators find, as `<validator> <rule> <pointer>: <message>` lines. */
export async function openApiProblems(source: string, file: string): Promise<string[]> {
  const config = await createConfig({
    extends: ['minimal'],
    rules: {
      struct: 'error',
      'no-unresolved-refs': 'error',
      'no-enum-type-mismatch': 'error',
      'operation-operationId-unique': 'error',
      'operation-parameters-unique': 'error',
      'path-parameters-defined': 'error',
      'no-identical-paths': 'error',
      'no-ambiguous-paths': 'error',
      'spec-components-invalid-map-name': 'error',
    },
  });
  const redocly = await lintFromString({ source, absoluteRef: file, config });
  const problems = redocly
    .filter((p) => p.severity === 'error')
    .map((p) => `redocly ${p.ruleId} ${p.location?.[0]?.pointer ?? ''}: ${p.message}`);
  const readme = await readmeValidate(JSON.parse(source) as never);
  if (!readme.valid) problems.push(`openapi-parser: ${compileErrors(readme)}`);
  return problems;
}
