import { Injectable, Logger } from '@nestjs/common';
import { AdjustableClock, Clock } from '../common/clock';
import { DomainError } from '../common/errors/errors';
import { toPlus8 } from '../common/time';

/** The service clock as it reads now: `offsetSeconds` is how far an adjustable clock was moved forward. */
export interface ServiceClock {
  now: Date;
  adjustable: boolean;
  offsetSeconds: number;
}

/** Reads the service clock, and moves an adjustable one forward (staging replays, issue 25). */
@Injectable()
export class ClockService {
  private readonly logger = new Logger(ClockService.name);
  constructor(private readonly clock: Clock) {}

  read(): ServiceClock {
    const adjustable = this.clock instanceof AdjustableClock;
    return { now: this.clock.now(), adjustable, offsetSeconds: adjustable ? Math.floor(this.clock.offset / 1000) : 0 };
  }

  advance(seconds: number): ServiceClock {
    if (!(this.clock instanceof AdjustableClock)) {
      throw new DomainError('not_found', 'this service reads the machine clock; only a staging service started with SERVICE_CLOCK=adjustable can move its clock', { path: '$' });
    }
    this.clock.advance(seconds * 1000);
    this.logger.log(`service clock moved forward ${seconds} s, now ${toPlus8(this.clock.now())}`);
    return this.read();
  }
}
