import { ReadOutcome } from '../claims/claim.rules';
import { BudgetOutcome } from '../guards/guard.rules';
import { FulfillerKind, FulfillerTraits } from './fulfiller-kind';
import { ReplenishmentRunEntity, RunLine } from './replenishment-run.entity';
import { RunPurchaseOrderView, RunRestockOrderView } from './run.view';

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

/** What a fulfiller adds to the run's view (its partner-side orders). */
export interface RunViewExtras {
  restock_orders?: RunRestockOrderView[];
  purchase_orders?: RunPurchaseOrderView[];
}

/**
 * One way of placing a run (a fulfiller kind). It owns its policy: what it builds from a plan, how its money is
 * guarded at the claim, the one partner call and its record, recovery by READING its partner and the words of
 * those events, and its view extras. RunPlacingService takes the claim (kill switch, `placing`) and asks it.
 * A new kind: one file implementing this, registered in run-fulfillers.ts.
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
  /** Calls the partner for a claimed run and records the answer; returns the run as stored afterwards. */
  place(run: ReplenishmentRunEntity): Promise<ReplenishmentRunEntity>;
  /** Reads the partner for a run whose place was interrupted. */
  read(run: ReplenishmentRunEntity): Promise<FulfillerRead>;
  /**
   * Recovery settled an interrupted place (inside its transaction): the fulfiller settles its money and answers
   * the words that end the event's reasoning.
   */
  recovered(run: ReplenishmentRunEntity, placed: boolean): Promise<string>;
  viewExtras(run: ReplenishmentRunEntity): Promise<RunViewExtras>;
}
