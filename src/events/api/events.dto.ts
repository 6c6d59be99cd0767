import { Type } from 'class-transformer';
import { IsDefined, IsInt, IsNotEmpty, IsOptional, IsString, Max, MaxLength, Min } from 'class-validator';

export class ListEventsQuery {
  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(1)
  @Max(500)
  limit?: number;

  @IsOptional()
  @IsString()
  @MaxLength(64)
  location?: string;

  @IsOptional()
  @IsString()
  @MaxLength(200)
  kind?: string;
}

export class CreateEventBody {
  @IsDefined()
  @IsString()
  @IsNotEmpty()
  @MaxLength(200)
  kind: string;

  @IsDefined()
  @IsString()
  @IsNotEmpty()
  @MaxLength(2000)
  summary: string;

  @IsDefined()
  @IsString()
  @IsNotEmpty()
  @MaxLength(20000)
  reasoning: string;

  @IsOptional()
  @IsString()
  @IsNotEmpty()
  @MaxLength(64)
  location?: string;
}
