import { Injectable } from '@nestjs/common';
import { startOfDayPlus8, startOfMonthPlus8 } from '../common/time';
import { BudgetOutcome, checkBudget } from './guard.rules';
import { GuardsRepository } from './guards.repository';
import { GuardsService } from './guards.service';

/** The budget limits (fen) and what is spent against them in the day and month of `readAt` (+08:00). */
export interface BudgetStanding {
  readAt: Date;
  budget: { perOrderFen: number; dailyFen: number; monthlyFen: number };
  dayFen: number;
  monthFen: number;
}

/**
 * The budget guard: per order, daily and monthly limits on the +08:00 calendar, counting the spend ledger
 * (what suppliers really accepted, plus orders being placed right now or whose outcome is uncertain).
 */
@Injectable()
export class BudgetService {
  constructor(
    private readonly guards: GuardsService,
    private readonly repo: GuardsRepository,
  ) {}

  /** The limits and what is spent against them today and this month (+08:00), for a person judging an approval. */
  async standing(at: Date = new Date()): Promise<BudgetStanding> {
    const rules = await this.guards.rules();
    const spent = await this.repo.spentSince(startOfDayPlus8(at), startOfMonthPlus8(at));
    return { readAt: at, budget: rules.budget, ...spent };
  }

  /** Would an order of `amountFen` at `at` pass? 503 guard_unverifiable when the rules are missing or unreadable. */
  async check(amountFen: number, at: Date = new Date(), exclude?: { source: string; ref: string }): Promise<BudgetOutcome> {
    const rules = await this.guards.rules();
    const spent = await this.repo.spentSince(startOfDayPlus8(at), startOfMonthPlus8(at), exclude);
    return checkBudget(rules.budget, amountFen, spent);
  }

  /** Counts money really spent (idempotent per source and ref); inside the caller's transaction when there is one. */
  async recordSpend(amountFen: number, source: string, ref: string): Promise<void> {
    await this.repo.upsertSpend(source, ref, amountFen, 'spent');
  }

  /**
   * Checks the budget and holds `amountFen` for (source, ref) in one step, serialised by an advisory lock, so two
   * orders placed at once cannot both use the same remaining budget. Must run inside a transaction (Tx): the lock
   * lasts until it ends.
   * Returns the budget outcome; nothing is held when it is not ok.
   */
  async checkAndHold(
    amountFen: number,
    source: string,
    ref: string,
    opts: { ignoreLimits?: boolean } = {},
  ): Promise<BudgetOutcome> {
    await this.repo.lockBudget();
    const outcome = await this.check(amountFen, new Date(), { source, ref });
    if (!outcome.ok && !opts.ignoreLimits) return outcome;
    await this.repo.upsertSpend(source, ref, amountFen, 'held');
    return outcome;
  }

  /** Serialises budget decisions until the current transaction ends (check, then hold, without a race). */
  async lock(): Promise<void> {
    await this.repo.lockBudget();
  }

  /** Counts `amountFen` for (source, ref) while the order is being placed (call after `lock` and `check`). */
  async hold(amountFen: number, source: string, ref: string): Promise<void> {
    await this.repo.upsertSpend(source, ref, amountFen, 'held');
  }

  /** The supplier refused: nothing was spent. */
  async release(source: string, ref: string): Promise<void> {
    await this.repo.deleteSpend(source, ref);
  }

  /** The supplier could not be reached: the order may exist, so the amount stays counted. */
  async markUncertain(source: string, ref: string): Promise<void> {
    await this.repo.setSpendState(source, ref, 'uncertain');
  }
}
