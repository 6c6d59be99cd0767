import 'reflect-metadata';
import { Logger } from '@nestjs/common';
import { createApp } from './bootstrap';
import { ConfigError, loadConfig } from './config/app-config';

async function main(): Promise<void> {
  let config;
  try {
    config = loadConfig(process.env);
  } catch (e) {
    if (e instanceof ConfigError) {
      // One clear line naming the variable, then stop (decisions.md section 1).
      console.error(`configuration error: ${e.message}`);
      process.exit(2);
    }
    throw e;
  }
  const app = await createApp(config);
  await app.listen(config.port, config.host);
  const url = (await app.getUrl()).replace('[::1]', 'localhost').replace('0.0.0.0', 'localhost');
  new Logger('main').log(`listening on ${url} (${config.env}${config.databaseUrl ? '' : ', embedded database'})`);
}

main().catch((e: unknown) => {
  console.error(`startup failed: ${(e as Error)?.message ?? String(e)}`);
  process.exit(1);
});
