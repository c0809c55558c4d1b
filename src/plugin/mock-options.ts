/**
 * The plugin's mock mode (docs/mock.md): `mock: true | string[]` and `mockSeed` make the Vite dev and
 * preview servers answer the interfaces of `server.idl` with mock values (runtime/mock/), and allow
 * the `x-idlrpc-mock-error` request header through their CORS rules.
 */
import { type CorsOptions, DEFAULT_CORS_ALLOWED_HEADERS } from '../../runtime/cors.js';
import { MOCK_ERROR_HEADER } from '../../runtime/mock/mock-error.js';

/** `mock` and `mockSeed`, checked: which interfaces are mocked (undefined: all) and the seed. */
export interface ResolvedMockOptions {
  interfaces?: readonly string[];
  seed: string | number;
}

/** Checks `mock` and `mockSeed`; undefined when mock mode is off. */
export function resolveMockOptions(mock: unknown, mockSeed: unknown): ResolvedMockOptions | undefined {
  if (mockSeed !== undefined && typeof mockSeed !== 'string' && !(typeof mockSeed === 'number' && Number.isFinite(mockSeed))) {
    throw new Error(`unplugin-idl-rpc: mockSeed must be a string or a number, got ${JSON.stringify(mockSeed)}`);
  }
  if (mock === undefined || mock === false) return undefined;
  const seed = mockSeed ?? 'idlrpc';
  if (mock === true) return { seed };
  if (!Array.isArray(mock) || mock.some((name) => typeof name !== 'string' || name === '')) {
    throw new Error(`unplugin-idl-rpc: mock must be true, false or a list of interface names, got ${JSON.stringify(mock)}`);
  }
  return { interfaces: [...mock], seed };
}

/** The endpoint's CORS rules with the mock-error header allowed too (undefined: CORS off, stays off). */
export function corsWithMockHeader(cors: CorsOptions | undefined): CorsOptions | undefined {
  if (cors === undefined) return cors;
  const allowed = cors.allowedHeaders ?? DEFAULT_CORS_ALLOWED_HEADERS;
  return { ...cors, allowedHeaders: [...allowed, MOCK_ERROR_HEADER] };
}
