import { IsBoolean, IsDefined, IsIn, IsOptional } from 'class-validator';
import { AGENT_SCOPES } from '../oauth.rules';

export class AgentDecisionBody {
  /** True: connect the agent with `scope`; false: refuse (the client is told `access_denied`). */
  @IsDefined()
  @IsBoolean()
  approve: boolean;

  /** `read` or `operate`; needed to approve. */
  @IsOptional()
  @IsIn(AGENT_SCOPES)
  scope?: 'read' | 'operate';
}
