/** Response models of catalog search and lookup (OpenAPI only; see common/envelope.responses.ts). */
import { PaginationView, PriceView, UcpEnvelope } from '../../common/envelope/envelope.responses';
import { VariantView } from '../../skus/api/skus.responses';
import { DescriptionView } from '../../supply-catalog/api/variant.responses';

export class PriceRangeView {
  min: PriceView;
  max: PriceView;
}

/**
 * A catalog product (UCP layout): one good, named by its sku_id. A supplier product has one variant; a machine good
 * looked up across machines has one variant per slot that holds it. `description` is the title: the partner contract
 * carries none (UCP requires one).
 */
export class ProductView {
  /** The sku_id of the good, the same as its variants' `id`. */
  id: string;
  title: string;
  description: DescriptionView;
  /** The lowest and highest each price of its variants. */
  price_range: PriceRangeView;
  variants: VariantView[];
}

export class CatalogSearchResponse extends UcpEnvelope {
  /** One product per matching good, each with its variant; paginated by product. */
  products: ProductView[];
  pagination: PaginationView;
}

export class CatalogLookupResponse extends UcpEnvelope {
  /** One product per requested id that was found, in the order asked; each variant says which input it answers (`inputs`). */
  products: ProductView[];
}
