import { Injectable } from '@nestjs/common';
import { Errors } from '../common/errors/errors';
import { GuardsService } from './guards.service';

/** The kill switch every real write checks first. Reads never call this. */
@Injectable()
export class KillSwitchService {
  constructor(private readonly guards: GuardsService) {}

  /** 409 kill_switch_engaged when engaged; 503 guard_unverifiable when the state cannot be read. */
  async assertOff(): Promise<void> {
    if ((await this.guards.state()).engaged) throw Errors.killSwitch();
  }
}
