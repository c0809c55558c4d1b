import { describe, expect, it } from 'vitest';
import { CorsPolicy } from '../../runtime/cors.js';
import { endpointCors, type ViteCorsSetting } from './vite-cors.js';

/** Whether the endpoint's policy from these settings lets `origin` call. */
function allows(vite: ViteCorsSetting, origin: string): boolean {
  const options = endpointCors(vite);
  return options !== undefined && new CorsPolicy(options).allows(origin);
}

const viteDefault = { origin: /^https?:\/\/(?:(?:[^:]+\.)?localhost|127\.0\.0\.1|\[::1\])(?::\d+)?$/ };

describe('endpointCors', () => {
  it("follows Vite's default: pages on localhost may call, other sites may not", () => {
    expect(allows(viteDefault, 'http://localhost:3000')).toBe(true);
    expect(allows(viteDefault, 'http://127.0.0.1:8080')).toBe(true);
    expect(allows(viteDefault, 'https://evil.test')).toBe(false);
  });

  it("follows Vite's true, false, strings, lists and callback functions", () => {
    expect(endpointCors(true)).toEqual({ origins: '*' });
    expect(endpointCors(false)).toBeUndefined();
    expect(endpointCors({ origin: false })).toBeUndefined();
    expect(allows({ origin: 'https://app.test' }, 'https://app.test')).toBe(true);
    expect(allows({ origin: 'https://app.test' }, 'https://other.test')).toBe(false);
    expect(allows({ origin: ['https://a.test', /\.b\.test$/] }, 'https://x.b.test')).toBe(true);
    expect(allows({ origin: (origin, callback) => callback(null, origin === 'https://a.test') }, 'https://a.test')).toBe(true);
    // A callback answered later cannot decide the request: refused.
    expect(allows({ origin: (_origin, callback) => setTimeout(() => callback(null, true)) }, 'https://a.test')).toBe(false);
    expect(endpointCors({ origin: '*', credentials: true, maxAge: 5, allowedHeaders: 'x-a, x-b', exposedHeaders: ['x-c'] })).toEqual({
      origins: '*',
      credentials: true,
      maxAgeSeconds: 5,
      allowedHeaders: ['x-a', 'x-b'],
      exposedHeaders: ['x-c'],
    });
  });
});
