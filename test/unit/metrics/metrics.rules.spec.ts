import { claimKindOfJob, partnerEndpoint, recoveredOutcomes, routeLabel } from '../../../src/metrics/metrics.rules';

describe('metrics rules', () => {
  it('a partner endpoint keeps the collection and drops the reference and the query', () => {
    expect(partnerEndpoint('GET', '/catalog')).toBe('GET /catalog');
    expect(partnerEndpoint('GET', '/ledger?cursor=abc&size=100')).toBe('GET /ledger');
    expect(partnerEndpoint('GET', '/orders/PO-1%2F2')).toBe('GET /orders/{ref}');
    expect(partnerEndpoint('GET', '/restock/rs-9')).toBe('GET /restock/{ref}');
    expect(partnerEndpoint('POST', '/orders')).toBe('POST /orders');
    expect(partnerEndpoint('GET', '/')).toBe('GET /');
  });

  it('a route label is the matched pattern, else the console or "unmatched" (never a raw path)', () => {
    expect(routeLabel('/ucp/v1/checkout-sessions/:id', '/ucp/v1/checkout-sessions/X')).toBe('/ucp/v1/checkout-sessions/:id');
    expect(routeLabel(undefined, '/console/assets/app-1234.js')).toBe('/console/*');
    expect(routeLabel(undefined, '/no/such/path/123')).toBe('unmatched');
  });

  it('a recovery pass tally is read in both spellings; anything else is not a tally', () => {
    expect(recoveredOutcomes({ checked: 3, placed: 1, released: 1, left: 1 })).toEqual({ placed: 1, released: 1, left: 1 });
    expect(recoveredOutcomes({ checked: 2, completed: 2, released: 0, left: 0 })).toEqual({ placed: 2, released: 0, left: 0 });
    expect(recoveredOutcomes({ checked: 2, released: 0, left: 0, unconfirmed: 1, placed: 0 })).toEqual({ placed: 0, released: 0, left: 0 });
    expect(recoveredOutcomes(7)).toBeNull();
    expect(recoveredOutcomes(null)).toBeNull();
    expect(recoveredOutcomes({ refreshed: 4 })).toBeNull();
  });

  it('the claim kind of a recovery job is the kind money_claims names', () => {
    expect(claimKindOfJob('checkout.recovery')).toBe('checkout');
    expect(claimKindOfJob('approvals.recovery')).toBe('approval');
    expect(claimKindOfJob('replenishment.recovery')).toBe('replenishment_run');
    expect(claimKindOfJob('restock.recovery')).toBe('restock');
  });
});
