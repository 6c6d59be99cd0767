import { Type } from 'class-transformer';
import { ArrayMaxSize, ArrayMinSize, IsArray, IsDefined, IsIn, IsInt, IsObject, IsOptional, IsString, Matches, Max, MaxLength, Min, MinLength, ValidateNested } from 'class-validator';
import { MAX_QUANTITY } from '../../common/edge/limits';
import { LOCATION_ID } from '../../identifiers/identifiers';
import { FULFILLER_KINDS } from '../fulfiller-kind';
import type { FulfillerKind } from '../fulfiller-kind';

export class PlanQuery {
  @IsOptional()
  @IsString()
  @Matches(LOCATION_ID)
  location?: string;

  /** Whose lead time and units the plan uses: the simulated supplier (default), the machine platform's restock order, or the resolved suppliers (supply checkout). */
  @IsOptional()
  @IsIn(FULFILLER_KINDS)
  fulfiller?: FulfillerKind;
}

export class CreateRunQuery {
  /** Only this location's slots (the whole fleet when absent). */
  @IsOptional()
  @IsString()
  @Matches(LOCATION_ID)
  location?: string;

  /**
   * Who fills the run: the simulated supplier (default), or `machine_restock`: one binding restock order per
   * location to its machine platform (each platform needs `replenishment.order`), or `supply_checkout`: one
   * purchase order (checkout session) per resolved supplier, completed under the guards of checkout complete.
   */
  @IsOptional()
  @IsIn(FULFILLER_KINDS)
  fulfiller?: FulfillerKind;
}

export class ListRunsQuery {
  /** Checked against the run statuses by the service (unknown → 400 invalid). */
  @IsOptional()
  @IsString()
  @MaxLength(50)
  status?: string;
}

export class DeliveredLine {
  @IsDefined()
  @IsString()
  @MinLength(1)
  @MaxLength(200)
  slot_id: string;

  @IsDefined()
  @IsInt()
  @Min(0)
  @Max(MAX_QUANTITY)
  quantity: number;
}

export class ReceiveBody {
  @IsDefined()
  @IsArray()
  @ArrayMinSize(1)
  @ArrayMaxSize(1000)
  @IsObject({ each: true })
  @ValidateNested({ each: true })
  @Type(() => DeliveredLine)
  delivered: DeliveredLine[];

  @IsOptional()
  @IsString()
  @MaxLength(1000)
  note?: string;
}

/** Lines of a placed run that arrived at the warehouse: units per slot line, into the depot. */
export class ArrivalsBody {
  @IsDefined()
  @IsArray()
  @ArrayMinSize(1)
  @ArrayMaxSize(1000)
  @IsObject({ each: true })
  @ValidateNested({ each: true })
  @Type(() => DeliveredLine)
  arrived: DeliveredLine[];

  @IsOptional()
  @IsString()
  @MaxLength(1000)
  note?: string;
}

export class ScoreQuery {
  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(1)
  @Max(365)
  horizon_days?: number;
}

/** `confirm` is checked by the placing service: a supply-checkout run needs the JSON boolean true; other runs ignore it. */
export class PlaceRunBody {
  @IsOptional()
  confirm?: unknown;
}

/** Cancelling a run not placed yet: why (optional, recorded), and a person's confirm. */
export class CancelRunBody {
  @IsOptional()
  @IsString()
  @MaxLength(500)
  reason?: string;

  @IsOptional()
  confirm?: unknown;
}

/** Dropping the lines a supplier refused as unavailable: a person's confirm. */
export class DropRefusedLinesBody {
  @IsOptional()
  confirm?: unknown;
}

/** Closing a placed run that will never arrive: why (recorded on the run and in its event), and a person's confirm. */
export class CloseRunBody {
  @IsDefined()
  @IsString()
  @MinLength(1)
  @MaxLength(500)
  reason: string;

  @IsOptional()
  confirm?: unknown;
}
