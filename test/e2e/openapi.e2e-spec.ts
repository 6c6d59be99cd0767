import * as fs from 'node:fs';
import * as path from 'node:path';
import { buildOpenApiDocument } from '../../src/openapi';
import { startTestApp, TestApp } from '../support/test-app';

/**
 * Drift check: the committed docs/openapi.json is what the code generates.
 * Regenerate with `npm run openapi:write` after changing routes or DTOs.
 */
const file = path.join(__dirname, '..', '..', 'docs', 'openapi.json');

describe('OpenAPI document', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp({ db: 'embedded' });
  });
  afterAll(() => t.close());

  it('matches the committed docs/openapi.json', async () => {
    const generated = JSON.stringify(await buildOpenApiDocument(t.app), null, 2) + '\n';
    if (process.env.UPDATE_OPENAPI === '1') fs.writeFileSync(file, generated);
    const committed = fs.existsSync(file) ? fs.readFileSync(file, 'utf8') : '';
    expect(committed).toBe(generated);
  });
});
