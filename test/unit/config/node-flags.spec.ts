import { readFileSync } from 'node:fs';
import { join } from 'node:path';

const { SERVICE_NODE_FLAGS } = require('../../../scripts/node-flags') as { SERVICE_NODE_FLAGS: string[] };
const root = join(__dirname, '..', '..', '..');

/** Production, staging and the benchmarks start the service with the same V8 flags (scripts/node-flags.js). */
describe('service node flags', () => {
  it('are the ones the Dockerfile CMD and npm run start:prod pass', () => {
    expect(SERVICE_NODE_FLAGS.length).toBeGreaterThan(0);
    const cmd = /^CMD (\[.*\])$/m.exec(readFileSync(join(root, 'docker', 'Dockerfile'), 'utf8'));
    expect(JSON.parse(cmd![1])).toEqual(['node', ...SERVICE_NODE_FLAGS, 'dist/main.js']);
    const scripts = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')).scripts as Record<string, string>;
    expect(scripts['start:prod']).toBe(['node', ...SERVICE_NODE_FLAGS, 'dist/main.js'].join(' '));
  });
});
