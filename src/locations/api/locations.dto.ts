import { Type } from 'class-transformer';
import {
  ArrayMaxSize,
  IsArray,
  IsDefined,
  IsInt,
  IsNotEmpty,
  IsObject,
  IsOptional,
  IsString,
  Max,
  MaxLength,
  Min,
  ValidateNested,
} from 'class-validator';
import { SEARCH_MAX_LIMIT } from '../locations.rules';

export class PutLocationBody {
  @IsDefined()
  @IsString()
  @IsNotEmpty()
  @MaxLength(200)
  name: string;

  /** city, address, placement, venueType, floor, spot (checked by validateProfile). */
  @IsOptional()
  @IsObject()
  profile?: Record<string, unknown>;

  /** The machine namespace (default: the default machine namespace). */
  @IsOptional()
  @IsString()
  @MaxLength(100)
  namespace?: string;

  /** Operator context: what the place offers (matched by the search's `filters.amenities`). */
  @IsOptional()
  @IsArray()
  @ArrayMaxSize(50)
  @IsString({ each: true })
  @MaxLength(100, { each: true })
  amenities?: string[];
}

export class ItemRefDto {
  @IsDefined()
  @IsString()
  @MaxLength(300)
  id: string;
}

export class HoursFilterDto {
  @IsOptional()
  @IsString()
  @MaxLength(64)
  open_at?: string;
}

export class LocationFiltersDto {
  @IsOptional()
  @IsArray()
  @ArrayMaxSize(50)
  @IsObject({ each: true })
  @ValidateNested({ each: true })
  @Type(() => ItemRefDto)
  items?: ItemRefDto[];

  @IsOptional()
  @IsArray()
  @ArrayMaxSize(50)
  @IsString({ each: true })
  @MaxLength(100, { each: true })
  amenities?: string[];

  @IsOptional()
  @IsObject()
  @ValidateNested()
  @Type(() => HoursFilterDto)
  hours?: HoursFilterDto;
}

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

export class SearchLocationsBody {
  @IsOptional()
  @IsString()
  @MaxLength(200)
  query?: string;

  @IsOptional()
  @IsObject()
  @ValidateNested()
  @Type(() => LocationFiltersDto)
  filters?: LocationFiltersDto;

  @IsOptional()
  @IsObject()
  @ValidateNested()
  @Type(() => PaginationDto)
  pagination?: PaginationDto;
}
