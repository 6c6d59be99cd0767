import { Type } from 'class-transformer';
import { ArrayMaxSize, IsArray, IsDefined, IsOptional, IsString, ValidateNested } from 'class-validator';

export class AliasInputDto {
  @IsDefined()
  @IsString()
  sku_id: string;

  @IsOptional()
  @IsString()
  source?: string;
}

export class PutAliasesBody {
  @IsDefined()
  @IsArray()
  @ArrayMaxSize(100)
  @ValidateNested({ each: true })
  @Type(() => AliasInputDto)
  aliases: AliasInputDto[];
}

export class SkuQuery {
  @IsOptional()
  @IsString()
  location?: string;
}
