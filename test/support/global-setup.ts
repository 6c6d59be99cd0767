import 'reflect-metadata';
import { DataSource } from 'typeorm';
import { dataSourceOptions, runMigrationsLocked } from '../../src/database/typeorm-options';
import { adminQuery, urlFor } from './pg';

/** Once per run: a template database with every migration applied; each test file copies it. */
export default async function globalSetup(): Promise<void> {
  const template = `vt_${process.pid}_${Date.now().toString(36)}_tpl`;
  await adminQuery(`CREATE DATABASE "${template}"`);
  const ds = new DataSource(dataSourceOptions(urlFor(template), { poolMax: 2 }));
  await ds.initialize();
  await runMigrationsLocked(ds);
  await ds.destroy();
  process.env.TEST_PG_TEMPLATE = template;
}
