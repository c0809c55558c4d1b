/**
 * How an OpenAPI 3.0 document says "this component, or null" (docs/openapi.md, "Nullable").
 *
 * 3.0.3 has no null type, `nullable` only adds null to the `type` of its own schema (it does not
 * reach into `allOf`/`anyOf` members), and siblings of a `$ref` are ignored. So a nullable reference
 * points to a nullable copy of the component: `ProductNullable`, the same object schema with
 * `nullable: true` (inherited properties written out, as an `allOf` member would forbid null again),
 * or the same enum with `nullable: true` and `null` among its values (`enum` keeps its veto). The
 * `anyOf` spellings with a null-only member are correct too, but orval writes invalid TypeScript for
 * them and Prism validates nothing where they appear.
 *
 * A component that is only ever referenced nullable is written nullable itself, without a copy: the
 * copy would leave it unreferenced, which linters report.
 */
import { EXTENSION } from './error-binding.js';

type Schema = Record<string, unknown>;

/** On a nullable copy: the name of the component it copies, so reading the document back sees that type. */
export const NULLABLE_COPY_MARKER = 'x-idl-nullable-of';

/** `<name>Nullable`, or `<name>Nullable_2`, `_3`, ... when a schema already has that name. */
export function nullableCopyName(schemaName: string, taken: ReadonlySet<string>): string {
  const wanted = `${schemaName}Nullable`;
  let name = wanted;
  for (let i = 2; taken.has(name); i++) name = `${wanted}_${i}`;
  return name;
}

/**
 * `schema` (an object or enum schema with its own `type`, no `allOf`) made nullable: `nullable: true`
 * beside the type, `null` added to `enum` (and to its value descriptions, which stay aligned).
 */
export function withNull(schema: Schema): Schema {
  const { type, ...rest } = schema;
  const nullable: Schema = { type, nullable: true, ...rest };
  if (Array.isArray(nullable.enum)) nullable.enum = [...nullable.enum, null];
  const descriptions = nullable[EXTENSION.enumDescriptions];
  if (Array.isArray(descriptions)) nullable[EXTENSION.enumDescriptions] = [...descriptions, null];
  return nullable;
}

/** The nullable copy of `schema`, the component `of`: `withNull`, and the marker naming `of`. */
export function nullableCopy(schema: Schema, of: string): Schema {
  return { ...withNull(schema), [NULLABLE_COPY_MARKER]: of };
}
