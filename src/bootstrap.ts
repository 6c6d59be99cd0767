import { INestApplication } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { NestExpressApplication } from '@nestjs/platform-express';
import { WsAdapter } from '@nestjs/platform-ws';
import type { NextFunction, Request, Response } from 'express';
import type { Server } from 'node:http';
import type { Duplex } from 'node:stream';
import { AppModule, AppModuleOptions } from './app.module';
import { errorBody, message } from './common/envelope';
import { installRenderedJson } from './common/rendered-json';
import { AppLogger } from './common/logging/app-logger';
import { ROOT_LOGGER } from './common/logging/logging.module';
import { requestLog } from './common/logging/request-log';
import { toHttp } from './common/exception.filter';
import { EdgeCheckPipe } from './common/edge-check.pipe';
import { ucpAgentMiddleware } from './common/ucp-agent.middleware';
import { ucpValidationPipe } from './common/validation';
import { AppConfig } from './config/app-config';
import { setupOpenApi } from './openapi';
import { serveConsole } from './console/console-static';

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
  app.set('trust proxy', 'loopback');
  app.disable('x-powered-by');
  app.use(requestLog(app.get(ROOT_LOGGER)));
  serveConsole(app, config.consoleDir);
  installRenderedJson(app.getHttpAdapter().getInstance());
  app.useBodyParser('json', { limit: config.maxBodyBytes, strict: false, verify: (req: Request, _res: Response, buf: Buffer) => void ((req as Request & { rawBody?: Buffer }).rawBody = buf) });
  app.use(ucpAgentMiddleware);
  // The edge check runs first: nothing malformed reaches class-transformer, the services or PostgreSQL.
  app.useGlobalPipes(new EdgeCheckPipe(), ucpValidationPipe());
  app.useWebSocketAdapter(new WsAdapter(app));
  if (config.corsOrigins.length) {
    app.enableCors({ origin: config.corsOrigins, credentials: true });
  }
  setupOpenApi(app);
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

function answerClientError(err: Error & { code?: string }, socket: Duplex): void {
  if (!socket.writable || (err.code === 'ECONNRESET')) {
    socket.destroy();
    return;
  }
  const tooLarge = err.code === 'HPE_HEADER_OVERFLOW';
  const body = JSON.stringify(
    errorBody([tooLarge ? message('request_too_large', 'recoverable', 'the request line or headers exceed the size limit') : message('invalid', 'recoverable', 'the request is not well-formed HTTP')]),
  );
  socket.end(`HTTP/1.1 400 Bad Request\r\nContent-Type: application/json; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`);
}
