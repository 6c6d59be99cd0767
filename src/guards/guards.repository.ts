import { Injectable } from '@nestjs/common';
import { GuardStateEntity } from './guard-state.entity';
import { SPEND_MACHINE, SpendState } from './guard.rules';
import { Tx } from '../database/tx';

export const GUARD_ROW = 'current';
/** Advisory lock that serialises budget holds, so two orders cannot both pass the same remaining budget. */
const BUDGET_LOCK = 727_100_400;

/** Queries of the guard state and the spend ledger; no business rules. */
@Injectable()
export class GuardsRepository {
  constructor(private readonly tx: Tx) {}

  get(): Promise<GuardStateEntity | null> {
    return this.tx.manager.getRepository(GuardStateEntity).findOne({ where: { id: GUARD_ROW } });
  }

  async upsertRules(rules: Record<string, unknown> | null, problem: string | null): Promise<void> {
    await this.tx.manager.query(
      `INSERT INTO guard_state (id, rules, problem, updated_at) VALUES ($1, $2, $3, now())
       ON CONFLICT (id) DO UPDATE SET rules = EXCLUDED.rules, problem = EXCLUDED.problem, updated_at = now()`,
      [GUARD_ROW, rules === null ? null : JSON.stringify(rules), problem],
    );
  }

  /** Sets the kill switch; returns the previous value (null when there was no row). */
  async setKillSwitch(engaged: boolean, reason: string): Promise<boolean | null> {
    const m = this.tx.manager;
    const before = (await m.query(`SELECT kill_switch FROM guard_state WHERE id = $1 FOR UPDATE`, [GUARD_ROW])) as { kill_switch: boolean }[];
    await m.query(
      `INSERT INTO guard_state (id, kill_switch, kill_switch_reason, kill_switch_changed_at, updated_at) VALUES ($1, $2, $3, now(), now())
       ON CONFLICT (id) DO UPDATE SET kill_switch = EXCLUDED.kill_switch, kill_switch_reason = EXCLUDED.kill_switch_reason,
         kill_switch_changed_at = now(), updated_at = now()`,
      [GUARD_ROW, engaged, reason],
    );
    return before[0]?.kill_switch ?? null;
  }

  async lockBudget(): Promise<void> {
    await this.tx.manager.query('SELECT pg_advisory_xact_lock($1)', [BUDGET_LOCK]);
  }

  /** Sums of the spend ledger since the two instants, optionally leaving one (source, ref) out. */
  async spentSince(
    dayStart: Date,
    monthStart: Date,
    exclude?: { source: string; ref: string },
  ): Promise<{ dayFen: number; monthFen: number }> {
    const rows = (await this.tx.manager.query(
      `SELECT COALESCE(SUM(amount_fen) FILTER (WHERE spent_at >= $1), 0)::text AS day,
              COALESCE(SUM(amount_fen), 0)::text AS month
         FROM spend_ledger
        WHERE spent_at >= $2 AND NOT (source = $3 AND ref = $4)`,
      [dayStart, monthStart, exclude?.source ?? '', exclude?.ref ?? ''],
    )) as { day: string; month: string }[];
    return { dayFen: Number(rows[0].day), monthFen: Number(rows[0].month) };
  }

  /** Writes the row in `state`; an existing row moves only along SPEND_MACHINE (from one of the states leading there). */
  async upsertSpend(source: string, ref: string, amountFen: number, state: SpendState): Promise<void> {
    await this.tx.manager.query(
      `INSERT INTO spend_ledger (source, ref, amount_fen, state, spent_at) VALUES ($1, $2, $3, $4, now())
       ON CONFLICT (source, ref) DO UPDATE SET amount_fen = EXCLUDED.amount_fen, state = EXCLUDED.state
       WHERE spend_ledger.state = ANY($5::text[])`,
      [source, ref, amountFen, state, SPEND_MACHINE.sourcesOf(state)],
    );
  }

  async setSpendState(source: string, ref: string, state: SpendState): Promise<void> {
    await this.tx.manager.query(`UPDATE spend_ledger SET state = $3 WHERE source = $1 AND ref = $2 AND state = ANY($4::text[])`, [
      source,
      ref,
      state,
      SPEND_MACHINE.sourcesOf(state),
    ]);
  }

  async deleteSpend(source: string, ref: string): Promise<void> {
    await this.tx.manager.query(`DELETE FROM spend_ledger WHERE source = $1 AND ref = $2`, [source, ref]);
  }
}
