import { Module } from '@nestjs/common';
import { SessionStoreModule } from '../common/auth/session-store';
import { SessionController } from './api/session.controller';
import { SessionService } from './session.service';

/** The operator console's server side (issue 19): sign-in and sign-out. Its static files are served by bootstrap. */
@Module({
  imports: [SessionStoreModule],
  controllers: [SessionController],
  providers: [SessionService],
})
export class ConsoleModule {}
