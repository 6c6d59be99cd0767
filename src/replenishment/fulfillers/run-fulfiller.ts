import { ReadOutcome } from '../../claims/claim.rules';
import type { NewEvent } from '../../events/events.repository';
import { BudgetOutcome } from '../../guards/guard.rules';
import type { LeadSampleSource } from '../../forecasting/lead-time.rules';
import { FulfillerKind } from '../fulfiller-kind';
import { ReplenishmentRunEntity, RunLine } from '../runs/replenishment-run.entity';
import { RunPartnerOrders } from '../runs/run.types';

/**
 * Where a plan's goods come from for a fulfiller:
 * - `machine_platform`: each slot's own machine platform restocks its own good (no supplier resolution);
 * - `resolved_supplier`: each good's supplier, resolved through the SKU registry;
 * - `stand_in_supplier`: one supplier stands in for every resolved supplier, at that supplier's price.
 */
export type PlanSourcing = 'machine_platform' | 'resolved_supplier' | 'stand_in_supplier';

/**
 * What plans, runs, their queries and views need to know of a fulfiller, declared by the fulfiller (static, so the
 * registry answers without building one). They read these instead of its kind.
 */
export interface FulfillerTraits {
  readonly sourcing: PlanSourcing;
  /** Whose completed deliveries measure its lead time (forecasting reads them as told). */
  readonly leadSamples: LeadSampleSource;
  /** Place needs `{confirm: true}` (the JSON boolean), like the money path it runs through. */
  readonly needsConfirm: boolean;
  /** The run's `fulfiller` column lists several namespaces (comma-separated) rather than naming one. */
  readonly manyNamespaces: boolean;
  /**
   * It buys through purchase orders (checkout sessions `<run id>.<supplier>`): a line is on order once its purchase
   * order is completed, even before the run is placed; the run's approval names them; a repair cancels them or drops
   * the lines a supplier refused.
   */
  readonly buysThroughPurchaseOrders: boolean;
  /** Its placed runs are delivered when their machine platforms complete the restock orders (followed, not received by hand). */
  readonly deliveredByPlatform: boolean;
}

/** What a read of the fulfiller says about an interrupted place (never a second order). */
export interface FulfillerRead {
  outcome: ReadOutcome;
  /** Why, for the event's reasoning and the log. */
  why: string;
  supplierOrderId: string | null;
}

/** The run a fulfiller builds from the plan's carried lines: who it orders from, its lines, its estimated total. */
export interface FulfillerRunDraft {
  /** The run's `fulfiller` column: one namespace, or several comma-separated (traits.manyNamespaces). */
  namespace: string;
  lines: RunLine[];
  totalFen: number;
}

/** The budget's answer at the claim: pass, or the limit the run now passes (an approval is asked for). */
export type ClaimBudgetOutcome = BudgetOutcome;

/** The `replenishment.run` event of a placement, in the fulfiller's words. */
export type RunEvent = Omit<NewEvent, 'kind'>;

/** What becomes of the amount a run holds against the budget (a supplier run's hold; `none`: it holds nothing). */
export type RunHold = 'spend' | 'release' | 'uncertain' | 'none';

/** The partner took the whole run. */
export interface PlacedOutcome {
  placed: true;
  supplierOrderId: string | null;
  hold: RunHold;
  event: RunEvent;
}

/** The run (or one of its parts) was not placed; `error` is the caller's answer, rethrown once recorded. */
export interface NotPlacedOutcome {
  placed: false;
  error: unknown;
  /**
   * `release`: the run is ready again (a clear failure). `keep`: the partner may hold the order (an ambiguous answer),
   * so the run stays `placing` until recovery READS the partner; nothing is released.
   */
  claim: 'release' | 'keep';
  hold: RunHold;
  /** Goods a supplier refused as unavailable (the next plan passes over that supplier for them). */
  unavailable: { namespace: string; vendorSku: string; note: string }[];
  event: RunEvent;
}

/** What a place did, as data: RunPlacementRecorder records it (the fulfiller records nothing itself). */
export type PlacementOutcome = PlacedOutcome | NotPlacedOutcome;

/** The claim's lease, renewed between the parts of a multi-part place (a long run is not taken for an interrupted one). */
export interface RunLease {
  renew(): Promise<void>;
}

/**
 * Sends the parts in order, once each, renewing the lease between them; stops at the first failure. Accepted parts
 * are replayed, never sent again, on a later place (each part's reference is idempotent).
 */
export async function sendInOrder<P>(
  parts: readonly P[],
  send: (part: P) => Promise<void>,
  lease: RunLease,
): Promise<{ accepted: number; failed: { part: P; error: unknown } | null }> {
  let accepted = 0;
  for (const part of parts) {
    try {
      await send(part);
    } catch (error) {
      return { accepted, failed: { part, error } };
    }
    accepted++;
    if (accepted < parts.length) await lease.renew();
  }
  return { accepted, failed: null };
}

/**
 * One way of placing a run (a fulfiller kind). It owns its policy: what it builds from a plan, how its money is
 * guarded at the claim, the partner calls of a place and what they mean (a `PlacementOutcome`, pure data), recovery
 * by READING its partner and the words of those events, and its partner-side orders. RunPlacingService takes the
 * claim, asks it once and has RunPlacementRecorder record the outcome. A new kind: one file implementing this,
 * registered in run-fulfillers.ts (its class also declares `kind` and `traits` as static members: RunFulfillerClass).
 */
export interface RunFulfiller {
  readonly kind: FulfillerKind;
  readonly traits: FulfillerTraits;
  /** At run creation: checks the partners of the carried lines (throws when one cannot take the order). */
  draft(carried: RunLine[], planNamespace: string | null): FulfillerRunDraft;
  /** Checks run under the claim's transaction before the claim (throw to refuse). */
  checkClaim(run: ReplenishmentRunEntity): void;
  /** The budget at the claim; `approved`: the owner approved passing it. May hold the run's amount. */
  claimBudget(run: ReplenishmentRunEntity, approved: boolean): Promise<ClaimBudgetOutcome>;
  /** Calls the partner for a claimed run (each call once, never retried) and says what came of it; records nothing. */
  place(run: ReplenishmentRunEntity, lease: RunLease): Promise<PlacementOutcome>;
  /** Reads the partner for a run whose place was interrupted. */
  read(run: ReplenishmentRunEntity): Promise<FulfillerRead>;
  /**
   * Recovery settled an interrupted place (inside its transaction): the fulfiller settles its money and answers
   * the words that end the event's reasoning.
   */
  recovered(run: ReplenishmentRunEntity, placed: boolean): Promise<string>;
  /** The run's partner-side orders as stored (domain data; the view renders them). */
  partnerOrders(run: ReplenishmentRunEntity): Promise<RunPartnerOrders>;
}
