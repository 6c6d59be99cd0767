import 'reflect-metadata';
import { Logger } from '@nestjs/common';
import { setFlagsFromString } from 'node:v8';
import { createApp } from './bootstrap';
import { ROOT_LOGGER } from './common/logging/logging.module';
import { loadConfig } from './config/app-config';
import { ConfigError } from './config/config-error';
import { runtimeV8Flags } from './database/embedded-postgres';

async function main(): Promise<void> {
  let config;
  try {
    config = loadConfig(process.env);
  } catch (e) {
    if (e instanceof ConfigError) {
      // One clear line naming the variable, then stop (docs/contract/).
      console.error(`configuration error: ${e.message}`);
      process.exit(2);
    }
    throw e;
  }
  // The embedded default trades peak speed for memory (issue 21); set before PGlite is loaded and compiled.
  for (const flag of runtimeV8Flags(config.databaseUrl)) setFlagsFromString(flag);
  const app = await createApp(config);
  await app.listen(config.port, config.host);
  const url = (await app.getUrl()).replace('[::1]', 'localhost').replace('0.0.0.0', 'localhost');
  const log = new Logger('main');
  log.log(`listening on ${url} (${config.env}${config.databaseUrl ? '' : ', embedded database'})`);
  app.get(ROOT_LOGGER).flush(); // the line a person or a supervisor waits for, at once
  // Graceful shutdown: stop accepting, finish in-flight requests, stop jobs, close the database, exit 0.
  let closing = false;
  const shutdown = (signal: string) => {
    if (closing) return;
    closing = true;
    log.log(`${signal} received, shutting down`);
    const force = setTimeout(() => process.exit(1), 15000);
    force.unref();
    app.close().then(
      () => process.exit(0),
      (e: unknown) => {
        console.error(`shutdown failed: ${(e as Error)?.message ?? String(e)}`);
        process.exit(1);
      },
    );
  };
  process.on('SIGTERM', () => shutdown('SIGTERM'));
  process.on('SIGINT', () => shutdown('SIGINT'));
}

main().catch((e: unknown) => {
  console.error(`startup failed: ${(e as Error)?.message ?? String(e)}`);
  process.exit(1);
});
