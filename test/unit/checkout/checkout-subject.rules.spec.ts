import { canonicalJson, purchaseKey, sessionKey, subjectFulfillment } from '../../../src/checkout/checkout-subject.rules';

/** Issue 37: an approval covers everything the order moves; any change to any of it is another key. */
describe('what a checkout approval covers (sessionKey)', () => {
  const dest = (street: string, name = 'Li', type = 'pickup') => ({ methods: [{ type, destinations: [{ street_address: street, first_name: name, phone_number: '13800000000' }] }] });
  const lines = [{ itemId: 'acme-supply:COLA', unit: 'BX', quantity: 30, unitPriceFen: 4800 }];
  const base = { namespace: 'acme-supply', lines, totalFen: 144000, fulfillment: dest('1 Road') };
  const key = sessionKey(base);

  it('the same order written in another key order is the same subject', () => {
    const reordered = { methods: [{ destinations: [{ phone_number: '13800000000', first_name: 'Li', street_address: '1 Road' }], type: 'pickup' }] };
    expect(sessionKey({ ...base, fulfillment: reordered })).toBe(key);
  });

  it.each([
    ['the destination address', { fulfillment: dest('9 Other Street') }],
    ['the name at the destination', { fulfillment: dest('1 Road', 'Wang') }],
    ['the fulfillment method', { fulfillment: dest('1 Road', 'Li', 'shipping') }],
    ['no fulfillment', { fulfillment: null }],
    ['the supplier', { namespace: 'beta-supply' }],
    ['a quantity', { lines: [{ ...lines[0], quantity: 31 }] }],
    ['a unit', { lines: [{ ...lines[0], unit: 'EA' }] }],
    ['a unit price', { lines: [{ ...lines[0], unitPriceFen: 4900 }] }],
    ['a good', { lines: [{ ...lines[0], itemId: 'acme-supply:WATER' }] }],
    ['the total', { totalFen: 144001 }],
  ])('%s changes the subject', (_what, change) => {
    expect(sessionKey({ ...base, ...change })).not.toBe(key);
  });

  it('the purchase key leaves prices out but not the destination', () => {
    const po = { namespace: 'acme-supply', lines, fulfillment: dest('1 Road') };
    expect(purchaseKey({ ...po, lines: [{ itemId: 'acme-supply:COLA', unit: 'BX', quantity: 30 }] })).toBe(purchaseKey(po));
    expect(purchaseKey({ ...po, fulfillment: dest('2 Road') })).not.toBe(purchaseKey(po));
  });

  it('canonical JSON sorts keys and drops undefined members', () => {
    expect(canonicalJson({ b: 1, a: [{ d: undefined, c: 'x' }] })).toBe('{"a":[{"c":"x"}],"b":1}');
  });

  it('the fulfillment an approval shows: methods with their destinations, anything else left out', () => {
    expect(subjectFulfillment(dest('1 Road'))).toEqual([{ type: 'pickup', destinations: [{ street_address: '1 Road', first_name: 'Li', phone_number: '13800000000' }] }]);
    expect(subjectFulfillment(null)).toEqual([]);
    expect(subjectFulfillment({ methods: [{ destinations: [null, 'x'] }] })).toEqual([{ type: 'unknown', destinations: [] }]);
  });
});
