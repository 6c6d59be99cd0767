import {
  deriveTradeStatus,
  latestPerOrder,
  LedgerRecordInput,
  mapLineStatus,
  resolveTradeStatus,
  toSaleRows,
} from '../../../src/sales/sale-order.rules';

const T0 = Date.UTC(2026, 10, 20, 2, 0, 0);

function record(over: Partial<LedgerRecordInput> = {}): LedgerRecordInput {
  return {
    orderNo: 'O1',
    locationId: 'loc-1',
    totalFen: 700,
    createdAt: T0,
    takenAt: null,
    settledAt: null,
    updatedAt: null,
    finalized: null,
    state: null,
    stateRaw: null,
    stateLabel: null,
    lines: [{ vendorSku: 'A1', title: 'Cola', quantity: 2, priceFen: 350, status: 'paid', costFen: 200 }],
    ...over,
  };
}

describe('line status mapping (spec table)', () => {
  it.each([
    ['paid', 'fulfilled', null],
    ['unpaid', 'processing', null],
    ['refunded', 'removed', 'refund'],
    ['refund_failed', 'fulfilled', 'refund_failed'],
    ['cancelled', 'removed', 'cancellation'],
  ])('%s → %s with adjustment %s', (word, status, adjustment) => {
    expect(mapLineStatus(word)).toEqual({ status, adjustment, known: true });
  });
  it('does not guess an unknown word (nor an Object.prototype name)', () => {
    expect(mapLineStatus('PAID_OK')).toEqual({ status: 'processing', adjustment: null, known: false });
    expect(mapLineStatus('constructor').known).toBe(false);
  });
});

describe('trade status derivation (docs/contract/)', () => {
  it('never derives an order without lines', () => expect(deriveTradeStatus([])).toBeNull());
  it('every line cancelled → cancelled', () => expect(deriveTradeStatus(['cancelled', 'cancelled'])).toBe('cancelled'));
  it('every line refunded → refunded', () => expect(deriveTradeStatus(['refunded'])).toBe('refunded'));
  it('any unpaid → in_progress', () => expect(deriveTradeStatus(['paid', 'unpaid'])).toBe('in_progress'));
  it('otherwise settled', () => {
    expect(deriveTradeStatus(['paid'])).toBe('settled');
    expect(deriveTradeStatus(['paid', 'refunded'])).toBe('settled');
    expect(deriveTradeStatus(['refund_failed'])).toBe('settled');
  });
  it('an unknown line word is never counted as a sale', () => expect(deriveTradeStatus(['paid', 'weird'])).toBeNull());
});

describe('resolveTradeStatus', () => {
  it('takes the adapter state when it is one of the six and keeps the raw word and label', () => {
    const r = resolveTradeStatus({ orderNo: 'O', state: 'refunded', stateRaw: 'REFUND_OK', stateLabel: '已退款', lines: [{ status: 'paid' }] });
    expect(r).toEqual({ tradeStatus: 'refunded', raw: 'REFUND_OK', label: '已退款', warnings: [] });
  });
  it('an unknown state word is kept as raw, derived from lines, and warned about by name', () => {
    const r = resolveTradeStatus({ orderNo: 'O9', state: 'DONE', stateRaw: null, stateLabel: null, lines: [{ status: 'paid' }] });
    expect(r.tradeStatus).toBe('settled');
    expect(r.raw).toBe('DONE');
    expect(r.warnings).toHaveLength(1);
    expect(r.warnings[0].content).toContain('O9');
    expect(r.warnings[0].content).toContain('DONE');
  });
  it('with neither a state nor lines: no trade status, only the raw word', () => {
    const r = resolveTradeStatus({ orderNo: 'O', state: null, stateRaw: 'X1', stateLabel: null, lines: [] });
    expect(r.tradeStatus).toBeNull();
    expect(r.raw).toBe('X1');
  });
});

describe('toSaleRows', () => {
  it('takes taken_at from takenAt, else createdAt, and passes the other times only when sent', () => {
    const a = toSaleRows(record({ takenAt: T0 + 1000 }), 'acme-machine');
    const b = toSaleRows(record(), 'acme-machine');
    if (!a.ok || !b.ok) throw new Error('refused');
    expect(a.order.taken_at).toBe(new Date(T0 + 1000).toISOString());
    expect(a.order.has_taken_at).toBe(true);
    expect(b.order.taken_at).toBe(new Date(T0).toISOString());
    expect(b.order.has_taken_at).toBe(false);
    expect(b.order.settled_at).toBeNull();
    expect(b.order.updated_at).toBeNull();
    expect(b.order.finalized).toBeNull();
  });
  it('builds sku and slot ids from the namespace and location', () => {
    const r = toSaleRows(record(), 'acme-machine');
    if (!r.ok) throw new Error('refused');
    expect(r.lines[0]).toMatchObject({ order_id: 'O1', line_no: 1, sku_id: 'acme-machine:A1', slot_id: 'loc-1-A1', cost_fen: 200 });
    expect(r.order.trade_status).toBe('settled');
  });
  it('refuses a float or string amount and a bad location id, naming the record', () => {
    const f = toSaleRows(record({ totalFen: 3.5 }), 'acme-machine');
    expect(f.ok).toBe(false);
    if (!f.ok) expect(f.refused).toMatch(/O1.*totalFen.*3\.5/);
    const s = toSaleRows(record({ lines: [{ vendorSku: 'A', title: null, quantity: 1, priceFen: '350' as unknown as number, status: 'paid', costFen: null }] }), 'n-machine');
    expect(s.ok).toBe(false);
    const l = toSaleRows(record({ locationId: 'bad id' }), 'n-machine');
    expect(l.ok).toBe(false);
  });
  it('marks an unknown line status with a warning whose path points at the line', () => {
    const r = toSaleRows(record({ lines: [{ vendorSku: 'A', title: null, quantity: 1, priceFen: 1, status: 'mystery', costFen: null }] }), 'n-machine');
    if (!r.ok) throw new Error('refused');
    expect(r.order.trade_status).toBeNull();
    expect(r.order.data_warnings?.map((w) => w.path)).toEqual(expect.arrayContaining(['$.line_items[0].status']));
  });
});

describe('latestPerOrder', () => {
  it('keeps one record per order: the latest revision', () => {
    const out = latestPerOrder([
      { orderNo: 'A', updatedAt: 2, v: 1 },
      { orderNo: 'B', updatedAt: 1, v: 2 },
      { orderNo: 'A', updatedAt: 1, v: 3 },
      { orderNo: 'A', updatedAt: 5, v: 4 },
    ]);
    expect(out.map((o) => o.v).sort()).toEqual([2, 4]);
  });
});
