import { IsBoolean, IsDefined, IsString, MaxLength, MinLength } from 'class-validator';

export class KillSwitchBody {
  @IsDefined()
  @IsBoolean()
  engaged: boolean;

  @IsDefined()
  @IsString()
  @MinLength(1)
  @MaxLength(500)
  reason: string;
}
