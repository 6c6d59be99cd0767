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
  /** Does placing move money (hold against the budget, spend recorded)? */
  readonly movesMoney: boolean;
  /** Checks run under the claim's transaction before the claim (throw to refuse). */
  checkClaim(run: ReplenishmentRunEntity): void;
  /** Calls the partner for a claimed run and records the answer; returns the run as stored afterwards. */
  place(run: ReplenishmentRunEntity): Promise<ReplenishmentRunEntity>;
  /** Reads the partner for a run whose place was interrupted. */
  read(run: ReplenishmentRunEntity): Promise<FulfillerRead>;
}
