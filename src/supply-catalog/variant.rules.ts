/**
 * Catalog variants (spec "Catalog variant", "Sale unit"). Pure: no Nest, no TypeORM.
 * Cost and margin never appear here: `costFen` is read by nobody in this file.
 */
import { message, UcpMessage } from '../common/envelope/envelope';
import { cny, Price } from '../common/money';
import { skuId } from '../identifiers/identifiers';
import type { PackUnit, SupplyProduct } from '../partners/adapter.types';

export interface SaleUnit {
  unit: PackUnit;
  display_text: string;
  contains?: number;
  increment: number;
  price: Price;
  price_derived: boolean;
}

/** UCP's description (`plain` here): the partner contracts carry none, so it is the title (issue 29, UCP requires it). */
export interface Description {
  plain: string;
}

export const describe = (title: string): Description => ({ plain: title });

/** What every catalog variant shows, from a supplier's catalog or from a machine's shelf. */
interface VariantBase {
  id: string;
  title: string;
  description: Description;
  /** The barcode; absent when unknown (UCP's `sku` is a string when present). */
  sku?: string;
  price: Price;
  quantity_unit: 'EA';
}

export interface SupplyVariant extends VariantBase {
  sale_units: SaleUnit[];
  availability: { available: boolean; stock: number };
}

export interface MachineVariant extends VariantBase {
  inventory: { stock: number; slot_id: string; locked: boolean };
  location: string;
}

/** The fields of a supplier product that a variant shows (cost, spec and sites are deliberately absent). */
export type SupplyProductView = Pick<SupplyProduct, 'vendorSku' | 'title' | 'packSize' | 'packPriceFen' | 'eachPriceFen' | 'eachPriceDerived' | 'stock' | 'barcode'>;

export interface SlotView {
  id: string;
  locationId: string;
  skuId: string;
  title: string;
  barcode: string | null;
  priceFen: number;
  stock: number;
  priceLocked: boolean;
}

/**
 * Sale units of a supplier product: `EA` always; `BX` when the product comes in boxes (packSize > 1), with
 * `contains`, `increment` 1 and the box price. When the supplier quotes only the box (`eachPriceDerived`), the each
 * price is box price / contains, EA carries `price_derived: true`, and EA is ordered in whole boxes: its increment is
 * `contains` (the supplier has no each price of its own to sell at).
 */
export function saleUnits(p: SupplyProductView): SaleUnit[] {
  const derived = p.eachPriceDerived && p.packSize > 1;
  const units: SaleUnit[] = [
    {
      unit: 'EA',
      display_text: derived ? `each (sold in boxes of ${p.packSize})` : 'each',
      increment: derived ? p.packSize : 1,
      price: cny(p.eachPriceFen),
      price_derived: derived,
    },
  ];
  if (p.packSize > 1) {
    units.push({
      unit: 'BX',
      display_text: `box of ${p.packSize}`,
      contains: p.packSize,
      increment: 1,
      price: cny(p.packPriceFen),
      price_derived: false,
    });
  }
  return units;
}

/** The sale unit an order line asks for (`EA` when the line names none), or null when the product has no such unit. */
export function saleUnitFor(p: SupplyProductView, unit: string | undefined): SaleUnit | null {
  return saleUnits(p).find((u) => u.unit === (unit ?? 'EA')) ?? null;
}

export function renderSupplyVariant(namespace: string, p: SupplyProductView): SupplyVariant {
  return {
    id: skuId(namespace, p.vendorSku),
    title: p.title,
    description: describe(p.title),
    ...(p.barcode ? { sku: p.barcode } : {}),
    price: cny(p.eachPriceFen),
    quantity_unit: 'EA',
    sale_units: saleUnits(p),
    availability: { available: p.stock > 0, stock: p.stock },
  };
}

/** The `price_derived` warning of a variant at `path` (e.g. `$.variants[3]`), or null when its price is quoted. */
export function priceDerivedWarning(v: SupplyVariant, path: string): UcpMessage | null {
  return derivedPriceWarning(v.id, v.sale_units, v.price.amount, path);
}

/** The same warning from the supplier product itself (a service has the product, not its rendered variant). */
export function productPriceWarning(namespace: string, p: SupplyProductView, path: string): UcpMessage | null {
  return derivedPriceWarning(skuId(namespace, p.vendorSku), saleUnits(p), p.eachPriceFen, path);
}

function derivedPriceWarning(id: string, units: SaleUnit[], eachFen: number, path: string): UcpMessage | null {
  const bx = units.find((u) => u.unit === 'BX');
  if (!units.some((u) => u.price_derived) || !bx) return null;
  return message(
    'price_derived',
    'warning',
    `${id}: the supplier quotes only the box (${bx.price.amount} fen for ${bx.contains}); the each price ${eachFen} fen is derived from it. Settlement follows the supplier statement.`,
    `${path}.price`,
  );
}

export function renderMachineVariant(slot: SlotView): MachineVariant {
  return {
    id: slot.skuId,
    title: slot.title,
    description: describe(slot.title),
    ...(slot.barcode ? { sku: slot.barcode } : {}),
    price: cny(slot.priceFen),
    quantity_unit: 'EA',
    inventory: { stock: slot.stock, slot_id: slot.id, locked: slot.priceLocked },
    location: slot.locationId,
  };
}

/** A UCP catalog product: the good, its price range and its variants (issue 17: UCP's `products[].variants[]`). */
export interface Product<V> {
  id: string;
  title: string;
  description: Description;
  price_range: { min: Price; max: Price };
  variants: V[];
}

/** Where item i landed when grouped by sku_id: its product and its place among that product's variants. */
export interface Placement {
  product: number;
  variant: number;
}

/**
 * Groups variants into products by sku_id, in order of first appearance. A sku_id names one good in one namespace
 * (spec "Identifiers"), so each product is one good: a supplier product has one variant, a machine good one per
 * machine slot that holds it. Sale units stay inside the variant (they are units of the same variant, not options).
 * `at[i]` is where variant i landed, for message paths.
 */
export function groupIntoProducts<V extends { id: string; title: string; description?: Description; price: Price }>(variants: V[]): { products: Product<V>[]; at: Placement[] } {
  const { groups, at } = groupById(variants, (v) => v.id);
  return { products: groups.map(productOf), at };
}

/** The grouping of groupIntoProducts over anything with a sku_id (a service groups the goods it found, unrendered). */
export function groupById<T>(items: readonly T[], idOf: (item: T) => string): { groups: T[][]; at: Placement[] } {
  const groups: T[][] = [];
  const index = new Map<string, number>();
  const at = items.map((item) => {
    const id = idOf(item);
    let p = index.get(id);
    if (p === undefined) {
      p = groups.length;
      index.set(id, p);
      groups.push([]);
    }
    groups[p].push(item);
    return { product: p, variant: groups[p].length - 1 };
  });
  return { groups, at };
}

/** The product of the variants of one good: named by the first, priced from the lowest to the highest each price. */
export function productOf<V extends { id: string; title: string; description?: Description; price: Price }>(variants: V[]): Product<V> {
  const first = variants[0];
  const range = { min: first.price, max: first.price };
  for (const v of variants) {
    if (v.price.amount < range.min.amount) range.min = v.price;
    if (v.price.amount > range.max.amount) range.max = v.price;
  }
  return { id: first.id, title: first.title, description: first.description ?? describe(first.title), price_range: range, variants };
}

/** JSONPath of a variant placed by `groupIntoProducts`. */
export const variantPath = (at: Placement): string => `$.products[${at.product}].variants[${at.variant}]`;
