/**
 * The documents of the playground and of the all-constructs fixture against the OpenRPC project's
 * own validator (`@open-rpc/schema-utils-js`): valid OpenRPC 1.3.2.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { validateOpenRPCDocument } from '@open-rpc/schema-utils-js';
import { describe, expect, it } from 'vitest';
import { compileIdl } from '../../src/idl/compile.js';
import { idlToOpenRpc } from '../../src/openrpc/index.js';

const root = join(import.meta.dirname, '..', '..');
const files = ['playground/checkout.idl', 'test/generator/fixtures/everything.idl', 'test/idl/fixtures/multi-file/shop.idl'];

describe.each(files)('the OpenRPC document of %s', (file) => {
  const path = join(root, file);
  const { document, warnings } = idlToOpenRpc(compileIdl(readFileSync(path, 'utf8'), path), { serverUrl: 'http://localhost:3000/rpc' });

  it('is valid for validateOpenRPCDocument, without warnings', () => {
    expect(warnings).toEqual([]);
    expect(validateOpenRPCDocument(document as never)).toBe(true);
  });
});
