import { connectAgent } from '../support/oauth-agent';
import { startTestApp, TestApp } from '../support/test-app';

describe('smoke', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp({ db: 'embedded' });
  });
  afterAll(() => t?.close());
  it('connects', async () => {
    const prm = await t.raw.get('/.well-known/oauth-protected-resource');
    console.log(prm.status, prm.body);
    const as = await t.raw.get('/.well-known/oauth-authorization-server/oauth');
    console.log(as.status, JSON.stringify(as.body).slice(0, 1500));
    const r401 = await t.raw.post('/ucp/mcp').send({});
    console.log(r401.status, r401.headers['www-authenticate']);
    const a = await connectAgent(t, { scope: 'read' });
    console.log(a);
    const r = await t.raw.get('/ucp/v1/agents').set('Authorization', `Bearer ${a.accessToken}`);
    console.log(r.status, r.body);
    const r2 = await t.raw.get('/ucp/v1/namespaces').set('Authorization', `Bearer ${a.accessToken}`);
    console.log(r2.status);
  });
});
