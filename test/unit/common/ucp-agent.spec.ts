import { parseUcpAgent } from '../../../src/common/edge/ucp-agent.rules';

describe('UCP-Agent (RFC 8941 dictionary)', () => {
  it('reads the profile and other members', () => {
    const r = parseUcpAgent('profile="https://agent.example/.well-known/ucp", v=2, beta, tags=(a b);x=?1');
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    expect(r.profile).toBe('https://agent.example/.well-known/ucp');
    expect(r.members.v.value).toBe(2);
    expect(r.members.beta.value).toBe(true);
    expect(r.members.tags.value).toEqual([{ token: 'a' }, { token: 'b' }]);
    expect(r.members.tags.params).toEqual({ x: true });
  });

  it('handles escapes, byte sequences and tokens', () => {
    const r = parseUcpAgent('profile="https://a.example/p", note="say \\"hi\\"", sig=:aGk=:, kind=agent/v1');
    expect(r.ok && r.members.note.value).toBe('say "hi"');
    expect(r.ok && r.members.sig.value).toEqual({ bytes: 'aGk=' });
    expect(r.ok && r.members.kind.value).toEqual({ token: 'agent/v1' });
  });

  it('accepts a dictionary without a profile', () => {
    const r = parseUcpAgent('name="x"');
    expect(r).toMatchObject({ ok: true, profile: null });
  });

  it.each([
    ['profile=https://a.example', 'profile must be a string'],
    ['profile="http://a.example"', 'https'],
    ['profile="https://a.example', 'unterminated'],
    ['Profile="https://a.example"', 'key'],
    ['a=1,', 'trailing comma'],
    ['a=1 b=2', 'expected ","'],
    ['a="\u00e9"', 'non-ASCII'],
    ['x'.repeat(5000), '4096'],
  ])('refuses %j', (header, reason) => {
    const r = parseUcpAgent(header);
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.reason).toContain(reason);
  });
});
