/** Issue 30: the console's words: money, +08:00 times, statuses, messages and field labels. */
import fc from 'fast-check';
import { fenText, fieldLabel, humanize, statusWord, supplierStatusText, when } from '../../../console/src/format';
import { changePercent, judge, requesterWords, shownOf } from '../../../console/src/screens/approval-words';

describe('console words', () => {
  it('shows fen as yuan with thousands separators, never fen', () => {
    expect(fenText(165740)).toBe('¥1,657.40');
    expect(fenText(3000000)).toBe('¥30,000.00');
    expect(fenText(4)).toBe('¥0.04');
    expect(fenText(-350)).toBe('-¥3.50');
    expect(fenText(123456789)).toBe('¥1,234,567.89');
    fc.assert(
      fc.property(fc.integer({ min: -1e12, max: 1e12 }), (fen) => {
        const t = fenText(fen);
        expect(t).toMatch(/^-?¥\d{1,3}(,\d{3})*\.\d{2}$/);
        expect(Math.round(Number(t.replace(/[¥,]/g, '')) * 100)).toBe(fen);
      }),
    );
  });

  it('shows an instant as its +08:00 wall time whatever offset it was written with', () => {
    expect(when('2026-11-25T13:49:00Z')).toBe('2026-11-25 21:49');
    expect(when('2026-11-25T21:49:00+08:00')).toBe('2026-11-25 21:49');
    expect(when('2026-11-25T16:30:00Z')).toBe('2026-11-26 00:30');
    expect(when(null)).toBe('—');
  });

  it('says statuses as words, and a supplier status by its own description', () => {
    expect(statusWord('awaiting_approval')).toBe('waiting for approval');
    expect(statusWord('WAIT_SELLER_SEND')).toBe('wait seller send');
    expect(statusWord('settled')).toBe('settled');
    expect(supplierStatusText({ code: 'WAIT_SELLER_SEND', description: 'Waiting for the seller to ship', mapped: 'processing' })).toBe('Waiting for the seller to ship');
    expect(supplierStatusText({ code: 'WAIT_SELLER_SEND', description: '', mapped: 'in_progress' })).toBe('in progress');
  });

  it('rewrites service internals for a person', () => {
    expect(humanize('price 750 -> 1200 fen is over the cap')).toBe('price ¥7.50 → ¥12.00 is over the cap');
    expect(humanize('estimated 165740 fen')).toBe('estimated ¥1,657.40');
    expect(humanize('needs SERVICE_APPROVER_TOKEN')).toBe('needs the owner credential');
    expect(humanize('see docs/replenishment-policy.md')).toBe('see the replenishment policy document');
    expect(humanize('$.location must match ^[A-Za-z0-9._-]{1,64}$, got "no such!"')).toBe('"no such!" is not valid here');
    expect(humanize('quantity exceeds what $.line_items[0].quantity allows')).toBe('quantity exceeds what quantity allows');
  });

  it('names the field a message is about by its label, not its path', () => {
    expect(fieldLabel('$.prices[0].price.amount')).toBe('New price');
    expect(fieldLabel('$.line_items[0].quantity')).toBe('Quantity');
    expect(fieldLabel('$.delivery_address')).toBe('Delivery address');
    expect(fieldLabel('$')).toBeNull();
  });

  it('judges a price change: old and new, percent, flagged when large; names who asked', () => {
    expect(changePercent(350, 4)).toBe(-98.9);
    expect(changePercent(0, 4)).toBeNull();
    const names = { machines: new Map([['FLEET-1', 'Lobby']]), products: new Map([['m:COLA', 'Cola']]) };
    const a = { id: 'a', kind: 'price_change', status: 'pending', summary: '', requested_at: '', resolved_at: null, resolver: null, requested_by: { channel: 'mcp', agent: 'https://a.example' }, subject: { item_id: 'm:COLA', location: 'FLEET-1', current_fen: 350, price_fen: 400 }, shows: { headline: '', lines: [], total_fen: null } } as never;
    expect(judge(a, names, null)).toMatchObject({ change: 'Cola on Lobby: ¥3.50 → ¥4.00', percent: 14.3, large: false });
    expect(judge({ ...(a as object), subject: { item_id: 'm:COLA', location: 'FLEET-1', current_fen: 350, price_fen: 4 } } as never, names, null).large).toBe(true);
    expect(requesterWords({ channel: 'mcp', agent: 'https://a.example' })).toBe('an agent over MCP (https://a.example)');
    expect(requesterWords(null)).toMatch(/not recorded/);
  });

  it('an approval in words (issue 37): a run by units, goods and machines with a link to it; a purchase by its destination', () => {
    const names = { machines: new Map<string, string>(), products: new Map<string, string>() };
    const line = (machine: string, item: string, units: number) => ({ machine, good: item, item_id: item, units, quantity: 1, unit: 'BX', amount_fen: 100, text: `${machine}: ${units} units of ${item}` });
    const run = {
      id: 'a', kind: 'replenishment_run', status: 'pending', summary: '', requested_at: '', resolved_at: null, resolver: null, requested_by: null,
      subject: { run_id: 'run-313b5e83', total_cost_fen: 297310, limit: 'daily', limit_fen: 100000 },
      shows: { headline: '', lines: [line('Lobby', 'Cola', 8), line('Gym', 'Cola', 8), line('Lobby', 'Tea', 10)], total_fen: 297310, supplier: 'acme-supply' },
    } as never;
    expect(judge(run, names, null).change).toBe('A run orders 26 units of 2 goods for 2 machines, about ¥2,973.10');
    expect(shownOf(run)).toEqual({
      lines: [{ key: '0-Cola', text: 'Lobby: 8 units of Cola' }, { key: '1-Cola', text: 'Gym: 8 units of Cola' }, { key: '2-Tea', text: 'Lobby: 10 units of Tea' }],
      destination: null,
      supplier: 'acme-supply',
      open: { screen: 'replenishment', id: 'run-313b5e83', label: 'Open the run' },
    });
    const purchase = {
      id: 'b', kind: 'checkout_budget', status: 'pending', summary: '', requested_at: '', resolved_at: null, resolver: null, requested_by: null,
      subject: { session_id: 'PO-1', namespace: 'acme-supply', total_fen: 144000 },
      shows: { headline: '', lines: [], total_fen: 144000, destination: 'picked up at 1 Road, for Li' },
    } as never;
    expect(judge(purchase, names, null).change).toBe('A purchase order from acme-supply for ¥1,440.00, picked up at 1 Road, for Li');
    expect(shownOf(purchase).open).toEqual({ screen: 'purchases', id: 'PO-1', label: 'Open the purchase order' });
  });
});
