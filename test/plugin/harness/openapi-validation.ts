/**
 * Strict OpenAPI validation of the documents the plugin writes: the same two validators and rule
 * set as the converter's own tests (Redocly `recommended-strict` plus the structural rules, and
 * @readme/openapi-parser).
 */
import { strictProblems } from '../../openapi/helpers.js';

/** Every problem both validators find, as `<validator> <rule> <pointer>: <message>` lines. */
export async function openApiProblems(source: string): Promise<string[]> {
  return strictProblems(JSON.parse(source) as object);
}
