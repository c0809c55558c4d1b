/**
 * CORS of the RPC endpoint in the Vite dev server and `vite preview`: Vite's own `server.cors`
 * (dev) or `preview.cors` (preview), whose default allows pages on localhost, 127.0.0.1 and [::1],
 * as for the rest of the dev server. The endpoint is registered in `configureServer`, so that
 * `/rpc` is never answered with index.html. Vite 7 and later run their CORS middleware before
 * such middlewares (vitejs/vite#20222); Vite 6 runs it after, so it never saw the endpoint's
 * requests. The endpoint therefore applies the same setting itself, through the runtime's `cors`
 * option: the same answers on every Vite version.
 */
import { type CorsOptions, DEFAULT_CORS_ALLOWED_HEADERS } from '../../runtime/cors.js';

type Origin = string | RegExp;
type OriginCallback = (error: Error | null, allow?: boolean | Origin | readonly Origin[]) => void;

/** Vite's `server.cors` / `preview.cors`: `true`, `false`, or the options of the `cors` package. */
export type ViteCorsSetting =
  | boolean
  | {
      origin?: boolean | Origin | readonly (Origin | boolean)[] | ((origin: string | undefined, callback: OriginCallback) => void);
      credentials?: boolean;
      maxAge?: number;
      allowedHeaders?: string | readonly string[];
      exposedHeaders?: string | readonly string[];
    }
  | undefined;

/** The runtime's `cors` option for the endpoint: Vite's setting, translated (undefined: off). */
export function endpointCors(vite: ViteCorsSetting): CorsOptions | undefined {
  if (vite === undefined || vite === false) return undefined;
  if (vite === true) return { origins: '*' };
  const origins = originsOf(vite.origin);
  if (origins === undefined) return undefined;
  return {
    origins,
    credentials: vite.credentials,
    maxAgeSeconds: vite.maxAge,
    allowedHeaders: headerNames(vite.allowedHeaders) ?? DEFAULT_CORS_ALLOWED_HEADERS,
    exposedHeaders: headerNames(vite.exposedHeaders),
  };
}

/** The `cors` package's `origin` as our `origins` (undefined: CORS off). */
function originsOf(origin: Exclude<ViteCorsSetting, boolean | undefined>['origin']): CorsOptions['origins'] | undefined {
  if (origin === undefined || origin === '*') return '*';
  if (origin === false) return undefined;
  if (origin === true) return () => true;
  if (typeof origin === 'function') {
    // The package's function answers through a callback; one that answers later (asynchronously)
    // cannot decide a request here, and counts as a refusal.
    return (requestOrigin) => {
      let allowed = false;
      origin(requestOrigin, (error, allow) => {
        allowed = error === null && allow !== undefined && allow !== false && matches(requestOrigin, allow);
      });
      return allowed;
    };
  }
  return (requestOrigin) => matches(requestOrigin, origin);
}

function matches(origin: string, allowed: boolean | Origin | readonly (Origin | boolean)[]): boolean {
  if (allowed === true) return true;
  if (allowed === false) return false;
  if (typeof allowed === 'string') return allowed === '*' || allowed === origin;
  if (allowed instanceof RegExp) {
    allowed.lastIndex = 0;
    return allowed.test(origin);
  }
  return allowed.some((entry) => matches(origin, entry));
}

function headerNames(value: string | readonly string[] | undefined): readonly string[] | undefined {
  if (value === undefined) return undefined;
  return (typeof value === 'string' ? value.split(',') : value).map((name) => name.trim()).filter((name) => name !== '');
}
