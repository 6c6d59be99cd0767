import { BOTH_DATABASES, startTestApp, TestApp, TEST_TOKEN } from '../support/test-app';

/** Issue 26 item 4: MCP errors never carry internal messages; a malformed call is a clear `invalid` with its path. */
describe.each(BOTH_DATABASES)('MCP JSON-RPC errors carry no internal text (%s)', (db) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp({ db });
  });
  afterAll(() => t?.close());
  const rpc = (body: unknown) =>
    t.raw.post('/ucp/mcp').set('Authorization', `Bearer ${TEST_TOKEN}`).set('Accept', 'application/json, text/event-stream').set('Content-Type', 'application/json').send(JSON.stringify(body));

  it.each([
    [{ name: 'list_approvals', arguments: 'x' }, '$.params.arguments', 'an object'],
    [{ name: 5 }, '$.params.name', 'a string'],
    [undefined, '$.params', 'an object'],
  ])('tools/call with params %j: -32602 invalid at %s', async (params, path, expected) => {
    const res = await rpc({ jsonrpc: '2.0', id: 7, method: 'tools/call', ...(params === undefined ? {} : { params }) });
    expect(res.status).toBe(200);
    expect(res.body.error).toEqual({
      code: -32602,
      message: `invalid ${path}: expected ${expected}`,
      data: { ucp: { version: expect.any(String), status: 'error' }, messages: [expect.objectContaining({ code: 'invalid', path, severity: 'recoverable' })] },
    });
    const text = JSON.stringify(res.body);
    for (const leak of ['Invalid input', 'invalid_type', 'received', '\\n', 'at ', 'stack']) expect(text).not.toContain(leak);
  });

  it('our own refusals keep their words (an unknown tool, an unknown method)', async () => {
    expect((await rpc({ jsonrpc: '2.0', id: 8, method: 'tools/call', params: { name: 'nope' } })).body.error).toMatchObject({ code: -32602, message: expect.stringContaining('unknown tool: nope') });
    expect((await rpc({ jsonrpc: '2.0', id: 9, method: 'nope/nope', params: {} })).body.error).toMatchObject({ code: -32601, message: 'Method not found' });
  });
});
