import { Type } from 'class-transformer';
import { ArrayMaxSize, ArrayMinSize, IsArray, IsBoolean, IsDefined, IsInt, IsObject, IsOptional, IsString, Max, MaxLength, Min, MinLength, ValidateNested } from 'class-validator';
import { MAX_QUANTITY } from '../../common/edge/limits';

export class RestockItemRef {
  @IsDefined()
  @IsString()
  @MaxLength(300)
  id: string;
}

export class RestockLineBody {
  @IsDefined()
  @IsObject()
  @ValidateNested()
  @Type(() => RestockItemRef)
  item: RestockItemRef;

  @IsDefined()
  @IsInt()
  @Min(1)
  @Max(MAX_QUANTITY)
  quantity: number;

  @IsOptional()
  @IsString()
  @MaxLength(100)
  reason?: string;
}

export class RestockBody {
  @IsDefined()
  @IsString()
  @MinLength(1)
  @MaxLength(200)
  reference: string;

  @IsOptional()
  @IsBoolean()
  binding?: boolean;

  @IsDefined()
  @IsArray()
  @ArrayMinSize(1)
  @ArrayMaxSize(200)
  @IsObject({ each: true })
  @ValidateNested({ each: true })
  @Type(() => RestockLineBody)
  line_items: RestockLineBody[];
}
