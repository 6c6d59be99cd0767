import { Module } from '@nestjs/common';
import { EventsModule } from '../events/events.module';
import { AgentConsentService } from './agent-consent.service';
import { AgentsController, ProtectedResourceController } from './api/agents.controller';
import { AgentsStore } from './agents.store';
import { OAuthServer } from './oauth-server.service';

/** Agents connected through OAuth (issue 36): the authorization server, the resource server's check, consent. */
@Module({
  imports: [EventsModule],
  controllers: [AgentsController, ProtectedResourceController],
  providers: [OAuthServer, AgentsStore, AgentConsentService],
  exports: [OAuthServer],
})
export class OAuthModule {}
