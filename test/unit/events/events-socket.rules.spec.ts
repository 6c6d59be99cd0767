import { ALL_EVENTS, cookieOriginAllowed, credentialInUrl, matchesFilter, parseClientMessage } from '../../../src/events/events-socket.rules';

describe('parseClientMessage', () => {
  it('reads auth, subscribe and ping', () => {
    expect(parseClientMessage('{"type":"auth","token":"abc"}')).toEqual({ type: 'auth', token: 'abc' });
    expect(parseClientMessage('{"type":"ping"}')).toEqual({ type: 'ping' });
    expect(parseClientMessage('{"type":"subscribe"}')).toEqual({ type: 'subscribe', filter: { kinds: null, location: null } });
    expect(parseClientMessage('{"type":"subscribe","kinds":["a","b","a"],"location":"L1"}')).toEqual({
      type: 'subscribe',
      filter: { kinds: ['a', 'b'], location: 'L1' },
    });
    expect(parseClientMessage('{"type":"subscribe","kinds":null,"location":null}')).toEqual({
      type: 'subscribe',
      filter: { kinds: null, location: null },
    });
  });

  it.each([
    ['not json', '{"type":'],
    ['an array', '[1,2]'],
    ['null', 'null'],
    ['a string', '"auth"'],
    ['no type', '{"token":"x"}'],
    ['an unknown type', '{"type":"unsubscribe"}'],
    ['auth without token', '{"type":"auth"}'],
    ['auth with a number token', '{"type":"auth","token":5}'],
    ['auth with an empty token', '{"type":"auth","token":""}'],
    ['kinds not an array', '{"type":"subscribe","kinds":"sale.settled"}'],
    ['kinds empty', '{"type":"subscribe","kinds":[]}'],
    ['kinds with a number', '{"type":"subscribe","kinds":["a",3]}'],
    ['kinds with an empty string', '{"type":"subscribe","kinds":[""]}'],
    ['location a number', '{"type":"subscribe","location":12}'],
    ['location empty', '{"type":"subscribe","location":""}'],
  ])('answers invalid for %s', (_name, text) => {
    const m = parseClientMessage(text);
    expect(m.type).toBe('invalid');
  });

  it('names the offending field without echoing the input', () => {
    const m = parseClientMessage('{"type":"subscribe","kinds":["a",{"secret":"s3cr3t"}]}');
    expect(m).toEqual({ type: 'invalid', content: expect.stringContaining('$.kinds[1]') });
    expect(JSON.stringify(m)).not.toContain('s3cr3t');
  });

  it('limits the number of kinds', () => {
    const kinds = Array.from({ length: 101 }, (_, i) => `k${i}`);
    expect(parseClientMessage(JSON.stringify({ type: 'subscribe', kinds })).type).toBe('invalid');
    expect(parseClientMessage(JSON.stringify({ type: 'subscribe', kinds: kinds.slice(0, 100) })).type).toBe('subscribe');
  });
});

describe('matchesFilter', () => {
  const e = { kind: 'sale.settled', location: 'L1' };
  it('passes everything without a filter', () => {
    expect(matchesFilter(e, ALL_EVENTS)).toBe(true);
    expect(matchesFilter({ kind: 'x' }, ALL_EVENTS)).toBe(true);
  });
  it('filters by kind and by location, both at once', () => {
    expect(matchesFilter(e, { kinds: ['sale.settled'], location: null })).toBe(true);
    expect(matchesFilter(e, { kinds: ['price.changed'], location: null })).toBe(false);
    expect(matchesFilter(e, { kinds: null, location: 'L1' })).toBe(true);
    expect(matchesFilter(e, { kinds: null, location: 'L2' })).toBe(false);
    expect(matchesFilter({ kind: 'sale.settled' }, { kinds: null, location: 'L1' })).toBe(false);
    expect(matchesFilter(e, { kinds: ['sale.settled'], location: 'L2' })).toBe(false);
  });
});

describe('credentialInUrl', () => {
  it.each([
    '/ucp/v1/events/ws?token=abc',
    '/ucp/v1/events/ws?access_token=abc',
    '/ucp/v1/events/ws?a=1&TOKEN=abc',
    '/ucp/v1/events/ws?vending_auth=abc',
    '/ucp/v1/events/ws?Authorization=Bearer%20abc',
    '/ucp/v1/events/ws?api_key=abc',
  ])('finds a credential in %s', (url) => {
    expect(credentialInUrl(url)).toBe(true);
  });
  it.each([undefined, '/ucp/v1/events/ws', '/ucp/v1/events/ws?', '/ucp/v1/events/ws?x=1&since=2'])('finds none in %s', (url) => {
    expect(credentialInUrl(url)).toBe(false);
  });
});

describe('cookieOriginAllowed', () => {
  const none = { corsOrigins: [], publicUrl: null };
  it('allows clients without Origin (not a browser) and pages of the service itself', () => {
    expect(cookieOriginAllowed(undefined, 'svc.example:8080', none, 'http')).toBe(true);
    expect(cookieOriginAllowed('http://svc.example:8080', 'svc.example:8080', none, 'http')).toBe(true);
    expect(cookieOriginAllowed('https://SVC.example:8080', 'svc.example:8080', none, 'https')).toBe(true);
    // Issue 26: the same host over another scheme is another origin.
    expect(cookieOriginAllowed('https://svc.example:8080', 'svc.example:8080', none, 'http')).toBe(false);
    expect(cookieOriginAllowed('http://svc.example:8080', 'svc.example:8080', none, 'https')).toBe(false);
  });
  it('allows the public URL origin and the configured dashboard origins', () => {
    expect(cookieOriginAllowed('https://ops.example', '10.0.0.5:8080', { corsOrigins: [], publicUrl: 'https://ops.example/base' }, 'https')).toBe(true);
    expect(cookieOriginAllowed('https://dash.example', 'svc:8080', { corsOrigins: ['https://dash.example'], publicUrl: null }, 'https')).toBe(true);
  });
  it('refuses any other page, the null origin and garbage', () => {
    expect(cookieOriginAllowed('https://evil.example', 'svc.example:8080', none, 'https')).toBe(false);
    expect(cookieOriginAllowed('https://dash.example.evil', 'svc:8080', { corsOrigins: ['https://dash.example'], publicUrl: null }, 'https')).toBe(false);
    expect(cookieOriginAllowed('http://dash.example', 'svc:8080', { corsOrigins: ['https://dash.example'], publicUrl: null }, 'https')).toBe(false);
    expect(cookieOriginAllowed('null', 'svc:8080', none, 'https')).toBe(false);
    expect(cookieOriginAllowed('not a url', 'svc:8080', none, 'https')).toBe(false);
  });
});
