/** The OpenAPI description of the SKU registry. */
import { ApiEndpoint } from '../../common/envelope/api-docs';
import { SkuRecordResponse } from './skus.responses';

export const SkusDocs = {
  get: ApiEndpoint({
    operationId: 'skus_get',
    summary: 'Read a SKU: barcodes, aliases and where to buy it',
    description: 'Aliases are symmetric; `barcode`, `manual` and `vendor` aliases may be used to order, `suggested` ones may not. `purchasable_from` lists only what a supplier carries today and can price.',
    type: SkuRecordResponse,
    returns: 'The SKU record.',
    errors: { 400: ['invalid'], 404: ['not_found'] },
  }),
  putAliases: ApiEndpoint({
    operationId: 'skus_put_aliases',
    summary: 'Replace the confirmed aliases of a SKU',
    description: 'Replaces the stored alias set of this SKU (recorded as `manual`); `suggested` is refused, and so is an alias inside the SKU\'s own namespace.',
    type: SkuRecordResponse,
    returns: 'The updated SKU record.',
    errors: { 400: ['missing', 'invalid', 'request_too_large'], 404: ['not_found'] },
  }),
};
