/** Response models of the admin routes (OpenAPI only; see common/envelope.responses.ts). */
import { ApiProperty } from '@nestjs/swagger';
import { DateTime, Int } from '../../common/envelope/api-docs';
import { UcpEnvelope } from '../../common/envelope/envelope.responses';
import { Fen } from '../../common/envelope/money-docs';

export class KillSwitchView {
  /** While engaged, checkout complete, price updates, restock and run place answer 409 `kill_switch_engaged`; reads work. */
  engaged: boolean;
  reason: string | null;
  @DateTime({ nullable: true })
  changed_at: string | null;
}

export class BudgetRulesView {
  @Fen({ minimum: 0, description: 'A session over it needs a `checkout_budget` approval.' })
  perOrderFen: number;
  @Fen({ minimum: 0, description: 'Spent today (+08:00 calendar) plus the session.' })
  dailyFen: number;
  @Fen({ minimum: 0 })
  monthlyFen: number;
}

export class PriceCapRulesView {
  @Fen({ minimum: 0, description: 'A move (absolute) above it is parked as a `price_change` approval.' })
  maxMoveFen: number;
  @ApiProperty({ minimum: 0, description: 'A move above this percentage of the current price is parked as well.' })
  maxMovePercent: number;
}

export class HardNoGoView {
  /** Vendor slugs never ordered from (`hard_no_go`, the session cannot complete). */
  vendors?: string[];
  /** sku_ids never ordered. */
  skus?: string[];
}

/** The guard rules document (docs/contract/). A float amount, a missing part or a wrong type is 400 `invalid`. */
export class GuardRulesView {
  /** Engages the kill switch when true; releasing it takes `PUT /admin/kill-switch`. */
  killSwitch?: boolean;
  budget: BudgetRulesView;
  priceCapPerItem: PriceCapRulesView;
  /** Every session for these vendors needs a `checkout_probation` approval. */
  probationVendors?: string[];
  hardNoGo?: HardNoGoView;
}

export class GuardsResponse extends UcpEnvelope {
  /** The stored rules; null when none are stored or they cannot be read (see `problem`). */
  guards: GuardRulesView | null;
  /** False: money-moving writes answer 503 `guard_unverifiable` until valid rules are stored. */
  verifiable: boolean;
  problem: string | null;
  kill_switch: KillSwitchView;
}
