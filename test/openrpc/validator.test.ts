/**
 * The documents of the playground and of the all-constructs fixture against the OpenRPC project's
 * own tools (`@open-rpc/schema-utils-js`): valid OpenRPC 1.3.2, and dereferenced as the generator
 * and the mock server do before anything else.
 *
 * `dereferenceDocument` (2.2.1, through @json-schema-tools/dereferencer 1.6.3) never ends on a
 * schema that reaches itself through `#/components/schemas/...` (it follows the reference again
 * and again, until the heap is full): every recursive IDL type (everything.idl's `Tree`, whose
 * `children` are Trees) makes such a schema. The documents are dereferenced here only where the
 * IDL has no recursive type (docs/openrpc.md, "Limits").
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { dereferenceDocument, validateOpenRPCDocument } from '@open-rpc/schema-utils-js';
import { describe, expect, it } from 'vitest';
import { compileIdl } from '../../src/idl/compile.js';
import { idlToOpenRpc } from '../../src/openrpc/index.js';

const root = join(import.meta.dirname, '..', '..');
const files = ['playground/checkout.idl', 'test/generator/fixtures/everything.idl', 'test/idl/fixtures/multi-file/shop.idl'];
/** The files without a recursive type (see above). */
const withoutRecursion = ['playground/checkout.idl', 'test/idl/fixtures/multi-file/shop.idl'];

/** The document of an IDL file of the repository, with an absolute server address. */
function documentOf(file: string) {
  const path = join(root, file);
  return idlToOpenRpc(compileIdl(readFileSync(path, 'utf8'), path), { serverUrl: 'http://localhost:3000/rpc' });
}

describe.each(files)('the OpenRPC document of %s', (file) => {
  it('is valid for validateOpenRPCDocument, without warnings', () => {
    const { document, warnings } = documentOf(file);
    expect(warnings).toEqual([]);
    expect(validateOpenRPCDocument(document as never)).toBe(true);
  });
});

describe.each(withoutRecursion)('the OpenRPC document of %s', (file) => {
  it('dereferences: every $ref resolves, the errors to their code and message', async () => {
    const resolved = (await dereferenceDocument(structuredClone(documentOf(file).document) as never)) as unknown as {
      methods: { errors?: { code: number; message: string }[] }[];
    };
    expect(JSON.stringify(resolved)).not.toContain('"$ref"');
    const errors = resolved.methods.flatMap((method) => method.errors ?? []);
    expect(errors.length).toBeGreaterThan(0);
    for (const error of errors) expect(error).toEqual({ code: expect.any(Number), message: expect.any(String) });
  });
});
