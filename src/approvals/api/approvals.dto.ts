import { Type } from 'class-transformer';
import { IsBoolean, IsDefined, IsIn, IsObject, IsOptional, IsString, MaxLength, MinLength, ValidateNested } from 'class-validator';
import { APPROVAL_KINDS } from '../approval.rules';

export class ListApprovalsQuery {
  @IsOptional()
  @IsIn(['pending', 'approved', 'rejected', 'all'])
  status?: string;

  @IsOptional()
  @IsIn([...APPROVAL_KINDS])
  kind?: string;
}

export class ResolverBody {
  @IsDefined()
  @IsIn(['chat_tool', 'dashboard'])
  channel: 'chat_tool' | 'dashboard';

  @IsOptional()
  @IsString()
  @MaxLength(200)
  chat_id?: string;

  @IsOptional()
  @IsString()
  @MaxLength(200)
  sender_id?: string;
}

export class ResolveApprovalBody {
  @IsDefined()
  @IsBoolean()
  approved: boolean;

  @IsOptional()
  @IsObject()
  @ValidateNested()
  @Type(() => ResolverBody)
  resolver?: ResolverBody;
}

export class WithdrawApprovalBody {
  /** Why the requester takes its request back (recorded on the approval and in its event). */
  @IsDefined()
  @IsString()
  @MinLength(1)
  @MaxLength(500)
  reason: string;
}
