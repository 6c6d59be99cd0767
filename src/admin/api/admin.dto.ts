import { IsBoolean, IsDefined, IsInt, IsString, Max, MaxLength, Min, MinLength } from 'class-validator';

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

/** POST /admin/clock/advance (staging with SERVICE_CLOCK=adjustable): how far the service clock moves forward. */
export class AdvanceClockBody {
  @IsDefined()
  @IsInt()
  @Min(1)
  @Max(366 * 86_400)
  seconds: number;
}
