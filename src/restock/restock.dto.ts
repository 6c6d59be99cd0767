import { Type } from 'class-transformer';
import { ArrayMinSize, IsArray, IsBoolean, IsDefined, IsInt, IsOptional, IsString, MaxLength, Min, MinLength, ValidateNested } from 'class-validator';

export class RestockItemRef {
  @IsDefined()
  @IsString()
  id: string;
}

export class RestockLineBody {
  @IsDefined()
  @ValidateNested()
  @Type(() => RestockItemRef)
  item: RestockItemRef;

  @IsDefined()
  @IsInt()
  @Min(1)
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
  @ValidateNested({ each: true })
  @Type(() => RestockLineBody)
  line_items: RestockLineBody[];
}
