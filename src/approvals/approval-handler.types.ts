/** The contract between approvals and the capabilities that act on them (handlers, their effects, their recovery). */
import type { Approval } from './approval';

/**
 * The recording of an executed decision's effect (the slot's new price, the run's new status, the session's new
 * evaluation). It runs inside the ONE transaction that also records the approval's outcome: an execution whose
 * effect is recorded is finished, and one whose effect is not recorded is not (issue 27).
 */
export type RecordEffect = () => Promise<void>;

/** What reading an interrupted execution found; `placed` may carry the recording of an effect not yet recorded. */
export type ExecutionRead = { outcome: 'placed'; record?: RecordEffect } | { outcome: 'not_placed' | 'unknown' };

/** What a capability does when one of its approvals is resolved: it receives the record and the kind's typed subject. */
export interface ApprovalHandler<S> {
  /**
   * Carries out the approved decision (a partner call, if any, happens here, outside any transaction) and returns
   * the recording of its effect, which runs in the transaction that marks the approval approved. A throw leaves it
   * pending and answers the error.
   */
  onApproved(approval: Approval, subject: S): Promise<RecordEffect>;
  onRejected?(approval: Approval, subject: S): Promise<RecordEffect>;
  /**
   * An execution of this decision was interrupted (the process died while the approval was `executing`): find out
   * whether its effect took place, reading the service's OWN record first (an effect it recorded is finished) and
   * the partner or the subject's state second: `placed` (done: the approval is resolved, with `record` run in the
   * same transaction when the effect still has to be recorded), `not_placed` (nothing happened: pending again, for
   * the owner to resolve again) or `unknown` (cannot tell now: left for the next attempt). Never executes a partner
   * call again. Without it, an interrupted execution goes back to pending.
   */
  recover?(approval: Approval, subject: S, approved: boolean): Promise<ExecutionRead>;
}

/** A registered handler, with the subject read from the stored row. */
export interface StoredApprovalHandler {
  onApproved(approval: Approval): Promise<RecordEffect>;
  onRejected?(approval: Approval): Promise<RecordEffect>;
  recover?(approval: Approval, approved: boolean): Promise<ExecutionRead>;
}
