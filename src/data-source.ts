/** Data source for the TypeORM CLI (`npm run migration:run`): needs DATABASE_URL. */
import 'reflect-metadata';
import { DataSource } from 'typeorm';
import { dataSourceOptions } from './database/typeorm-options';
import { ALL_ENTITIES } from './entities';

const url = process.env.DATABASE_URL;
if (!url) {
  console.error('DATABASE_URL: required by the migration CLI (the service itself migrates the embedded database at boot)');
  process.exit(1);
}
export default new DataSource(dataSourceOptions(url, { entities: ALL_ENTITIES }));
