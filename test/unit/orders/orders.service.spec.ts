import { DomainError } from '../../../src/common/errors/errors';
import { toHttp } from '../../../src/common/errors/exception.filter';
import { OrdersService } from '../../../src/orders/orders.service';
import { PurchaseOrder, PurchaseOrderReader } from '../../../src/purchases/purchase-order-reader';

/** The orders service's routing between the sales ledger and the purchase order reader (no database). */
function service(purchases?: PurchaseOrderReader) {
  const sales = { find: async () => null, list: async () => [] };
  const syncState = { get: async () => null };
  const registry = { defaults: () => ({ machine: 'acme-machine' }) };
  return new OrdersService(sales as never, syncState as never, registry as never, purchases);
}

/** The status and code the exception filter answers for a failed call (a DomainError carries no status). */
async function answerOf(call: Promise<unknown>): Promise<{ status: number; code: string }> {
  const err = await call.then(() => null, (e: unknown) => e);
  if (!err) throw new Error('the call did not fail');
  const { status, messages } = toHttp(err);
  return { status, code: messages[0].code };
}

describe('OrdersService routing', () => {
  it('answers 501 not_implemented for kind=purchase while no reader is provided, and 404 for a non-sale id', async () => {
    const s = service();
    expect(await answerOf(s.list({ kind: 'purchase' }))).toEqual({ status: 501, code: 'not_implemented' });
    await expect(s.find('PO-1')).rejects.toBeInstanceOf(DomainError);
    expect(await answerOf(s.find('PO-1'))).toEqual({ status: 404, code: 'not_found' });
  });

  it('passes cursor and limit to the reader and falls back to it for ids that are not sales', async () => {
    const calls: unknown[] = [];
    const po = { id: 'PO-1' } as PurchaseOrder;
    const reader: PurchaseOrderReader = {
      list: async (q) => {
        calls.push(q);
        return { orders: [po], cursor: null, messages: [] };
      },
      find: async (id) => (id === 'PO-1' ? { order: po, messages: [] } : null),
    };
    const s = service(reader);
    expect(await s.list({ kind: 'purchase', cursor: 'c1', limit: 5 })).toEqual({ kind: 'purchase', orders: [po], cursor: null, messages: [] });
    expect(calls).toEqual([{ cursor: 'c1', limit: 5 }]);
    expect(await s.find('PO-1')).toEqual({ kind: 'purchase', order: po, messages: [] });
    expect((await answerOf(s.find('PO-2'))).status).toBe(404);
  });

  it('marks sales stale when the ledger was never synced', async () => {
    const page = await service().list({});
    expect(page.messages.map((m) => [m.code, m.severity])).toEqual([['stale_data', 'warning']]);
    expect(page.cursor).toBeNull();
  });
});
