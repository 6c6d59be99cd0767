import { Inject, Injectable, Logger, OnApplicationBootstrap } from '@nestjs/common';
import { ClsService } from 'nestjs-cls';
import { Errors } from '../common/errors/errors';
import { APP_CONFIG } from '../config/app-config';
import type { AppConfig } from '../config/app-config';
import { Tx } from '../database/tx';
import { EventsService } from '../events/events.service';
import { NewEvent } from '../events/events.repository';
import { GuardRules, parseGuardRules, parseGuardRulesText } from './guard.rules';
import { GuardsRepository } from './guards.repository';
import { connectionLoss } from '../database/connection-loss.rules';

export interface GuardState {
  engaged: boolean;
  reason: string | null;
  changedAt: Date | null;
  /** Null when no rules are stored or they are unusable (see `problem`). */
  rules: GuardRules | null;
  problem: string | null;
}

/** The guard state read in the current snapshot scope or transaction (its CLS context), shared by every check in it. */
const GUARD_SNAPSHOT = Symbol('guards.snapshot');
type Snapshot = { state?: GuardState };

/**
 * The guard layer's state: rules stored in the database (seeded from SERVICE_GUARDS at boot when given) and the
 * kill switch (SERVICE_KILL_SWITCH=on engages it at boot whatever the rules say). Every change is an event.
 */
@Injectable()
export class GuardsService implements OnApplicationBootstrap {
  private readonly logger = new Logger(GuardsService.name);
  constructor(
    private readonly repo: GuardsRepository,
    private readonly events: EventsService,
    private readonly tx: Tx,
    private readonly cls: ClsService,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    if (this.config.guardsJson !== null) {
      const parsed = parseGuardRulesText(this.config.guardsJson);
      const stored = await this.repo.get();
      if (parsed.ok) {
        const { killSwitch, ...doc } = parsed.rules;
        if (JSON.stringify(stored?.rules ?? null) !== JSON.stringify(doc) || stored?.problem) {
          await this.storeRules(doc as unknown as Record<string, unknown>, null, {
            kind: 'guard.changed',
            summary: 'guard rules seeded from the configuration',
            reasoning: 'SERVICE_GUARDS (or SERVICE_GUARDS_FILE) was given at boot; the stored rules were replaced by it',
            data: { rules: doc },
          });
        }
        if (killSwitch) await this.setKillSwitch(true, 'killSwitch: true in the configured guard rules');
      } else {
        // Malformed or unreadable: money writes answer guard_unverifiable until valid rules are stored.
        this.logger.warn(`guard rules from the configuration are unusable (${parsed.problem}); money writes answer 503`);
        await this.storeRules(null, parsed.problem, {
          kind: 'guard.changed',
          summary: 'configured guard rules are unusable',
          reasoning: `${parsed.problem}; checkout complete and price updates answer guard_unverifiable until rules are stored`,
        });
      }
    }
    if (this.config.killSwitchAtBoot) await this.setKillSwitch(true, 'SERVICE_KILL_SWITCH=on at boot');
  }

  /**
   * The current state; 503 guard_unverifiable when it cannot be read. Read once per snapshot (`withSnapshot`, else
   * per transaction) and reused by every check in it, so one request decides on one guard state; a change made
   * through this service drops the snapshot.
   */
  async state(): Promise<GuardState> {
    const snapshot = this.snapshot();
    if (snapshot?.state) return snapshot.state;
    const state = await this.read();
    if (snapshot) snapshot.state = state;
    return state;
  }

  /**
   * Runs `fn` with one guard snapshot: every check inside it (kill switch, rules, budget), in and out of its
   * transactions, uses the first read. Joins an enclosing one. Each money write wraps its request in it (contexts are
   * not opened per request, issue 13); outside one, the snapshot lives as long as the transaction (Tx) it was read in.
   */
  withSnapshot<T>(fn: () => Promise<T>): Promise<T> {
    if (this.cls.isActive() && this.cls.get(GUARD_SNAPSHOT)) return fn();
    return this.cls.run({ ifNested: 'inherit' }, () => {
      this.cls.set(GUARD_SNAPSHOT, {} satisfies Snapshot);
      return fn();
    });
  }

  private snapshot(): Snapshot | undefined {
    if (!this.cls.isActive()) return undefined;
    let snapshot = this.cls.get<Snapshot | undefined>(GUARD_SNAPSHOT);
    if (!snapshot) {
      snapshot = {};
      this.cls.set(GUARD_SNAPSHOT, snapshot);
    }
    return snapshot;
  }

  private forgetSnapshot(): void {
    const snapshot = this.cls.isActive() ? this.cls.get<Snapshot | undefined>(GUARD_SNAPSHOT) : undefined;
    if (snapshot) snapshot.state = undefined;
  }

  private async read(): Promise<GuardState> {
    let row;
    try {
      row = await this.repo.get();
    } catch (err) {
      this.logger.warn(`guard state unreadable: ${(err as Error).message}`);
      // A lost connection stays what it is (still closed: nothing runs): its transaction was cut, which the caller
      // may run again (a keyed create) or answers 503 not_ready (issue 38).
      if (connectionLoss(err) !== 'none') throw err;
      throw Errors.guardUnverifiable('the guard state could not be read');
    }
    if (!row) return { engaged: false, reason: null, changedAt: null, rules: null, problem: 'no guard rules are stored' };
    let rules: GuardRules | null = null;
    let problem = row.problem;
    if (row.rules) {
      const parsed = parseGuardRules(row.rules);
      if (parsed.ok) rules = parsed.rules;
      else problem = parsed.problem;
    } else if (!problem) {
      problem = 'no guard rules are stored';
    }
    return { engaged: row.killSwitch, reason: row.killSwitchReason, changedAt: row.killSwitchChangedAt, rules, problem };
  }

  /** The usable rules, or 503 guard_unverifiable. */
  async rules(): Promise<GuardRules> {
    const s = await this.state();
    if (!s.rules) throw Errors.guardUnverifiable(s.problem ?? 'no guard rules are stored');
    return s.rules;
  }

  /** PUT /admin/guards: the whole section 4 document; a bad shape is 400 and nothing changes. Answers the new state. */
  async replaceRules(raw: unknown): Promise<GuardState> {
    const parsed = parseGuardRules(raw);
    if (!parsed.ok) throw Errors.invalid('$', parsed.problem);
    const { killSwitch, ...doc } = parsed.rules;
    await this.storeRules(doc as unknown as Record<string, unknown>, null, {
      kind: 'guard.changed',
      summary: 'guard rules replaced',
      reasoning: 'the guard rules were replaced through PUT /ucp/v1/admin/guards',
      data: { rules: doc },
    });
    const explicit = (raw as { killSwitch?: unknown }).killSwitch;
    if (typeof explicit === 'boolean') {
      await this.setKillSwitch(killSwitch, `killSwitch: ${killSwitch} in the guard rules set through PUT /ucp/v1/admin/guards`);
    }
    return this.state();
  }

  /** Engages or releases the kill switch; an event is recorded when it actually changes. */
  async setKillSwitch(engaged: boolean, reason: string): Promise<GuardState> {
    this.forgetSnapshot();
    await this.tx.run(async () => {
      const before = await this.repo.setKillSwitch(engaged, reason);
      if (before === engaged) return;
      await this.events.record({
        kind: 'kill_switch',
        summary: engaged ? 'kill switch engaged' : 'kill switch released',
        reasoning: reason,
        data: { engaged },
      });
    });
    return this.state();
  }

  /** Stores the rules (or their problem) and the event that says so, in one transaction. */
  private async storeRules(rules: Record<string, unknown> | null, problem: string | null, event: NewEvent): Promise<void> {
    this.forgetSnapshot();
    await this.tx.run(async () => {
      await this.repo.upsertRules(rules, problem);
      await this.events.record(event);
    });
  }
}
