import { approvalShows, destinationWords } from '../../../src/approvals/approval-shows.rules';

/** Issue 37: what an approval shows a person, in words, from its stored subject. */
describe('approvalShows', () => {
  const line = (machine: string, title: string, units: number, ordered: number, cost: number) => ({
    slot_id: `${machine}-${title}`, location: machine.toUpperCase(), machine, item_id: `s:${title}`, title, units, ordered_units: ordered, quantity: 1, unit: 'BX', cost_estimate_fen: cost, supplier: 's',
  });
  const run = {
    run_id: 'run-313b5e83', total_cost_fen: 297310, limit: 'per_order', limit_fen: 100000, spent_fen: 0, fulfiller: 'acme-supply,beta-supply', key: 'run1:x',
    lines: [line('Lobby', 'Cola', 8, 8, 1600), line('Gym', 'Cola', 8, 16, 3200), line('Lobby', 'Tea', 10, 10, 292510)],
  };

  it('a run: machines, goods and units, the budget it passes, a link to the run', () => {
    const s = approvalShows('replenishment_run', run);
    expect(s.headline).toBe('Replenishment run: 26 units of 2 goods for 2 machines from acme-supply, beta-supply, estimated ¥2,973.10, over the per-order budget of ¥1,000.00');
    expect(s.lines.map((l) => l.text)).toEqual([
      'Lobby: 8 units of Cola, about ¥16.00',
      'Gym: 8 units of Cola (16 bought with the box rounding; the rest goes to the depot), about ¥32.00',
      'Lobby: 10 units of Tea, about ¥2,925.10',
    ]);
    expect(s).toMatchObject({ totalFen: 297310, supplier: 'acme-supply, beta-supply', link: '/ucp/v1/replenishment/runs/run-313b5e83' });
  });

  it('a run approved before its lines were recorded says so, never an empty list as if nothing moved', () => {
    const s = approvalShows('replenishment_run', { run_id: 'run-1', total_cost_fen: 100, limit: 'daily', limit_fen: 50, spent_fen: 0 });
    expect(s.headline).toContain('goods (its lines were not recorded with the approval)');
    expect(s.link).toBe('/ucp/v1/replenishment/runs/run-1');
  });

  it('a purchase: its lines with prices and where it goes', () => {
    const s = approvalShows('checkout_budget', {
      session_id: 'PO-1', namespace: 'acme-supply', total_fen: 144000, key: 's2:x',
      lines: [{ id: 'acme-supply:COLA', quantity: 30, unit: 'BX', title: 'Cola 330ml', unit_price_fen: 4800 }],
      fulfillment: [{ type: 'shipping', destinations: [{ street_address: '9 Other St', first_name: 'Mallory', phone_number: '139' }] }],
    });
    expect(s.headline).toBe('Purchase order over budget: 1 line from acme-supply for ¥1,440.00, shipped to 9 Other St, for Mallory (phone 139)');
    expect(s.lines[0].text).toBe('30 boxes of Cola 330ml at ¥48.00 = ¥1,440.00');
    expect(s.destination).toBe('shipped to 9 Other St, for Mallory (phone 139)');
    expect(s.link).toBe('/ucp/v1/checkout-sessions/PO-1');
  });

  it('a price change: the machine, the good, the old and the new price; ids stand in for names not recorded', () => {
    const subject = { slot_id: 'L1-A1', location: 'L1', namespace: 'm', item_id: 'm:A1', vendor_sku: 'A1', current_fen: 350, price_fen: 1000 };
    expect(approvalShows('price_change', { ...subject, machine: 'Lobby', title: 'Oolong' })).toMatchObject({
      headline: 'Price of Oolong on Lobby: ¥3.50 → ¥10.00',
      price: { machine: 'Lobby', good: 'Oolong', itemId: 'm:A1', fromFen: 350, toFen: 1000 },
      link: '/ucp/v1/locations/L1/inventory',
    });
    expect(approvalShows('price_change', subject).headline).toBe('Price of m:A1 on L1: ¥3.50 → ¥10.00');
  });

  it('an unreadable subject is said to be so', () => {
    expect(approvalShows('checkout_budget', { run_id: 'x' }).headline).toContain('not readable');
  });
});

describe('destinationWords', () => {
  it('pickup, shipping, restock and a method without a destination', () => {
    expect(destinationWords([{ type: 'pickup', destinations: [{ street_address: '1 Road', first_name: 'Li', last_name: 'Wei' }] }])).toBe('picked up at 1 Road, for Li Wei');
    expect(destinationWords([{ type: 'restock', destinations: [{ name: 'run', locations: ['FLEET-1', 'FLEET-2'] }] }])).toBe("restocked into the route's machines FLEET-1, FLEET-2");
    expect(destinationWords([{ type: 'shipping', destinations: [] }])).toBe('shipping with no destination');
    expect(destinationWords([])).toBeNull();
  });
});
