import { Type } from 'class-transformer';
import { IsIn, IsInt, IsOptional, IsString, Max, MaxLength, Min } from 'class-validator';
import { ORDERS_MAX_LIMIT, TRADE_STATUS_FILTERS } from '../orders.rules';

/** `GET /orders` query (spec "Orders"). Times are checked as RFC 3339 by the service. */
export class ListOrdersQuery {
  @IsOptional()
  @IsIn(['sale', 'purchase'])
  kind?: 'sale' | 'purchase';

  @IsOptional()
  @IsString()
  @MaxLength(64)
  location?: string;

  @IsOptional()
  @IsString()
  @MaxLength(64)
  from?: string;

  @IsOptional()
  @IsString()
  @MaxLength(64)
  to?: string;

  @IsOptional()
  @IsIn([...TRADE_STATUS_FILTERS])
  trade_status?: string;

  @IsOptional()
  @IsString()
  @MaxLength(64)
  updated_from?: string;

  @IsOptional()
  @IsString()
  @MaxLength(64)
  updated_to?: string;

  @IsOptional()
  @IsString()
  @MaxLength(1000)
  cursor?: string;

  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(1)
  @Max(ORDERS_MAX_LIMIT)
  limit?: number;
}
