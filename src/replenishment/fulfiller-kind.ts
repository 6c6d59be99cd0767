import { DomainError } from '../common/errors/errors';

/**
 * The fulfiller kinds (pure: no Nest, no TypeORM), known only to the fulfillers (fulfillers/) and the edge (api/:
 * the query's allowed values and the OpenAPI enum). Each fulfiller (`*-run.fulfiller.ts`) owns its claim policy,
 * call, recovery, event words and view extras, and declares its traits (fulfillers/run-fulfiller.ts); plans, runs and
 * their SQL ask the registry (run-fulfillers.ts) for traits or for the kinds having one, never name a kind. A new
 * kind: its name here, its file, its registration in run-fulfillers.ts.
 */
export const FULFILLER_KIND = {
  simulatedSupplier: 'simulated_supplier',
  machineRestock: 'machine_restock',
  supplyCheckout: 'supply_checkout',
} as const;
/**
 * The one list of kinds. The response classes declare `FulfillerKind`, so the OpenAPI enum and the console's
 * generated schema follow this list.
 */
export const FULFILLER_KINDS = [FULFILLER_KIND.simulatedSupplier, FULFILLER_KIND.machineRestock, FULFILLER_KIND.supplyCheckout] as const;
export type FulfillerKind = (typeof FULFILLER_KINDS)[number];

/** The kind a plan or a run uses when none is asked for: the simulated supplier fills runs (docs/contract/). */
export const DEFAULT_FULFILLER_KIND: FulfillerKind = FULFILLER_KIND.simulatedSupplier;

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
