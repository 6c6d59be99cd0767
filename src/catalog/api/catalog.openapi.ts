/** The OpenAPI description of catalog search and lookup. */
import { ApiEndpoint } from '../../common/envelope/api-docs';
import { CatalogLookupResponse, CatalogSearchResponse } from './catalog.responses';

export const CatalogDocs = {
  search: ApiEndpoint({
    operationId: 'catalog_search',
    summary: 'Search a supplier catalog or a machine\'s synced stock',
    description:
      'Core. Answers UCP\'s catalog layout: `products[]`, each with its `variants[]` (one product per good, named by its sku_id). `filters.namespace` chooses: a supply namespace searches that supplier\'s catalog (variants with `sale_units`, `availability`); a machine namespace returns a machine\'s synced slots and needs `filters.location` (variants with `inventory`). ' +
      'Prices are integer fen, always per each; cost and margin never appear. An unreachable catalog is 502, never an empty list.',
    headers: ['UCP-Agent'],
    type: CatalogSearchResponse,
    returns: 'Products with their variants, and `pagination`.',
    errors: { 400: ['missing', 'invalid', 'namespace_unsupported', 'request_too_large'], 502: ['upstream_unreachable'] },
  }),
  lookup: ApiEndpoint({
    operationId: 'catalog_lookup',
    summary: 'Look up variants by id (up to 50), with aliases',
    description: 'Ids may span namespaces (dispatched by prefix). Answers `products[]` (one per id found) with their `variants[]` (a machine good: one per slot holding it). Each variant carries `aliases` and `inputs` (which requested id it answers). Unknown ids get a `not_found` warning; 502 only when no asked catalog answered.',
    headers: ['UCP-Agent'],
    type: CatalogLookupResponse,
    returns: 'The products found, with their variants, and warnings for the others.',
    errors: { 400: ['missing', 'invalid', 'namespace_unsupported', 'request_too_large'], 502: ['upstream_unreachable'] },
  }),
};
