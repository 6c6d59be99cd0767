import { Type } from 'class-transformer';
import { ArrayMaxSize, ArrayMinSize, IsArray, IsDefined, IsInt, IsObject, IsOptional, IsString, Max, MaxLength, Min, MinLength, ValidateNested } from 'class-validator';
import { MAX_QUANTITY } from '../../../common/edge/limits';
import { DEPOT_PAGE_MAX } from '../depot.rules';

export class DepotFillLine {
  @IsDefined()
  @IsString()
  @MinLength(1)
  @MaxLength(200)
  slot_id: string;

  /** Units (each) moved from the depot into the slot. */
  @IsDefined()
  @IsInt()
  @Min(1)
  @Max(MAX_QUANTITY)
  quantity: number;
}

export class DepotFillBody {
  @IsDefined()
  @IsArray()
  @ArrayMinSize(1)
  @ArrayMaxSize(1000)
  @IsObject({ each: true })
  @ValidateNested({ each: true })
  @Type(() => DepotFillLine)
  fills: DepotFillLine[];

  @IsOptional()
  confirm?: unknown;
}

export class DepotItemRef {
  @IsDefined()
  @IsString()
  @MaxLength(300)
  id: string;
}

export class DepotCountLine {
  @IsDefined()
  @IsObject()
  @ValidateNested()
  @Type(() => DepotItemRef)
  item: DepotItemRef;

  /** Units (each) counted in the depot: they replace what it held. */
  @IsDefined()
  @IsInt()
  @Min(0)
  @Max(MAX_QUANTITY)
  quantity: number;
}

export class DepotCountBody {
  @IsDefined()
  @IsArray()
  @ArrayMinSize(1)
  @ArrayMaxSize(1000)
  @IsObject({ each: true })
  @ValidateNested({ each: true })
  @Type(() => DepotCountLine)
  counts: DepotCountLine[];

  @IsDefined()
  @IsString()
  @MinLength(1)
  @MaxLength(500)
  reason: string;

  @IsOptional()
  confirm?: unknown;
}

/** `GET /depot` query: a page of goods (issue 37). */
export class DepotQuery {
  @IsOptional()
  @IsString()
  @MaxLength(1000)
  cursor?: string;

  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(1)
  @Max(DEPOT_PAGE_MAX)
  limit?: number;
}
