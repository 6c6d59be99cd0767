/** The JSON of catalog search and lookup, rendered at the edge (the declared types are the response classes). */
import type { ResponseBody } from '../../common/envelope/envelope.responses';
import type { VariantView } from '../../skus/api/skus.responses';
import { renderAliases } from '../../skus/api/skus.view';
import { productOf, renderMachineVariant, renderSupplyVariant } from '../../supply-catalog/variant.rules';
import type { CatalogGood, CatalogLookupResult, CatalogSearchResult, LookupGood } from '../catalog.service';
import type { CatalogLookupResponse, CatalogSearchResponse, ProductView } from './catalog.responses';

/** The result's warnings (`r.messages`) go to the envelope: the controller passes them to `ok`. */
export function renderCatalogSearch(r: CatalogSearchResult): ResponseBody<CatalogSearchResponse> {
  return { products: r.products.map((goods) => renderProduct(goods.map(renderVariant))), pagination: r.pagination };
}

export function renderCatalogLookup(r: CatalogLookupResult): ResponseBody<CatalogLookupResponse> {
  return { products: r.products.map((goods) => renderProduct(goods.map(renderLookupVariant))) };
}

function renderProduct(variants: VariantView[]): ProductView {
  return productOf(variants);
}

function renderVariant(g: CatalogGood): VariantView {
  return g.role === 'supply' ? renderSupplyVariant(g.namespace, g.product) : renderMachineVariant(g.slot);
}

function renderLookupVariant(f: LookupGood): VariantView {
  return { ...renderVariant(f.good), aliases: renderAliases(f.aliases), inputs: [{ id: f.input, match: 'exact' }] };
}
