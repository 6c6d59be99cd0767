import { publicJsonRpcError, publicJsonRpcMessage } from '../../../src/mcp/tools/mcp-error.rules';

describe('public JSON-RPC errors (issue 26)', () => {
  const zod = JSON.stringify([{ expected: 'record', code: 'invalid_type', path: ['params', 'arguments', 0, 'a-b'], message: 'Invalid input: expected record, received string' }], null, 2);

  it('a schema library\'s issue list becomes one invalid with the argument path', () => {
    const e = publicJsonRpcError({ code: -32603, message: zod });
    expect(e.code).toBe(-32602);
    expect(e.message).toBe('invalid $.params.arguments[0]["a-b"]: expected an object');
    expect(JSON.stringify(e)).not.toContain('Invalid input');
  });

  it('the issue list after the SDK\'s lead (v2: "Invalid tools/call request: [...]") is read the same way', () => {
    const e = publicJsonRpcError({ code: -32602, message: `Invalid tools/call request: ${zod}` });
    expect(e.message).toBe('invalid $.params.arguments[0]["a-b"]: expected an object');
    expect(JSON.stringify(e)).not.toContain('Invalid input');
    const prose = { code: -32602, message: 'Invalid tools/call request: name is [not] a string' };
    expect(publicJsonRpcError(prose)).toBe(prose);
  });

  it('any other internal error is a bare internal error: no stack depth, no exception text', () => {
    const e = publicJsonRpcError({ code: -32603, message: 'Maximum call stack size exceeded' });
    expect(e).toMatchObject({ code: -32603, message: 'internal error' });
    expect(JSON.stringify(e)).not.toContain('stack');
  });

  it('our own errors pass; results and batches are handled message by message', () => {
    const own = { code: -32602, message: 'MCP error -32602: unknown tool: x (tools/list names them)' };
    expect(publicJsonRpcError(own)).toBe(own);
    const result = { jsonrpc: '2.0', id: 1, result: {} };
    expect(publicJsonRpcMessage(result)).toBe(result);
    const [a, b] = publicJsonRpcMessage([result, { jsonrpc: '2.0', id: 2, error: { code: -32603, message: zod } }]);
    expect(a).toBe(result);
    expect((b as { error: { code: number } }).error.code).toBe(-32602);
  });
});
