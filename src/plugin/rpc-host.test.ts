import { describe, expect, test } from 'vitest';
import { rpcHostFor } from './rpc-host.js';
import type { ServerEntryModule } from './server-entry.js';

/** An entry module as a module namespace is while its evaluation is under way: no exports set yet. */
function loadingEntry(): ServerEntryModule {
  return { handlers: {} } as unknown as ServerEntryModule;
}

describe('rpcHostFor', () => {
  test('a module met while it still loads fails that request, and is hosted again once its exports are set', () => {
    const host = rpcHostFor({ rpcPath: '/rpc', exposeErrors: true, cors: undefined, httpStatus: undefined, mcp: undefined });
    const entry = loadingEntry();
    const first = host(entry);
    expect(String(first.failure)).toContain('the server module is still loading after an edit');

    // Live bindings: the same namespace object gets its exports when the evaluation ends.
    const middleware = () => {};
    Object.assign(entry, {
      handlers: { LibraryService: { listBooks: () => [] } },
      idlJson: { interfaces: [{ name: 'LibraryService' }] },
      createServer: () => ({}),
      createMiddleware: () => middleware,
    });
    const second = host(entry);
    expect(second.failure).toBeUndefined();
    expect(second.middleware).toBe(middleware);
    expect(host(entry)).toMatchObject({ fresh: false, middleware });
  });

  test('handlers that do not fit the IDL stay a failure of that entry until an edit', () => {
    const host = rpcHostFor({ rpcPath: '/rpc', exposeErrors: true, cors: undefined, httpStatus: undefined, mcp: undefined });
    const entry = {
      handlers: {},
      idlJson: { interfaces: [] },
      createServer: () => {
        throw new Error('createRpcServer: the handler of LibraryService has no method countBooks');
      },
      createMiddleware: () => () => {},
    } as unknown as ServerEntryModule;
    expect(String(host(entry).failure)).toContain('has no method countBooks');
    expect(host(entry)).toMatchObject({ fresh: false });
  });
});
