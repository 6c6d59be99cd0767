import { Parser } from '@asyncapi/parser';
import Ajv from 'ajv';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { buildAsyncApiDocument } from '../../src/events/api/asyncapi';
import { startTestApp, TestApp } from '../support/test-app';
import { TestSocket, wsUrl } from './events-ws-client';

/**
 * The event socket's AsyncAPI 3 document: valid for the AsyncAPI parser, served behind the token, linked from
 * discovery, committed as docs/asyncapi.json (drift), and describing the frames the socket really sends.
 */
const file = path.join(__dirname, '..', '..', 'docs', 'asyncapi.json');

describe('AsyncAPI document of the event socket', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp({ db: 'embedded' });
  });
  afterAll(() => t.close());

  it('is a valid AsyncAPI 3 document, served with the token and linked from discovery', async () => {
    const generated = JSON.stringify(buildAsyncApiDocument('http://localhost:8080'), null, 2) + '\n';
    if (process.env.UPDATE_OPENAPI === '1') fs.writeFileSync(file, generated);
    expect(fs.existsSync(file) ? fs.readFileSync(file, 'utf8') : '').toBe(generated);

    const diagnostics = await new Parser().validate(generated);
    expect(diagnostics.filter((d) => d.severity === 0).map((d) => `${d.path.join('.')}: ${d.message}`)).toEqual([]);

    const profile = (await t.raw.get('/.well-known/ucp').expect(200)).body;
    const link = profile.ucp.capabilities['com.example.svc.events'][0].config.asyncapi_url as string;
    expect(link).toBe(`${t.url}/ucp/v1/events/asyncapi.json`);
    expect((await t.raw.get('/ucp/v1/events/asyncapi.json')).status).toBe(401);
    const served = (await t.get('/ucp/v1/events/asyncapi.json').expect(200)).body;
    expect(served.asyncapi).toBe('3.0.0');
    expect(served.servers.service.host).toBe(new URL(t.url).host);
    expect(served.channels.events.address).toBe('/ucp/v1/events/ws');
  });

  it('describes the frames the socket sends', async () => {
    const doc = buildAsyncApiDocument(t.url) as { components: { schemas: Record<string, object> } };
    const ajv = new Ajv({ strict: false, allErrors: true });
    ajv.addFormat('date-time', /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}\+08:00$/);
    ajv.addSchema({ $id: 'asyncapi.json', components: doc.components });
    const problems = (schema: string, frame: unknown) => {
      const validate = ajv.getSchema(`asyncapi.json#/components/schemas/${schema}`)!;
      return validate(frame) ? [] : (validate.errors ?? []).map((e) => `${schema} ${e.instancePath} ${e.message}`);
    };

    const s = await TestSocket.open(wsUrl(t.url));
    s.send({ type: 'auth', token: t.token });
    expect(problems('AuthenticatedMessage', await s.next())).toEqual([]);
    s.send({ type: 'subscribe', kinds: ['conformance.note'] });
    expect(problems('SubscribedMessage', await s.next('subscribed'))).toEqual([]);
    s.send({ type: 'ping' });
    expect(problems('PongMessage', await s.next('pong'))).toEqual([]);
    s.send({ type: 'subscribe', kinds: [] });
    expect(problems('ErrorMessage', await s.next('error'))).toEqual([]);
    await t.post('/ucp/v1/events', { kind: 'conformance.note', summary: 's', reasoning: 'r', location: 'loc-1' }).expect(201);
    const event = await s.next('event');
    expect(problems('EventMessage', event)).toEqual([]);
    expect(problems('EventMessage', { ...event, event: { ...(event.event as object), occurred_at: 'yesterday' } })).not.toEqual([]);
    s.close();
  });
});
