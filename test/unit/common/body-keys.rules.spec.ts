import { bodyKeysProblem } from '../../../src/common/edge/body-keys.rules';

/** Issue 25: a route that takes no body refuses a body that says anything, naming its first key. */
describe('bodyKeysProblem', () => {
  it('accepts no body, null, an empty object and an empty array', () => {
    for (const b of [undefined, null, {}, []]) expect(bodyKeysProblem(b)).toBeNull();
  });

  it('names the first key of an object, quoting a key that is not an identifier', () => {
    expect(bodyKeysProblem({ location: 'L2' })).toEqual({ path: '$.location', why: expect.stringContaining('$.location: this route takes no request body') });
    expect(bodyKeysProblem({ 'a b': 1, c: 2 })).toMatchObject({ path: '$["a b"]' });
    expect(bodyKeysProblem({ nested: {} })).toMatchObject({ path: '$.nested' });
  });

  it('refuses a non-empty array at its first element and a scalar at the root', () => {
    expect(bodyKeysProblem([{ location: 'L2' }])).toMatchObject({ path: '$[0]' });
    for (const b of ['L2', '', 0, false]) expect(bodyKeysProblem(b)).toMatchObject({ path: '$', why: expect.stringContaining('takes no request body') });
  });
});
