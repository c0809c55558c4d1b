/**
 * `unplugin-idl-rpc/runtime/msw`: Mock Service Worker request handlers that answer an IDL's
 * endpoint with mock values (docs/mock.md), for front-end unit tests: the page's generated client
 * calls `/rpc` as in production, and MSW answers in the test process (or the browser's worker).
 * MSW is an optional peer dependency: only this entry imports it.
 */
import { http, type HttpHandler } from 'msw';
import { createFetchHandler } from '../fetch.js';
import type { IdlJson } from '../idl-json.js';
import { createMockHandlers, type MockOptions } from './mock-handlers.js';
import { createRpcServer, type RpcServerOptions } from '../server.js';

/** The options of `createMswHandlers`: the mock's, where the endpoint is, and real handlers to keep. */
export interface MswMockOptions extends MockOptions {
  /**
   * The endpoint's address, as MSW matches it: a path (`/rpc`, any origin) or an absolute URL.
   * Its REST binding (`<url>/<Interface>/<method>`) is answered too. Default `/rpc`.
   */
  url?: string;
  /** Real handler objects for the interfaces that are not mocked (`options.interfaces` are). Default none. */
  handlers?: Record<string, object>;
  /** More options of the RPC server behind the handlers (`exposeErrors`, `httpStatus`, ...). */
  server?: Omit<RpcServerOptions, 'idl' | 'handlers'>;
}

/**
 * MSW request handlers answering the JSON-RPC endpoint and its REST binding with mock values:
 * `setupServer(...createMswHandlers(idlJson))` (or `setupWorker` in a browser). Each answer passes
 * the IDL's result validation, as with `createMockHandlers`.
 */
export function createMswHandlers(idl: IdlJson, options: MswMockOptions = {}): HttpHandler[] {
  const { url = '/rpc', handlers = {}, server: serverOptions, ...mockOptions } = options;
  const base = url.length > 1 ? url.replace(/\/+$/, '') : url;
  const server = createRpcServer({ ...serverOptions, idl, handlers: { ...handlers, ...createMockHandlers(idl, mockOptions) } });
  const answer = createFetchHandler(server);
  const resolver = ({ request }: { request: Request }) => answer(request);
  return [http.all(base, resolver), http.all(`${base === '/' ? '' : base}/*`, resolver)];
}
