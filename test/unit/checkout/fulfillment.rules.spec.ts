import fc from 'fast-check';
import { evaluateSession, EvaluationInput, sessionExpiresAt, SESSION_TTL_MS } from '../../../src/checkout/checkout.rules';
import { DESTINATION_FIELDS, fulfillmentProblems } from '../../../src/checkout/completion/fulfillment.rules';

const FULL = { street_address: '1 Road', first_name: 'Li', phone_number: '13800000000' };
const ship = (...destinations: unknown[]) => ({ methods: [{ type: 'shipping', destinations }] });

describe('fulfillment problems (issue 17: an order needs an address)', () => {
  it('a complete destination has none', () => {
    expect(fulfillmentProblems(ship(FULL))).toEqual([]);
  });

  it('no fulfillment, no method or a method without destinations is missing at its destinations', () => {
    for (const f of [null, undefined, {}, { methods: [] }]) {
      expect(fulfillmentProblems(f).map((m) => [m.code, m.path])).toEqual([['missing', '$.fulfillment.methods[0].destinations']]);
    }
    expect(fulfillmentProblems({ methods: [{ type: 'shipping', destinations: [FULL] }, { type: 'pickup', destinations: [] }] }).map((m) => m.path)).toEqual([
      '$.fulfillment.methods[1].destinations',
    ]);
  });

  it('an empty destination names each of the three fields by its exact path', () => {
    const problems = fulfillmentProblems(ship({}));
    expect(problems.map((m) => m.path)).toEqual([
      '$.fulfillment.methods[0].destinations[0].street_address',
      '$.fulfillment.methods[0].destinations[0].first_name',
      '$.fulfillment.methods[0].destinations[0].phone_number',
    ]);
    expect(problems.every((m) => m.code === 'missing' && m.severity === 'recoverable' && m.type === 'error')).toBe(true);
  });

  it('a blank field is missing, a field that is not a string is invalid', () => {
    expect(fulfillmentProblems(ship({ ...FULL, phone_number: '  ' })).map((m) => [m.code, m.path])).toEqual([['missing', '$.fulfillment.methods[0].destinations[0].phone_number']]);
    expect(fulfillmentProblems(ship({ ...FULL, first_name: 7 })).map((m) => [m.code, m.path])).toEqual([['invalid', '$.fulfillment.methods[0].destinations[0].first_name']]);
  });

  it('a restock method opened by a replenishment run (destinations are the machines) is not a postal destination', () => {
    expect(fulfillmentProblems({ methods: [{ type: 'restock', destinations: [{ name: 'run r1', locations: ['m1'] }] }] })).toEqual([]);
  });

  it('property: a problem for exactly each absent or blank field of each destination, at its path', () => {
    const value = fc.oneof(fc.constant(undefined), fc.constant(''), fc.constantFrom(' ', '\t\n'), fc.string({ minLength: 1 }).filter((s) => s.trim() !== ''));
    const destination = fc.record({ street_address: value, first_name: value, phone_number: value });
    const method = fc.record({ type: fc.constantFrom('shipping', 'pickup'), destinations: fc.array(destination, { minLength: 1, maxLength: 4 }) });
    fc.assert(
      fc.property(fc.array(method, { minLength: 1, maxLength: 3 }), (methods) => {
        const expected: string[] = [];
        methods.forEach((m, i) =>
          m.destinations.forEach((d, j) => {
            for (const f of DESTINATION_FIELDS) if (d[f] === undefined || d[f]!.trim() === '') expected.push(`$.fulfillment.methods[${i}].destinations[${j}].${f}`);
          }),
        );
        const got = fulfillmentProblems({ methods });
        expect(got.map((m) => m.path)).toEqual(expected);
        expect(got.every((m) => m.code === 'missing')).toBe(true);
        // A session is ready only when there is no such problem.
        const ev = evaluateSession({ ...READY, fulfillmentProblems: got });
        expect(ev.status === 'ready_for_complete').toBe(expected.length === 0);
      }),
    );
  });
});

const READY: EvaluationInput = {
  lines: [{ itemId: 'acme-supply:A', vendor: 'acme', quantity: 1, unitPriceFen: 100, increment: 1, problem: null }],
  fulfillmentProblems: [],
  guards: { budget: { ok: true }, probation: false, hardNoGo: [false] },
  sessionKey: 'k',
  approvals: [],
};

describe('session expiry (issue 17: expires_at)', () => {
  it('expires the TTL after the lines were priced; an expired session is incomplete with a message at $.expires_at', () => {
    const priced = new Date('2026-11-20T00:00:00Z');
    expect(sessionExpiresAt(priced).getTime() - priced.getTime()).toBe(SESSION_TTL_MS);
    const ev = evaluateSession({ ...READY, expired: { at: '2026-11-20T14:00:00+08:00' } });
    expect(ev.status).toBe('incomplete');
    expect(ev.messages).toEqual([expect.objectContaining({ code: 'session_expired', severity: 'recoverable', path: '$.expires_at' })]);
    expect(evaluateSession({ ...READY, expired: null }).status).toBe('ready_for_complete');
  });
});
