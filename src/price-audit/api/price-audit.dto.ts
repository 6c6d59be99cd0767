import { IsOptional, IsString, Matches } from 'class-validator';
import { LOCATION_ID } from '../../identifiers/identifiers';

export class PriceAuditQuery {
  /** One machine only. */
  @IsOptional()
  @IsString()
  @Matches(LOCATION_ID)
  location?: string;
}
