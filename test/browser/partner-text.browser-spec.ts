/**
 * Issue 37: partner text is shown as text on every console screen. The machine platform's product titles and the
 * suppliers' catalog titles carry markup (`<script>`, `<img onerror>`, `<svg onload>`), as a partner may send; the
 * service stores them as given. On a desktop and a phone, every screen that shows them shows the characters
 * literally, no element of the markup exists in the page, no script of it runs, and a long title wraps instead of
 * pushing the page sideways.
 */
import type { Browser, Page } from 'playwright-core';
import { DataSource } from 'typeorm';
import { buildConsole } from '../support/console-build';
import { Fleet, startFleetApp, startFleetPartners } from '../support/fleet';
import { setGuards } from '../support/replenishment-demand';
import type { TestApp } from '../support/test-app';
import { Kind, launchBrowser, screenshot, SignedInPage, signedInPages } from './browser-support';

jest.setTimeout(180_000);

/** Each payload sets `window.__xss` if it ever runs; the visible words after it are what a person reads. */
const MACHINE_SCRIPT = `<script>window.__xss='machine-script'</script>Cola 330ml`;
const MACHINE_IMG = `<img src=x onerror="window.__xss='machine-img'">Green tea 500ml`;
const MACHINE_SVG = `<svg onload="window.__xss='machine-svg'"></svg>Salted peanuts 80g`;
const SUPPLY_IMG = `<img src=x onerror="window.__xss='supply-img'">Cola 330ml x24`;
const SUPPLY_SCRIPT = `<script>window.__xss='supply-script'</script>Green tea 500ml x6`;

type Json = Record<string, any>;

describe('partner text is shown as text on every console screen', () => {
  let fleet: Fleet;
  let t: TestApp;
  let browser: Browser;
  let pages: Record<Kind, SignedInPage>;
  let sessionId: string;
  let waitingRunId: string;
  const dialogs: string[] = [];

  beforeAll(async () => {
    const consoleDir = buildConsole();
    fleet = await startFleetPartners();
    const inv = fleet.acme.state.inventory as Record<string, { vendorSku: string; title: string; capacity?: number; stock: number }[]>;
    for (const slots of Object.values(inv)) {
      for (const s of slots) {
        s.capacity = 10;
        s.title = s.vendorSku === 'COLA' ? MACHINE_SCRIPT : s.vendorSku === 'TEA' ? MACHINE_IMG : MACHINE_SVG;
      }
    }
    (fleet.acme.state.catalog as { vendorSku: string; title: string }[]).find((c) => c.vendorSku === 'COLA')!.title = SUPPLY_IMG;
    (fleet.beta.state.catalog as { vendorSku: string; title: string }[]).find((c) => c.vendorSku === 'BT-9')!.title = SUPPLY_SCRIPT;
    const now = Date.now();
    fleet.acme.state.ledger = [
      {
        orderNo: 'SALE-X1', locationId: 'FLEET-1', totalFen: 700, createdAt: now - 3_600_000, takenAt: now - 3_600_000, settledAt: now - 3_599_000, updatedAt: now - 3_599_000,
        finalized: true, state: 'settled', lines: [{ vendorSku: 'COLA', title: MACHINE_SCRIPT, quantity: 2, priceFen: 350, status: 'paid', costFen: 200 }],
      },
    ];
    // The machine platform also takes price changes (an over-cap change waits for an owner on Approvals).
    const vendors = (JSON.parse(fleet.env.SERVICE_HTTP_VENDORS) as { namespace: string; capabilities: string[] }[]).map((v) =>
      v.namespace === 'acme-machine' ? { ...v, capabilities: [...v.capabilities, 'pricing'] } : v,
    );
    t = await startFleetApp(fleet, { SERVICE_CONSOLE_DIR: consoleDir, SERVICE_PARTNER_TIMEOUT_MS: '3000', SERVICE_HTTP_VENDORS: JSON.stringify(vendors) });
    // The stored titles keep the markup as the partners sent it (the console must render it as text).
    const cola = (await t.get('/ucp/v1/locations/FLEET-1/inventory').expect(200)).body.items.find((i: Json) => i.vendor_sku === 'COLA');
    expect(cola.title).toBe(MACHINE_SCRIPT);

    // A placed supply-checkout run (purchase orders with the suppliers' titles), a depot count, an approval.
    const run = (await t.post('/ucp/v1/replenishment/runs?fulfiller=supply_checkout').expect(201)).body as Json;
    await t.post(`/ucp/v1/replenishment/runs/${run.id}/place`, { confirm: true }).set('Idempotency-Key', `place-${run.id}`).expect(200);
    sessionId = `${run.id}.acme-supply`;
    await t.post('/ucp/v1/depot/counts', { counts: [{ item: { id: 'acme-machine:COLA' }, quantity: 5 }], reason: 'van count', confirm: true }).expect(200);
    const priced = await t.put('/ucp/v1/locations/FLEET-1/prices', { confirm: true, prices: [{ item: { id: 'acme-machine:COLA' }, price: { amount: 900, currency: 'CNY' } }] }).expect(200);
    expect(JSON.stringify(priced.body)).toContain('approval');
    // A run over the budget waits for an owner: its approval names the machines' goods (issue 37, item 1).
    await t.post(`/ucp/v1/replenishment/runs/${run.id}/close`, { reason: 'the browser test orders again', confirm: true }).expect(200);
    await setGuards(t, 100);
    const waiting = (await t.post('/ucp/v1/replenishment/runs?fulfiller=supply_checkout').expect(201)).body as Json;
    expect(waiting.status).toBe('awaiting_approval');
    waitingRunId = waiting.id as string;

    browser = await launchBrowser();
    pages = await signedInPages(browser, t.url, t.token);
    for (const p of Object.values(pages)) p.page.on('dialog', (d) => void (dialogs.push(d.message()), d.dismiss()));
  }, 240_000);
  afterAll(async () => {
    await browser?.close();
    await t?.close();
    await fleet?.close();
  });

  /** No payload ran, no element of one exists, and the page logged no error. */
  async function expectInert(p: SignedInPage, where: string): Promise<void> {
    const found = await p.page.evaluate(() => ({
      ran: (window as unknown as { __xss?: string }).__xss ?? null,
      imgs: document.querySelectorAll('img[src="x"], img[onerror]').length,
      svgs: document.querySelectorAll('svg[onload]').length,
      scripts: [...document.scripts].filter((s) => s.textContent?.includes('__xss')).length,
      bold: document.querySelectorAll('main script').length,
    }));
    expect({ where, ...found }).toEqual({ where, ran: null, imgs: 0, svgs: 0, scripts: 0, bold: 0 });
    expect(dialogs).toEqual([]);
    expect(p.errors.splice(0)).toEqual([]);
  }

  /** The literal characters of a payload are on the page as text. */
  async function shows(page: Page, literal: string): Promise<void> {
    await page.getByText(literal, { exact: false }).filter({ visible: true }).first().waitFor({ timeout: 20_000 });
  }

  const SCREENS: { name: string; hash: string; heading: RegExp; literals: string[]; open?: (page: Page) => Promise<void> }[] = [
    { name: 'today', hash: '#/', heading: /^Today/, literals: [MACHINE_SVG] },
    { name: 'fleet', hash: '#/fleet', heading: /^Fleet/, literals: [] },
    { name: 'machine', hash: '#/machine/FLEET-1', heading: /Lobby/, literals: [MACHINE_SCRIPT, MACHINE_IMG] },
    { name: 'machine-2', hash: '#/machine/FLEET-2', heading: /Gym/, literals: [MACHINE_SVG] },
    { name: 'sales', hash: '#/sales', heading: /^Sales/, literals: [MACHINE_SCRIPT] },
    { name: 'replenishment', hash: '#/replenishment', heading: /^Replenishment/, literals: [MACHINE_SCRIPT, MACHINE_IMG] },
    { name: 'run', hash: '', heading: /^Replenishment/, literals: [MACHINE_SCRIPT, MACHINE_IMG] },
    { name: 'depot', hash: '#/depot', heading: /^Depot$/, literals: [MACHINE_SCRIPT] },
    { name: 'purchases', hash: '#/purchases', heading: /^Purchase/, literals: [] },
    { name: 'purchase-session', hash: '', heading: /^Purchase/, literals: [SUPPLY_IMG] },
    { name: 'approvals', hash: '#/approvals', heading: /^Approvals/, literals: [MACHINE_SCRIPT, MACHINE_IMG] },
    // The run approval's confirm step repeats its lines, titles included.
    { name: 'approval-confirm', hash: '#/approvals', heading: /^Approvals/, literals: [MACHINE_IMG], open: (page) => page.getByRole('button', { name: 'Approve…' }).first().click() },
    { name: 'events', hash: '#/events', heading: /^Events|Live events/, literals: [] },
    { name: 'guards', hash: '#/guards', heading: /^Guards/, literals: [] },
  ];

  describe.each(['desktop', 'phone'] as const)('%s', (kind) => {
    it.each(SCREENS.map((s) => [s.name, s] as const))('%s shows partner titles literally and runs none of them', async (_name, s) => {
      const p = pages[kind];
      const hash = s.name === 'purchase-session' ? `#/purchases/${encodeURIComponent(sessionId)}` : s.name === 'run' ? `#/replenishment/${encodeURIComponent(waitingRunId)}` : s.hash;
      await p.page.goto(`${t.url}/console/${hash}`);
      await p.page.getByRole('heading', { level: 1, name: s.heading }).first().waitFor();
      if (s.open) {
        await shows(p.page, s.literals[0]);
        await s.open(p.page);
      }
      for (const literal of s.literals) await shows(p.page, literal);
      await screenshot(p.page, `partner-text-${kind}-${s.name}`);
      await expectInert(p, `${kind} ${s.name}`);
      // A long partner title wraps: it never pushes the page sideways (a phone would scroll the whole screen).
      const sideways = await p.page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
      expect({ screen: `${kind} ${s.name}`, sideways }).toEqual({ screen: `${kind} ${s.name}`, sideways: 0 });
    });
  });

  it('the Depot screen pages through more goods than one page holds (GET /depot pages)', async () => {
    const ds = t.app.get(DataSource);
    const ids: string[] = [];
    for (let i = 0; i < 105; i++) {
      const sku = `PG${String(i).padStart(3, '0')}`;
      await ds.query(
        `INSERT INTO slots (id, location_id, namespace, vendor_sku, sku_id, title, price_fen, stock, capacity) VALUES ($1, 'FLEET-1', 'acme-machine', $2, $3, $4, 300, 0, 10)`,
        [`FLEET-1-${sku}`, sku, `acme-machine:${sku}`, `Paged good ${sku}`],
      );
      ids.push(`acme-machine:${sku}`);
    }
    await t.post('/ucp/v1/depot/counts', { counts: ids.map((id) => ({ item: { id }, quantity: 1 })), reason: 'new van', confirm: true }).expect(200);
    const p = pages.phone;
    await p.page.goto(`${t.url}/console/#/depot`);
    const more = p.page.getByRole('button', { name: 'Show more goods (100 of 106 shown)' });
    await more.waitFor();
    // The table lists the first page (the plan's fill list below names every slot it fills, whatever the page).
    const row = (sku: string) => p.page.getByRole('rowheader', { name: new RegExp(`Paged good ${sku}`) });
    await row('PG098').waitFor();
    expect(await row('PG104').count()).toBe(0);
    await more.click();
    await row('PG104').waitFor();
    expect(await p.page.getByRole('button', { name: /Show more goods/ }).count()).toBe(0);
    await screenshot(p.page, 'partner-text-phone-depot-paged');
    await expectInert(p, 'phone depot paged');
  });

  it('the supplier titles also show literally on the other supplier\'s purchase order', async () => {
    const p = pages.desktop;
    await p.page.goto(`${t.url}/console/#/purchases/${encodeURIComponent(sessionId.replace(/acme-supply$/, 'beta-supply'))}`);
    await shows(p.page, SUPPLY_SCRIPT);
    await expectInert(p, 'desktop purchase-session beta');
  });
});
