import { Type } from 'class-transformer';
import { ArrayMaxSize, IsArray, IsDefined, IsObject, IsOptional, IsString, MaxLength, ValidateNested } from 'class-validator';

export class AliasInputDto {
  @IsDefined()
  @IsString()
  @MaxLength(300)
  sku_id: string;

  @IsOptional()
  @IsString()
  @MaxLength(200)
  source?: string;
}

export class PutAliasesBody {
  @IsDefined()
  @IsArray()
  @ArrayMaxSize(100)
  @IsObject({ each: true })
  @ValidateNested({ each: true })
  @Type(() => AliasInputDto)
  aliases: AliasInputDto[];
}

export class SkuQuery {
  @IsOptional()
  @IsString()
  @MaxLength(64)
  location?: string;
}
