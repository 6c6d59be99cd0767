import { IsInt, IsOptional, Max, Min } from 'class-validator';
import { SALES_WINDOW_MAX_DAYS, SALES_WINDOW_MIN_DAYS } from '../sync.rules';

export class SyncLocationsBody {
  /** Days of sales to pull: integer, at least 21, default 30. */
  @IsOptional()
  @IsInt()
  @Min(SALES_WINDOW_MIN_DAYS)
  @Max(SALES_WINDOW_MAX_DAYS)
  sales_window_days?: number;
}
