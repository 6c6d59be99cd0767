import { Type } from 'class-transformer';
import { ArrayMaxSize, ArrayMinSize, IsArray, IsDefined, IsIn, IsInt, IsOptional, IsString, MaxLength, Min, ValidateNested } from 'class-validator';

export class PriceItemRef {
  @IsDefined()
  @IsString()
  @MaxLength(300)
  id: string;
}

export class PriceBody {
  @IsDefined()
  @IsInt()
  @Min(0)
  amount: number;

  @IsDefined()
  @IsIn(['CNY'])
  currency: 'CNY';
}

export class PriceLineBody {
  @IsDefined()
  @ValidateNested()
  @Type(() => PriceItemRef)
  item: PriceItemRef;

  @IsDefined()
  @ValidateNested()
  @Type(() => PriceBody)
  price: PriceBody;
}

export class SetPricesBody {
  @IsDefined()
  @IsArray()
  @ArrayMinSize(1)
  @ArrayMaxSize(200)
  @ValidateNested({ each: true })
  @Type(() => PriceLineBody)
  prices: PriceLineBody[];

  /** Checked by the service: it must be the JSON boolean true. */
  @IsOptional()
  confirm?: unknown;
}
