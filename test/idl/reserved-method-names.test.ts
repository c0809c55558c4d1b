/**
 * `reserved-method-name`: an interface whose methods would be named `rpc.<...>` on the wire, which
 * JSON-RPC reserves for the protocol (`rpc.discover`, `rpc.stream.item`).
 */
import { describe, expect, it } from 'vitest';
import { tryCompileIdl } from '../../src/idl/compile.js';
import { memoryHost } from './memory-host.js';

describe('reserved-method-name', () => {
  it('refuses an interface named rpc, at its name', () => {
    const text = 'namespace shop\n\ninterface rpc {\n    discover() string\n}\n';
    const { model, diagnostics } = tryCompileIdl(text, 'shop.idl');
    expect(model).toBeUndefined();
    expect(diagnostics).toEqual([
      expect.objectContaining({
        code: 'reserved-method-name',
        file: 'shop.idl',
        line: 3,
        column: 11,
        length: 3,
        message: expect.stringContaining("JSON-RPC reserves the names that begin with 'rpc.'"),
      }),
    ]);
    expect(diagnostics[0].message).toContain('rename the interface');
  });

  it('refuses the interfaces of an imported namespace rpc, located in the imported file', () => {
    const files = {
      'shop.idl': 'namespace shop\nimport "admin.idl"\n\ninterface Shop {\n    ping() string\n}\n',
      'admin.idl': 'namespace rpc\n\ninterface Admin {\n    ping() string\n}\n',
    };
    const { diagnostics } = tryCompileIdl(files['shop.idl'], 'shop.idl', { host: memoryHost(files) });
    expect(diagnostics).toEqual([expect.objectContaining({ code: 'reserved-method-name', file: 'admin.idl', line: 3, column: 11 })]);
    expect(diagnostics[0].message).toContain("interface 'rpc.Admin'");
    expect(diagnostics[0].message).toContain('rename the namespace of the imported file');
  });

  it('accepts names that only look alike: Rpc, rpcAdmin, a root namespace rpc', () => {
    for (const text of [
      'namespace shop\ninterface Rpc {\n    a() string\n}\n',
      'namespace shop\ninterface rpcAdmin {\n    a() string\n}\n',
      'namespace rpc\ninterface Admin {\n    a() string\n}\n',
    ]) {
      expect(tryCompileIdl(text, 'x.idl').diagnostics).toEqual([]);
    }
  });
});
