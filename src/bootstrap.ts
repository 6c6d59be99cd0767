import { requesterContext } from './common/auth/requester.context';
import { INestApplication } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { NestExpressApplication } from '@nestjs/platform-express';
import { WsAdapter } from '@nestjs/platform-ws';
import { json } from 'express';
import type { NextFunction, Request, Response } from 'express';
import helmet from 'helmet';
import type { Server } from 'node:http';
import type { Duplex } from 'node:stream';
import { AppModule, AppModuleOptions } from './app.module';
import { errorBody, message } from './common/envelope/envelope';
import { installRenderedJson } from './common/envelope/rendered-json';
import { authBeforeBody } from './common/auth/auth.middleware';
import { requestAuth } from './common/auth/credential';
import { readerContext, readerKey } from './database/replicas/reader-context';
import { ReadYourWrites } from './database/replicas/read-your-writes';
import { SessionStore } from './common/auth/session-store';
import { AppLogger } from './common/logging/app-logger';
import { ROOT_LOGGER } from './common/logging/logging.module';
import { requestLog } from './common/logging/request-log';
import { toHttp } from './common/errors/exception.filter';
import { EdgeCheckPipe } from './common/edge/edge-check.pipe';
import { ucpAgentMiddleware } from './common/edge/ucp-agent.middleware';
import { ucpValidationPipe } from './common/edge/validation';
import { AppConfig } from './config/app-config';
import { trustedProxies } from './config/trusted-proxies.rules';
import { setupOpenApi } from './openapi';
import { setupMcp } from './mcp/mcp.setup';
import { serveConsole } from './console/console-static';
import { METRICS_PATH, metricsCredential, metricsEndpoint, requestTimer } from './metrics/metrics-http';
import { limitEveryRequest } from './common/rate-limit/rate-limit.middleware';
import { RateLimiter } from './common/rate-limit/rate-limiter.service';
import { MetricsService } from './metrics/metrics.service';
import { mountAuthorizationServer } from './oauth/oauth-mount';
import { OAuthServer } from './oauth/oauth-server.service';

/** Builds the configured application; main.ts and the e2e tests share it so tests run the real thing. */
export async function createApp(config: AppConfig, opts: AppModuleOptions = {}): Promise<INestApplication> {
  const app = await NestFactory.create<NestExpressApplication>(AppModule.forRoot(config, opts), {
    bodyParser: false,
    bufferLogs: true,
  });
  app.useLogger(app.get(AppLogger));
  configureApp(app, config);
  return app;
}

export function configureApp(app: NestExpressApplication, config: AppConfig): void {
  // X-Forwarded-For (req.ip, the rate limit's client address) and X-Forwarded-Proto are believed only from the
  // proxies SERVICE_TRUSTED_PROXIES names (issue 26); by default from none.
  const trusted = trustedProxies(config.trustedProxies);
  app.set('trust proxy', (addr: string) => trusted(addr));
  app.disable('x-powered-by');
  app.use(requestLog(app.get(ROOT_LOGGER)));
  const metrics = app.get(MetricsService);
  app.use(requestTimer(metrics));
  // Security headers on every answer (nosniff, frame and referrer policies, ...); docs/adr/0044-security-headers-and-timeouts.md.
  // No upgrade-insecure-requests: a staging console reached over plain http on a LAN would have its own scripts
  // and API calls rewritten to https and fail; production sits behind https anyway.
  app.use(helmet({ contentSecurityPolicy: { directives: { upgradeInsecureRequests: null } } }));
  // CORS answers preflights before authentication (a preflight carries no credential) and before the rate limit, so
  // a dashboard on another origin can read a 429 (its CORS headers are set before the limit answers).
  if (config.corsOrigins.length) {
    app.enableCors({ origin: config.corsOrigins, credentials: true });
  }
  // Every request counts toward the rate limit before anything answers it, the documents and /metrics included (issue 37).
  app.use(limitEveryRequest(app.get(RateLimiter), config, app.get(SessionStore), metricsCredential(config.metricsToken), app.get(OAuthServer)));
  // Issue 36: the authorization server for agents (its own body parsing), ahead of the API's, counted like any route.
  mountAuthorizationServer(app.getHttpAdapter().getInstance(), app.get(OAuthServer));
  // Outside the API's router and token: the scraper's own token (issue 28, README "Metrics").
  const serveMetrics = metricsEndpoint(metrics, config.metricsToken);
  app.getHttpAdapter().getInstance().get(METRICS_PATH, (req: Request, res: Response, next: NextFunction) => void serveMetrics(req, res).catch(next));
  serveConsole(app, config.consoleDir);
  installRenderedJson(app.getHttpAdapter().getInstance());
  // The token is checked from the headers before the body is parsed; an unauthenticated body is never parsed.
  const keepRaw = (req: Request, _res: Response, buf: Buffer) => void ((req as Request & { rawBody?: Buffer }).rawBody = buf);
  // A sign-in body is a token: 4 KiB is plenty, and an anonymous caller cannot make the service parse more.
  app.use(authBeforeBody(config, app.get(SessionStore), json({ limit: config.maxBodyBytes, strict: false, verify: keepRaw }), json({ limit: 4096, strict: false, verify: keepRaw }), app.get(OAuthServer)));
  app.use(ucpAgentMiddleware);
  // Issue 38: the credential whose writes the request's replica reads must see (read-your-writes).
  const writes = app.get(ReadYourWrites);
  app.use(readerContext((req) => readerKey(requestAuth(req, config)), writes.enabled ? (reader) => writes.record(reader) : null));
  app.use(requesterContext(config));
  // The edge check runs first: nothing malformed reaches class-transformer, the services or PostgreSQL.
  app.useGlobalPipes(new EdgeCheckPipe(), ucpValidationPipe());
  app.useWebSocketAdapter(new WsAdapter(app));
  setupOpenApi(app);
  setServerTimeouts(app.getHttpServer() as Server, config.serverTimeouts);
  setupMcp(app);
  // Requests Node's HTTP parser refuses (a request line or headers past its 16 KB limit, broken framing) never reach
  // Express; answer them with the envelope as well instead of Node's bare 400/431.
  (app.getHttpServer() as Server).on('clientError', answerClientError);
  // Body-parser failures happen before routing; render them as envelopes too.
  app.use((err: unknown, _req: Request, res: Response, next: NextFunction) => {
    if (res.headersSent) return next(err);
    const { status, messages } = toHttp(err);
    res.status(status).json(errorBody(messages));
  });
}

/** Explicit limits instead of Node's defaults (headers 60 s, whole request 300 s): a slow client is cut off sooner. */
function setServerTimeouts(server: Server, t: AppConfig['serverTimeouts']): void {
  server.headersTimeout = t.headersMs;
  server.requestTimeout = t.requestMs;
  server.keepAliveTimeout = t.keepAliveMs;
}

function answerClientError(err: Error & { code?: string }, socket: Duplex): void {
  if (!socket.writable || (err.code === 'ECONNRESET')) {
    socket.destroy();
    return;
  }
  const tooLarge = err.code === 'HPE_HEADER_OVERFLOW';
  const body = JSON.stringify(
    errorBody([tooLarge ? message('request_too_large', 'recoverable', 'the request line or headers exceed the size limit') : message('invalid', 'recoverable', 'the request is not well-formed HTTP')]),
  );
  socket.end(`HTTP/1.1 400 Bad Request\r\nContent-Type: application/json; charset=utf-8\r\nX-Content-Type-Options: nosniff\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`);
}
