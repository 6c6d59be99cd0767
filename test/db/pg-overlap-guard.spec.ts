import { Client } from 'pg';
import { ADMIN_URL } from '../support/pg';
import { takeOverlaps } from '../support/pg-overlap-guard';

describe('the e2e tier’s guard against overlapping queries on one connection', () => {
  let c: Client;
  beforeAll(async () => {
    c = new Client({ connectionString: ADMIN_URL });
    await c.connect();
  });
  afterAll(() => c.end());

  it('sees a second query sent before the first has answered', async () => {
    await Promise.all([c.query('SELECT pg_sleep(0.02)'), c.query('SELECT 1')]);
    const seen = takeOverlaps();
    expect(seen).toHaveLength(1);
    expect(seen[0]).toContain('still executing one');
  });

  it('sees nothing in queries sent one after the other', async () => {
    await c.query('SELECT pg_sleep(0.02)');
    await c.query('SELECT 1');
    expect(takeOverlaps()).toEqual([]);
  });
});
