import { Type } from 'class-transformer';
import { ArrayMaxSize, ArrayMinSize, IsArray, IsDefined, IsInt, IsObject, IsOptional, IsString, Max, MaxLength, Min, ValidateNested } from 'class-validator';
import { MAX_PATH_SEGMENT_CHARS } from '../../common/edge/limits';

export const LOOKUP_MAX_IDS = 50;
export const SEARCH_MAX_LIMIT = 100;

export class PaginationDto {
  @IsOptional()
  @IsString()
  @MaxLength(512)
  cursor?: string;

  @IsOptional()
  @IsInt()
  @Min(1)
  @Max(SEARCH_MAX_LIMIT)
  limit?: number;
}

export class SearchFiltersDto {
  @IsDefined()
  @IsString()
  @MaxLength(100)
  namespace: string;

  @IsOptional()
  @IsString()
  @MaxLength(64)
  location?: string;

  @IsOptional()
  @IsArray()
  @ArrayMaxSize(50)
  @IsString({ each: true })
  @MaxLength(100, { each: true })
  categories?: string[];
}

export class CatalogSearchBody {
  @IsOptional()
  @IsString()
  @MaxLength(200)
  query?: string;

  @IsDefined()
  @IsObject()
  @ValidateNested()
  @Type(() => SearchFiltersDto)
  filters: SearchFiltersDto;

  @IsOptional()
  @IsObject()
  @ValidateNested()
  @Type(() => PaginationDto)
  pagination?: PaginationDto;
}

export class LookupFiltersDto {
  @IsOptional()
  @IsString()
  @MaxLength(64)
  location?: string;
}

export class CatalogLookupBody {
  @IsDefined()
  @IsArray()
  @ArrayMinSize(1, { message: 'at least one id' })
  @ArrayMaxSize(LOOKUP_MAX_IDS, { message: `at most ${LOOKUP_MAX_IDS} ids per lookup` })
  @IsString({ each: true })
  @MaxLength(MAX_PATH_SEGMENT_CHARS, { each: true })
  ids: string[];

  @IsOptional()
  @IsObject()
  @ValidateNested()
  @Type(() => LookupFiltersDto)
  filters?: LookupFiltersDto;
}
