import { IsOptional, IsString, Matches } from 'class-validator';
import { LOCATION_ID } from '../../identifiers/identifiers';

const DAY = /^\d{4}-(0[1-9]|1[0-2])-(0[1-9]|[12]\d|3[01])$/;

export class SalesDailyQuery {
  /** First +08:00 calendar day (YYYY-MM-DD); default 13 days before `to`. */
  @IsOptional()
  @IsString()
  @Matches(DAY, { message: 'a calendar day as YYYY-MM-DD' })
  from?: string;

  /** Last +08:00 calendar day (YYYY-MM-DD); default and at most today. */
  @IsOptional()
  @IsString()
  @Matches(DAY, { message: 'a calendar day as YYYY-MM-DD' })
  to?: string;

  /** One machine only. */
  @IsOptional()
  @IsString()
  @Matches(LOCATION_ID)
  location?: string;
}
