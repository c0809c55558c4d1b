import { QueryClient } from '@tanstack/query-core';
import { interfaceQueryKey, queryHelpers } from 'unplugin-idl-rpc/runtime/adapters/tanstack';
import { catalogService } from './api.js';

/**
 * TanStack Query's cache, without a framework: the page asks `@tanstack/query-core` directly, as
 * React's `useQuery`, Vue's or Solid's would with the same options. The catalog is kept until
 * something changes stock (an order), which invalidates every query of CatalogService.
 */
export const queryClient = new QueryClient({ defaultOptions: { queries: { staleTime: Number.POSITIVE_INFINITY } } });

export const catalogQueries = queryHelpers(catalogService);

/** Marks every catalog query stale (keys start with `['CatalogService']`): the next read fetches. */
export function invalidateCatalog(): Promise<void> {
  return queryClient.invalidateQueries({ queryKey: interfaceQueryKey(catalogService) });
}
