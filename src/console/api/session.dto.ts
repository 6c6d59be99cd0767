import { IsDefined, IsNotEmpty, IsString, MaxLength } from 'class-validator';

export class SignInBody {
  /** The operator token (SERVICE_AUTH_TOKEN). Sent in the body, never in a URL. */
  @IsDefined()
  @IsString()
  @IsNotEmpty()
  @MaxLength(1024)
  token: string;
}
