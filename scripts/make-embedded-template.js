// Makes dist/embedded-template: an empty PGlite data directory with the schema migrated (no data) that a new
// SERVICE_DATA_DIR is copied from, so that the first boot runs neither initdb nor the migrations in the service's
// process (issue 13). Run by `npm run build` (postbuild); it matches the installed PGlite and this build's migrations
// (the service still runs any migration the copy lacks).
const fs = require('node:fs');
const path = require('node:path');

async function main() {
  const dist = path.resolve(process.argv[2] ?? path.join(__dirname, '..', 'dist'));
  const dir = path.join(dist, 'embedded-template');
  const tmp = `${dir}.tmp-${process.pid}`;
  fs.rmSync(dir, { recursive: true, force: true });
  fs.rmSync(tmp, { recursive: true, force: true });
  require('reflect-metadata');
  const { DataSource } = require('typeorm');
  const { startEmbeddedPostgres } = require(path.join(dist, 'src', 'database', 'embedded-postgres.js'));
  const { dataSourceOptions, runMigrationsLocked } = require(path.join(dist, 'src', 'database', 'typeorm-options.js'));
  const pg = await startEmbeddedPostgres(tmp);
  try {
    const ds = new DataSource(dataSourceOptions(pg.url, { entities: [], embedded: true, poolMax: 1 }));
    await ds.initialize();
    await runMigrationsLocked(ds, { embedded: true });
    await ds.destroy();
  } finally {
    await pg.close();
  }
  fs.rmSync(path.join(tmp, 'service.lock'), { force: true });
  fs.renameSync(tmp, dir);
}

main().catch((e) => {
  console.error(`embedded template not made: ${e?.message ?? e}`);
  process.exit(1);
});
