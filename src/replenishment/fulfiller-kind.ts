import { DomainError } from '../common/errors/errors';
import type { LeadSampleSource } from '../forecasting/lead-time.rules';

/**
 * The fulfiller kinds and the traits each fulfiller declares (pure: no Nest, no TypeORM). Each fulfiller
 * (`*-run.fulfiller.ts`) owns its claim policy, call, recovery, event words and view extras; plans, claims and
 * views read its traits instead of switching on its kind. A new kind: its name here, its file, its registration
 * in run-fulfillers.ts.
 */
export const FULFILLER_KIND = {
  simulatedSupplier: 'simulated_supplier',
  machineRestock: 'machine_restock',
  supplyCheckout: 'supply_checkout',
} as const;
/**
 * The one list of kinds. Everything else names a kind through `FULFILLER_KIND` or the `FulfillerKind` type (SQL takes
 * it as a parameter or interpolates the constant); the response classes declare `FulfillerKind`, so the OpenAPI
 * enum and the console's generated schema follow this list.
 */
export const FULFILLER_KINDS = [FULFILLER_KIND.simulatedSupplier, FULFILLER_KIND.machineRestock, FULFILLER_KIND.supplyCheckout] as const;
export type FulfillerKind = (typeof FULFILLER_KINDS)[number];

export function isFulfillerKind(v: unknown): v is FulfillerKind {
  return typeof v === 'string' && (FULFILLER_KINDS as readonly string[]).includes(v);
}

/**
 * The kind of a stored run. A kind that is not in the list is refused (500 `internal_error`): the run was written by
 * something else than this service, and placing, recovering or showing it as another kind could move money wrongly.
 */
export function runFulfillerKind(run: { id: string; fulfillerKind: string }): FulfillerKind {
  if (isFulfillerKind(run.fulfillerKind)) return run.fulfillerKind;
  throw new DomainError('internal_error', `run ${run.id} has an unknown fulfiller kind "${run.fulfillerKind}" (known: ${FULFILLER_KINDS.join(', ')}); it is left as it is`);
}

/**
 * Where a plan's goods come from for a fulfiller:
 * - `machine_platform`: each slot's own machine platform restocks its own good (no supplier resolution);
 * - `resolved_supplier`: each good's supplier, resolved through the SKU registry;
 * - `stand_in_supplier`: one supplier stands in for every resolved supplier, at that supplier's price.
 */
export type PlanSourcing = 'machine_platform' | 'resolved_supplier' | 'stand_in_supplier';

/** What a plan, a place and a view need to know of a fulfiller, declared by the fulfiller. */
export interface FulfillerTraits {
  readonly sourcing: PlanSourcing;
  readonly leadSamples: LeadSampleSource;
  /** Place needs `{confirm: true}` (the JSON boolean), like the money path it runs through. */
  readonly needsConfirm: boolean;
  /** The run's `fulfiller` column lists several namespaces (comma-separated) rather than naming one. */
  readonly manyNamespaces: boolean;
}
