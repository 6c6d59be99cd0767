import { ReplenishmentRunEntity } from './replenishment-run.entity';
import { ReadOutcome } from '../claims/claim.rules';

/** What a read of the fulfiller says about an interrupted place (never a second order). */
export interface FulfillerRead {
  outcome: ReadOutcome;
  /** Why, for the event's reasoning and the log. */
  why: string;
  supplierOrderId: string | null;
}

/**
 * One way of placing a run (a fulfiller kind). The claim (`placing`, amount held when money moves) is taken by
 * RunPlacingService; the fulfiller calls its partner once, records the answer, and on recovery READS the partner.
 */
export interface RunFulfiller {
  /** Does placing move money at the run level (hold against the budget, spend recorded)? */
  readonly movesMoney: boolean;
  /**
   * Checked against the budget as a whole at the claim (over it: the run's `replenishment_run` approval) without a
   * run-level hold, because the fulfiller's own money path holds what it spends (supply checkout).
   */
  readonly budgetApprovalOnly?: boolean;
  /** Place needs `{confirm: true}` (the JSON boolean), like the money path it runs through. */
  readonly needsConfirm?: boolean;
  /** Checks run under the claim's transaction before the claim (throw to refuse). */
  checkClaim(run: ReplenishmentRunEntity): void;
  /** Calls the partner for a claimed run and records the answer; returns the run as stored afterwards. */
  place(run: ReplenishmentRunEntity): Promise<ReplenishmentRunEntity>;
  /** Reads the partner for a run whose place was interrupted. */
  read(run: ReplenishmentRunEntity): Promise<FulfillerRead>;
}
