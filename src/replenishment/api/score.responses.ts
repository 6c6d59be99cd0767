/** Response model of GET /replenishment/score (OpenAPI only; see common/envelope.responses.ts); score.view.ts renders it. */
import { FreeObject, Int } from '../../common/envelope/api-docs';
import { UcpEnvelope } from '../../common/envelope/envelope.responses';

export class ScoreResponse extends UcpEnvelope {
  @Int({ minimum: 1 })
  horizon_days: number;
  @Int({ minimum: 0 })
  total_forecasts: number;
  @Int({ minimum: 0, description: 'Forecasts too young to score.' })
  pending: number;
  @FreeObject({ description: 'Accuracy reports: `headline`, `overall` and `per_location` (WAPE, bias, MASE, MAE) and `method`.' })
  reports: Record<string, unknown>;
}
