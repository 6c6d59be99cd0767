import { Type } from 'class-transformer';
import { ArrayMaxSize, ArrayMinSize, IsArray, IsDefined, IsIn, IsInt, IsObject, IsOptional, IsString, Matches, Max, MaxLength, Min, MinLength, ValidateIf, ValidateNested } from 'class-validator';
import { MAX_QUANTITY } from '../../common/edge/limits';
import { LOCATION_ID } from '../../identifiers/identifiers';
import { WEEKDAYS, type Weekday } from '../route-settings.rules';

export class VisitSlotLine {
  @IsDefined()
  @IsString()
  @MinLength(1)
  @MaxLength(200)
  slot_id: string;

  /** Units put into the slot from the van (they leave the depot). */
  @IsDefined()
  @IsInt()
  @Min(0)
  @Max(MAX_QUANTITY)
  loaded: number;

  /** Units picked for the slot that came back (recorded; they never left the depot's books). */
  @IsOptional()
  @IsInt()
  @Min(0)
  @Max(MAX_QUANTITY)
  returned?: number;
}

export class RecordVisitBody {
  @IsDefined()
  @IsString()
  @Matches(LOCATION_ID)
  location_id: string;

  @IsDefined()
  @IsArray()
  @ArrayMinSize(1)
  @ArrayMaxSize(500)
  @IsObject({ each: true })
  @ValidateNested({ each: true })
  @Type(() => VisitSlotLine)
  slots: VisitSlotLine[];

  @IsOptional()
  @IsString()
  @MaxLength(1000)
  note?: string;

  @IsOptional()
  confirm?: unknown;
}

/** A machine's route settings; an absent field is kept, null returns it to the default. */
export class RouteSettingsBody {
  /** What a stop at this machine costs (fen). */
  @IsOptional()
  @ValidateIf((_o, v) => v !== null)
  @IsInt()
  @Min(0)
  @Max(100_000_000)
  stop_cost_fen?: number | null;

  /** Weekdays (+08:00) it can be visited. */
  @IsOptional()
  @ValidateIf((_o, v) => v !== null)
  @IsArray()
  @ArrayMinSize(1)
  @ArrayMaxSize(7)
  @IsIn(WEEKDAYS, { each: true })
  visit_days?: Weekday[] | null;

  /** Machines with the same site share a stop. */
  @IsOptional()
  @ValidateIf((_o, v) => v !== null)
  @IsString()
  @MinLength(1)
  @MaxLength(200)
  site?: string | null;
}
