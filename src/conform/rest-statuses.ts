/**
 * The HTTP status each error code of a REST operation must come with, read from the openapi.json the
 * compiler makes for the IDL (so `-conform` holds a server to the very document its users were given):
 * declared errors under the status whose schema lists their code, -32700/-32600/-32602 under 400,
 * -32603 under 500; codes the document does not list take the protocol's table (docs/protocol.md §3).
 */
import { httpStatusOfError } from '../../runtime/rest-binding.js';
import type { RestStatuses } from './answer-checks.js';

type Responses = Record<string, { content?: Record<string, { schema?: unknown }> }>;

const PROTOCOL_CODES: Record<string, readonly number[]> = { '400': [-32700, -32600, -32602], '500': [-32603] };

/** The statuses of `POST /<Interface>/<method>` in `document`. */
export function restStatusesOf(document: unknown, interfaceName: string, methodName: string): RestStatuses {
  const paths = (document as { paths?: Record<string, { post?: { responses?: Responses } }> }).paths ?? {};
  const responses = paths[`/${interfaceName}/${methodName}`]?.post?.responses ?? {};
  const byCode = new Map<number, number>();
  for (const [status, response] of Object.entries(responses)) {
    if (status === '200') continue;
    for (const code of PROTOCOL_CODES[status] ?? []) byCode.set(code, Number(status));
    for (const code of codesOfSchema(response.content?.['application/json']?.schema)) byCode.set(code, Number(status));
  }
  return (code) => byCode.get(code) ?? httpStatusOfError(code);
}

/** The `enum` of a `code` property anywhere in the schema's `allOf` (how the document lists declared errors). */
function codesOfSchema(schema: unknown): number[] {
  if (schema === null || typeof schema !== 'object') return [];
  const { allOf, properties } = schema as { allOf?: unknown[]; properties?: { code?: { enum?: unknown[] } } };
  const own = (properties?.code?.enum ?? []).filter((code): code is number => typeof code === 'number');
  return [...own, ...(allOf ?? []).flatMap(codesOfSchema)];
}
