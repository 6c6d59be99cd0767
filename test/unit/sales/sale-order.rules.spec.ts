import {
  deriveTradeStatus,
  latestPerOrder,
  LedgerRecordInput,
  mapLineStatus,
  resolveTradeStatus,
  toSaleRows,
} from '../../../src/sales/sale-order.rules';
import { orderTotals, toSaleOrderView } from '../../../src/sales/api/sale-order.view';

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

describe('trade status derivation (decisions.md section 10)', () => {
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

describe('toSaleOrderView', () => {
  const base = {
    id: 'O1',
    namespace: 'n-machine',
    locationId: 'loc-1',
    totalFen: 1000,
    takenAt: new Date(T0),
    settledAt: null,
    updatedAt: null,
    finalized: null,
    tradeStatus: 'settled',
    tradeStatusRaw: 'PAID',
    tradeStatusLabel: null,
    dataWarnings: null,
  };
  const lines = [
    { lineNo: 1, vendorSku: 'A', skuId: 'n-machine:A', title: 'Cola', quantity: 2, priceFen: 300, status: 'paid' },
    { lineNo: 2, vendorSku: 'B', skuId: 'n-machine:B', title: null, quantity: 1, priceFen: 200, status: 'refunded' },
    { lineNo: 3, vendorSku: 'C', skuId: 'n-machine:C', title: 'Tea', quantity: 1, priceFen: 100, status: 'refund_failed' },
    { lineNo: 4, vendorSku: 'D', skuId: 'n-machine:D', title: 'Gum', quantity: 1, priceFen: 100, status: 'cancelled' },
    { lineNo: 5, vendorSku: 'E', skuId: 'n-machine:E', title: 'Gum', quantity: 3, priceFen: 100, status: 'unpaid' },
  ];
  const opts = { permalinkBase: 'https://svc.example', locationName: 'Lobby', toTime: (d: Date) => d.toISOString() };

  it('renders the line statuses and their adjustments', () => {
    const v = toSaleOrderView(base, lines, opts);
    expect(v.line_items.map((l) => l.status)).toEqual(['fulfilled', 'removed', 'fulfilled', 'removed', 'processing']);
    expect(v.line_items[1].quantity).toEqual({ original: 1, total: 0, fulfilled: 0 });
    expect(v.line_items[0].quantity).toEqual({ original: 2, total: 2, fulfilled: 2 });
    expect(v.line_items[4].quantity).toEqual({ original: 3, total: 3, fulfilled: 0 });
    expect(v.line_items[1].item).toEqual({ id: 'n-machine:B', title: 'B', price: { amount: 200, currency: 'CNY' }, quantity_unit: 'EA' });
    expect(v.adjustments.map((a) => [a.type, a.status, a.line_items[0].id])).toEqual([
      ['refund', 'completed', '2'],
      ['refund_failed', 'failed', '3'],
      ['cancellation', 'completed', '4'],
    ]);
    expect(v.adjustments[0].totals).toEqual([{ type: 'total', amount: -200 }]);
  });
  it('passes timestamps and finalized only when the platform has them', () => {
    const v = toSaleOrderView(base, lines, opts);
    expect(v).not.toHaveProperty('settled_at');
    expect(v).not.toHaveProperty('updated_at');
    expect(v).not.toHaveProperty('finalized');
    expect(v.taken_at).toBe(new Date(T0).toISOString());
    const w = toSaleOrderView({ ...base, settledAt: new Date(T0 + 1), updatedAt: new Date(T0 + 2), finalized: false }, lines, opts);
    expect(w.settled_at).toBe(new Date(T0 + 1).toISOString());
    expect(w.updated_at).toBe(new Date(T0 + 2).toISOString());
    expect(w.finalized).toBe(false);
  });
  it('omits trade_status when absent but keeps trade_status_raw', () => {
    const v = toSaleOrderView({ ...base, tradeStatus: null }, [], opts);
    expect(v).not.toHaveProperty('trade_status');
    expect(v.trade_status_raw).toBe('PAID');
    expect(v.kind).toBe('sale');
    expect(v.permalink_url).toBe('https://svc.example/ucp/v1/orders/O1');
    expect(v.location_name).toBe('Lobby');
  });
  it('totals have one subtotal and one total, and the entries add up', () => {
    for (const [total, ls] of [[1000, lines], [700, lines], [1500, lines], [420, []]] as const) {
      const t = orderTotals(total, ls);
      expect(t.filter((x) => x.type === 'subtotal')).toHaveLength(1);
      expect(t.filter((x) => x.type === 'total')).toHaveLength(1);
      const sum = t.filter((x) => x.type !== 'total').reduce((n, x) => n + x.amount, 0);
      expect(sum).toBe(total);
    }
  });
});
