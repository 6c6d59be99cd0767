import { NO_QUERY, queryKeysProblem } from '../../../src/common/edge/query-keys.rules';

/** Issue 17: a query key the route does not take, or several values for one value, is a problem naming the key. */
describe('queryKeysProblem', () => {
  const orders = new Map<string, 'one' | 'many'>([['location', 'one'], ['limit', 'one'], ['ids', 'many']]);

  it('accepts the keys the route takes, once each, and arrays where it takes several', () => {
    expect(queryKeysProblem({}, NO_QUERY)).toBeNull();
    expect(queryKeysProblem(undefined, NO_QUERY)).toBeNull();
    expect(queryKeysProblem({ location: 'm-1', limit: '5', ids: ['a', 'b'] }, orders)).toBeNull();
  });

  it('names the key that is unknown, bracketed or repeated', () => {
    expect(queryKeysProblem({ locaton: 'm-1' }, orders)).toMatchObject({ path: '$.locaton' });
    expect(queryKeysProblem({ 'location[]': 'm-1' }, orders)).toMatchObject({ path: '$["location[]"]', why: expect.stringContaining('give location once') });
    expect(queryKeysProblem({ location: ['a', 'b'] }, orders)).toEqual({ path: '$.location', why: '$.location takes one value; it was given 2 times' });
    expect(queryKeysProblem({ location: { a: '1' } }, orders)).toMatchObject({ path: '$.location' });
    expect(queryKeysProblem({ anything: '1' }, NO_QUERY)).toEqual({ path: '$.anything', why: '$.anything: this route takes no query parameters' });
  });
});
