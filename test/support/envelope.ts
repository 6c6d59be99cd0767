/** Assertions shared by e2e tests: every answer is the ucp envelope. */
export function expectEnvelope(body: unknown, status: 'success' | 'error'): void {
  const b = body as { ucp?: { version?: string; status?: string }; messages?: unknown[] };
  expect(b.ucp?.version).toBe('2026-08-25');
  expect(b.ucp?.status).toBe(status);
  expect(Array.isArray(b.messages)).toBe(true);
}

export function expectError(res: { status: number; body: unknown }, status: number, code: string): void {
  expect(res.status).toBe(status);
  expectEnvelope(res.body, 'error');
  const codes = (res.body as { messages: { code: string }[] }).messages.map((m) => m.code);
  expect(codes).toContain(code);
  const text = JSON.stringify(res.body);
  expect(text).not.toMatch(/\bat .*\.(ts|js):\d+/); // never a stack trace
}
