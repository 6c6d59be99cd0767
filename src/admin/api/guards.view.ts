/** The admin JSON of the guard layer (docs/contract/), rendered at the edge from its state. */
import { toPlus8OrNull } from '../../common/time';
import type { ResponseBody } from '../../common/envelope/envelope.responses';
import type { GuardState } from '../../guards/guards.service';
import type { GuardsResponse } from './admin.responses';

export function renderGuards(s: GuardState): ResponseBody<GuardsResponse> {
  return {
    guards: s.rules ? { ...s.rules, killSwitch: s.engaged } : null,
    verifiable: s.rules !== null,
    problem: s.rules ? null : s.problem,
    kill_switch: { engaged: s.engaged, reason: s.reason, changed_at: toPlus8OrNull(s.changedAt) },
  };
}
