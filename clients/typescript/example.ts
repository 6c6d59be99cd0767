/**
 * The 13 core operations through the typed client, the way a dashboard or an agent would chain them.
 * CI type-checks it under --strict (`npm run api:check`) and test/e2e/client-example.e2e-spec.ts runs it against a
 * staging service. Compiled, it also runs on its own: `VENDING_URL=http://localhost:8080 VENDING_TOKEN=… node example.js`.
 */
import { blocking, createVendingClient, type ErrorEnvelope, type VendingClient } from './client';

export interface ExampleReport {
  supplyNamespace: string;
  location: string;
  salesTotalFen: number;
  moreSales: boolean;
  planSlotsToOrder: number;
  sessionStatus: string;
  purchaseOrderId: string | null;
  pricesChanged: number;
  pendingApprovals: number;
  lastEventKinds: string[];
}

/** Fails with the envelope's messages: every error answer carries them. */
function must<T>(r: { data?: T; error?: ErrorEnvelope | unknown; response: Response }): T {
  if (r.data !== undefined) return r.data;
  const messages = (r.error as ErrorEnvelope | undefined)?.messages ?? [];
  throw new Error(`HTTP ${r.response.status}: ${messages.map((m) => `${m.code} ${m.content}`).join('; ')}`);
}

export async function runExample(api: VendingClient): Promise<ExampleReport> {
  // 1. Discovery (no token needed) and 2. the namespace registry: vendors are runtime facts.
  const profile = must(await api.GET('/.well-known/ucp'));
  const events = profile.ucp.capabilities['com.example.svc.events']?.[0];
  const ns = must(await api.GET('/ucp/v1/namespaces'));
  const supplyNamespace = ns.defaults.supply ?? ns.namespaces.find((n) => n.role === 'supply' && n.status === 'live')?.namespace;
  const machineNamespace = ns.defaults.machine ?? 'sim-machine';
  if (!supplyNamespace) throw new Error('no live supply namespace');

  // 3. Locations, 4. location sync (body optional).
  const locations = must(await api.POST('/ucp/v1/locations/search', { body: {} }));
  const location = locations.locations[0].id;
  const sync = must(await api.POST('/ucp/v1/locations/sync', { body: { sales_window_days: 30 } }));

  // 5. Catalog search: products (UCP layout), each with its variants: the each price (integer fen) and sale units.
  const catalog = must(await api.POST('/ucp/v1/catalog/search', { body: { filters: { namespace: supplyNamespace }, pagination: { limit: 5 } } }));
  const good = catalog.products[0].variants[0];
  const shelf = must(await api.POST('/ucp/v1/catalog/search', { body: { filters: { namespace: machineNamespace, location } } }));

  // 6. The sales ledger: totals, pagination and warnings (stale_data) before the data.
  const sales = must(await api.GET('/ucp/v1/orders', { params: { query: { kind: 'sale', trade_status: 'settled', limit: 20 } } }));
  const salesTotalFen = sales.orders.reduce((sum, o) => sum + (o.totals.find((t) => t.type === 'total')?.amount ?? 0), 0);
  for (const m of sales.messages) if (m.severity === 'warning') console.warn(`sales: ${m.code} ${m.content}`);

  // 7. The replenishment plan.
  const plan = must(await api.GET('/ucp/v1/replenishment/plan', { params: { query: { location } } }));

  // 8. Checkout create, then 9. complete with confirm: true (money moves: a person or a policy decided).
  const session = must(
    await api.POST('/ucp/v1/checkout-sessions', {
      params: { header: { 'Idempotency-Key': `example-${Date.now()}` } },
      body: {
        line_items: [{ item: { id: good.id }, quantity: 1 }],
        fulfillment: { methods: [{ type: 'shipping', destinations: [{ street_address: '1 Example Road', first_name: 'Li', phone_number: '13800000000' }] }] },
      },
    }),
  );
  let sessionStatus: string = session.status;
  let purchaseOrderId: string | null = null;
  if (session.status === 'ready_for_complete' && blocking(session.messages).length === 0) {
    const done = await api.POST('/ucp/v1/checkout-sessions/{id}/complete', { params: { path: { id: session.id } }, body: { confirm: true } });
    if (done.data) {
      sessionStatus = done.data.status;
      purchaseOrderId = done.data.order?.id ?? null;
    } else {
      // kill_switch_engaged, approval_required, supplier_rejected...: report, never loop.
      sessionStatus = `refused: ${done.error?.messages.map((m) => m.code).join(', ')}`;
    }
  }

  // 10. A price update (confirm: true); a move over the cap comes back in `actions` as an approval, not an error.
  const item = shelf.products[0].variants[0];
  const prices = must(
    await api.PUT('/ucp/v1/locations/{id}/prices', {
      params: { path: { id: location } },
      body: { prices: [{ item: { id: item.id }, price: { amount: item.price.amount + 10, currency: 'CNY' } }], confirm: true },
    }),
  );

  // 11. Approvals waiting for an owner, and 12. an owner's decision relayed from the dashboard.
  const approvals = must(await api.GET('/ucp/v1/approvals', { params: { query: { status: 'pending' } } }));
  const parked = prices.actions[0];
  if (parked) {
    const resolved = must(await api.POST('/ucp/v1/approvals/{id}', { params: { path: { id: parked.approval_id } }, body: { approved: false, resolver: { channel: 'dashboard' } } }));
    console.log(`approval ${resolved.approval.id}: ${resolved.approval.status}`);
  }

  // 13. The event log, newest first (live: the socket at events.config.websocket_url).
  const log = must(await api.GET('/ucp/v1/events', { params: { query: { limit: 10 } } }));
  console.log(`${sync.slots} slots synced; events also on ${String(events?.config?.websocket_url ?? 'the socket')}`);

  return {
    supplyNamespace,
    location,
    salesTotalFen,
    moreSales: sales.pagination.has_next_page,
    planSlotsToOrder: plan.totals.slots_to_order,
    sessionStatus,
    purchaseOrderId,
    pricesChanged: prices.updated.length,
    pendingApprovals: approvals.approvals.length,
    lastEventKinds: log.events.map((e) => e.kind),
  };
}

if (require.main === module) {
  const url = process.env.VENDING_URL ?? 'http://localhost:8080';
  runExample(createVendingClient(url, process.env.VENDING_TOKEN ?? ''))
    .then((report) => console.log(JSON.stringify(report, null, 2)))
    .catch((err: unknown) => {
      console.error(err instanceof Error ? err.message : err);
      process.exit(1);
    });
}
