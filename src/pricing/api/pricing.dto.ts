import { Type } from 'class-transformer';
import { ArrayMaxSize, ArrayMinSize, IsArray, IsBoolean, IsDefined, IsIn, IsInt, IsObject, IsOptional, IsString, Max, MaxLength, Min, ValidateNested } from 'class-validator';
import { MAX_PRICE_FEN } from '../../common/edge/limits';

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
  @Max(MAX_PRICE_FEN)
  amount: number;

  @IsDefined()
  @IsIn(['CNY'])
  currency: 'CNY';
}

export class PriceLineBody {
  @IsDefined()
  @IsObject()
  @ValidateNested()
  @Type(() => PriceItemRef)
  item: PriceItemRef;

  @IsDefined()
  @IsObject()
  @ValidateNested()
  @Type(() => PriceBody)
  price: PriceBody;

  /** Go ahead although the new price is below the good's purchase cost (where the supply resolution knows it). */
  @IsOptional()
  @IsBoolean()
  allow_below_cost?: boolean;

  /** Go ahead although the new price cuts the current one by more than 90%. */
  @IsOptional()
  @IsBoolean()
  allow_deep_cut?: boolean;
}

export class SetPricesBody {
  @IsDefined()
  @IsArray()
  @ArrayMinSize(1)
  @ArrayMaxSize(200)
  @IsObject({ each: true })
  @ValidateNested({ each: true })
  @Type(() => PriceLineBody)
  prices: PriceLineBody[];

  /** Checked by the service: it must be the JSON boolean true. */
  @IsOptional()
  confirm?: unknown;
}
