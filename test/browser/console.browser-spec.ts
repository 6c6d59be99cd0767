/**
 * Issue 19: the operator console in a real browser (headless chromium) against the service on a seeded PostgreSQL
 * database with HTTP fake partners. Each screen shows the seeded data and passes axe-core; the money path (a run
 * placed through its confirm step) reaches each fake supplier exactly once.
 */
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { DataSource } from 'typeorm';
import { ordersPosted } from '../support/money-fixtures';
import { TEST_TOKEN } from '../support/test-app';
import { collectPageErrors, expectAccessible, launchBrowser, screenshot } from './browser-support';
import { ConsoleWorld, startConsoleWorld } from './console-seed';

jest.setTimeout(90_000);

describe('operator console in a browser', () => {
  let w: ConsoleWorld;
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;
  let pageErrors: string[];
  const open = async (hash: string) => {
    await page.goto(`${w.t.url}/console/${hash}`);
  };
  let failures = 0;
  /** Waits for a text; on a timeout the page is photographed (failure-N.png) so the reason can be seen. */
  const text = async (s: string | RegExp) => {
    try {
      await page.getByText(s).first().waitFor({ timeout: 20_000 });
    } catch (e) {
      await screenshot(page, `failure-${++failures}`);
      throw e;
    }
  };

  beforeAll(async () => {
    [w, browser] = await Promise.all([startConsoleWorld(), launchBrowser()]);
    context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    page = await context.newPage();
    page.setDefaultTimeout(20_000);
    pageErrors = collectPageErrors(page);
  }, 120_000);
  afterAll(async () => {
    await browser?.close();
    await w?.close();
  });
  afterEach(() => expect(pageErrors.splice(0)).toEqual([]));

  it('signs in with the operator token into an HttpOnly cookie the page cannot read', async () => {
    await open('');
    await page.getByLabel('Operator token').waitFor();
    await expectAccessible(page, 'sign-in');
    await screenshot(page, '00-sign-in');
    await page.getByLabel('Operator token').fill('wrong-token');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await text('missing or wrong operator token');
    await page.getByLabel('Operator token').fill(TEST_TOKEN);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('heading', { name: 'Fleet' }).waitFor();
    expect(await page.evaluate(() => document.cookie)).toBe('');
    expect(await page.evaluate(() => JSON.stringify({ ...localStorage }) + JSON.stringify({ ...sessionStorage }))).toBe('{}{}');
    expect(page.url()).not.toContain(TEST_TOKEN);
    const cookies = await context.cookies();
    expect(cookies.find((c) => c.name === 'vending_auth')).toMatchObject({ httpOnly: true, sameSite: 'Strict' });
  });

  it('Fleet lists every machine with fill, sold-out slots, sales and freshness, sorts, and syncs with its counts', async () => {
    await open('#/fleet');
    await text('Lobby');
    await text('Gym');
    const rows = page.locator('tbody tr');
    expect(await rows.count()).toBe(2);
    await text('¥7.00'); // FLEET-1 settled today: SALE-1 (the refund does not count)
    const gym = page.locator('tbody tr', { hasText: 'Gym' });
    expect(await gym.innerText()).toMatch(/20%[\s\S]*1 \/ 2/); // stock 4 + 0 of capacity 20; the peanuts sold out
    await expect(page.locator('.fresh.fresh').count()).resolves.toBe(2); // synced seconds ago: green
    await page.getByRole('button', { name: /Sales 7 days/ }).click(); // money sorts largest first
    expect(await rows.first().locator('th').innerText()).toContain('Lobby'); // ¥17.50 before ¥3.50
    await page.getByRole('button', { name: /Sales 7 days/ }).click();
    expect(await rows.first().locator('th').innerText()).toContain('Gym');
    await page.getByRole('button', { name: 'Sync now' }).click();
    await text(/Sync done: 2 machines, \d+ products, 4 slots/);
    await expectAccessible(page, 'fleet');
    await screenshot(page, '01-fleet');
    await page.setViewportSize({ width: 768, height: 1024 });
    await screenshot(page, '01-fleet-tablet');
    await page.setViewportSize({ width: 1280, height: 800 });
  });

  it('Machine shows its slots, reads the shelves live, lists its sales, and an over-cap price shows its approval', async () => {
    await open('#/fleet');
    await page.getByRole('link', { name: 'Lobby' }).click();
    await page.getByRole('heading', { name: /Lobby/ }).waitFor();
    await text('Green tea 500ml');
    await page.getByRole('button', { name: 'Read the shelves now' }).click();
    await text(/Read live at/);
    await text('SALE-1');
    await page.getByLabel('Good').selectOption({ label: 'Cola 330ml (¥3.50)' });
    await page.getByLabel('New price (yuan)').fill('9.00');
    await page.getByRole('button', { name: 'Change price…' }).click();
    await text(/¥3.50 → ¥9.00 on the machine now/);
    await page.getByRole('button', { name: 'Yes, change the price on the machine' }).click();
    await text(/Over the cap: approval .* was created/);
    expect(w.fleet.acme.requestsTo('POST /prices')).toHaveLength(0); // nothing changes until an owner approves
    await expectAccessible(page, 'machine');
    await screenshot(page, '02-machine');
  });

  it('Sales shows the ledger with refunds and cancellations as such, filters, pages and charts settled sales', async () => {
    await open('#/sales');
    await text('REFUND-1');
    await text('CANCEL-1');
    await page.locator('.status.refunded').first().waitFor();
    await page.locator('.status.cancelled').first().waitFor();
    await page.getByLabel('Status').selectOption('settled');
    await page.locator('text=REFUND-1').waitFor({ state: 'detached' });
    await text('SALE-2');
    await page.getByLabel('Machine id').fill('FLEET-2');
    await page.getByLabel('Machine id').press('Tab');
    await text('SALE-3');
    await page.locator('text=SALE-2').waitFor({ state: 'detached' });
    await page.locator('.plot canvas').first().waitFor();
    await expectAccessible(page, 'sales');
    await screenshot(page, '03-sales');
  });

  it('Approvals lists the pending price change with what it would do, and approving it changes the price once', async () => {
    await open('#/approvals');
    await text(/Approving would:/);
    await text(/Change the price of acme-machine:COLA on machine FLEET-1 from ¥3.50 to ¥9.00/);
    await expectAccessible(page, 'approvals');
    await screenshot(page, '04-approvals');
    // The owner credential goes as the bearer of that one call: a wrong one is refused there, the session stays.
    const authHeaders: (string | undefined)[] = [];
    page.on('request', (r) => r.url().includes('/ucp/v1/approvals/') && r.method() === 'POST' && authHeaders.push(r.headers()['authorization']));
    await page.getByLabel(/Owner credential/).fill('not-the-owner-token');
    await page.getByRole('button', { name: 'Approve' }).first().click();
    await page.getByRole('alert').filter({ hasText: 'Not resolved' }).getByText('unauthorized').waitFor();
    expect(authHeaders).toEqual(['Bearer not-the-owner-token']);
    await page.getByRole('heading', { name: 'Approvals' }).waitFor(); // still signed in
    await page.getByLabel(/Owner credential/).fill(TEST_TOKEN); // one token is full access without an owner credential
    await page.getByRole('button', { name: 'Approve' }).first().click();
    await text('Nothing waits for an owner.');
    expect(authHeaders).toEqual(['Bearer not-the-owner-token', `Bearer ${TEST_TOKEN}`]);
    expect(await page.getByLabel(/Owner credential/).inputValue()).toBe(''); // cleared, never kept
    await page.locator('.status.approved').first().waitFor();
    expect(w.fleet.acme.requestsTo('POST /prices')).toHaveLength(1);
  });

  it('Replenishment: plan with provenance, a run created and placed through its confirm step reaches each supplier once', async () => {
    await open('#/replenishment');
    await page.getByLabel('Who fills the run').selectOption('supply_checkout');
    await text(/lowest each price|default supplier/);
    await text(/not measured \(fallback rate\)/);
    await page.getByRole('button', { name: 'Create a run from the plan' }).click();
    const detail = page.getByRole('region', { name: /^Run / });
    await detail.getByText('ready').first().waitFor();
    const runId = (await detail.getAttribute('aria-label'))!.replace(/^Run /, '');
    await detail.getByRole('button', { name: 'Place this run…' }).click();
    await detail.getByText(/Money moves/).waitFor();
    await expectAccessible(page, 'replenishment');
    await screenshot(page, '05-replenishment-confirm');
    expect(w.fleet.acme.requestsTo('POST /orders')).toHaveLength(0); // nothing before the confirm step
    // By keyboard: the confirmation takes the focus, Enter confirms.
    expect(await page.evaluate(() => document.activeElement?.textContent)).toBe('Yes, place the order (money moves)');
    await page.keyboard.press('Enter');
    await detail.getByText('placed', { exact: true }).waitFor();
    await detail.getByRole('list', { name: 'Orders of this run' }).getByText('completed').first().waitFor();
    expect(ordersPosted(w.fleet.acme, `${runId}.acme-supply`)).toBe(1);
    expect(ordersPosted(w.fleet.beta, `${runId}.beta-supply`)).toBe(1);
    expect(w.fleet.acme.requestsTo('POST /orders')).toHaveLength(1);
    expect(w.fleet.beta.requestsTo('POST /orders')).toHaveLength(1);
    await detail.getByRole('button', { name: 'Record the delivery' }).click();
    await detail.getByText('delivered', { exact: true }).waitFor();
    await screenshot(page, '05-replenishment');
  });

  it('Depot: a stock count with its reason, then the plan\'s units are filled from the depot through a confirm step', async () => {
    // The slot sold out, so the plan wants units the depot will hold.
    await w.t.app.get(DataSource).query(`UPDATE slots SET stock = 0 WHERE id = 'FLEET-1-COLA'`);
    await open('#/depot');
    await page.getByRole('heading', { name: 'Depot', exact: true }).waitFor();
    // The run received above brought more than the slots hold: the rest is in the depot.
    await text(/acme-machine:COLA/);
    const count = page.getByRole('form', { name: 'Stock count' });
    await count.getByLabel(/^Cola 330ml \(now \d+\)$/).fill('10');
    await count.getByLabel('Why (recorded with the count)').fill('van count');
    await count.getByRole('button', { name: 'Record the count…' }).click();
    await count.getByRole('button', { name: "Yes, replace the depot's quantities" }).click();
    await count.getByLabel('Cola 330ml (now 10)').waitFor();
    const fills = page.getByRole('list', { name: 'Slots the plan fills from the depot' });
    await fills.getByText(/FLEET-1-COLA/).waitFor();
    await expectAccessible(page, 'depot');
    await screenshot(page, '05b-depot');
    await page.getByRole('button', { name: 'Fill these slots from the depot…' }).click();
    await page.getByRole('button', { name: 'Yes, the units were put in the machines' }).click();
    await text('The plan takes nothing from the depot now.');
    expect((await w.t.app.get(DataSource).query(`SELECT stock FROM slots WHERE id = 'FLEET-1-COLA'`))[0].stock).toBe(10);
    expect(await page.getByText('acme-machine:COLA').count()).toBe(0); // all 10 went into the slot
  });

  it('Purchase orders list the supplier status and open a checkout session', async () => {
    await open('#/purchases');
    await text(/\.acme-supply/);
    await text(/\.beta-supply/);
    await expectAccessible(page, 'purchases');
    await page.getByRole('link', { name: /\.acme-supply/ }).click();
    await page.getByRole('region', { name: /Checkout session/ }).getByText('completed').first().waitFor();
    await expectAccessible(page, 'purchase-session');
    await screenshot(page, '06-purchases');
  });

  it('Guards: stopping all spending shows on every screen until it is released', async () => {
    await open('#/guards');
    await text(/Budget per order/);
    await expectAccessible(page, 'guards');
    await screenshot(page, '07-guards');
    await page.getByLabel('Reason').fill('browser test stop');
    await page.getByRole('button', { name: 'Stop all spending' }).click();
    await page.getByRole('alert').filter({ hasText: 'Kill switch engaged' }).waitFor();
    expect((await w.t.get('/ucp/v1/admin/guards').expect(200)).body.kill_switch.engaged).toBe(true);
    for (const screen of ['#/fleet', '#/sales', '#/approvals']) {
      await open(screen);
      await page.getByRole('alert').filter({ hasText: 'Kill switch engaged' }).waitFor();
    }
    await open('#/guards');
    await expectAccessible(page, 'guards-engaged');
    await screenshot(page, '07-guards-engaged');
    await page.getByRole('button', { name: 'Release the kill switch…' }).click();
    await page.getByRole('button', { name: 'Yes, allow spending again' }).click();
    await text(/released \(spending allowed/);
    await page.getByRole('alert').filter({ hasText: 'Kill switch engaged' }).waitFor({ state: 'detached' });
    expect((await w.t.get('/ucp/v1/admin/guards').expect(200)).body.kill_switch.engaged).toBe(false);
  });

  it('Live events: the log newest first, and a posted event appears without a reload', async () => {
    await open('#/events');
    await text('connected, new events appear at the top');
    await text('kill_switch');
    await w.t.post('/ucp/v1/events', { kind: 'note.browser_test', summary: 'posted while the page was open', reasoning: 'issue 19' }).expect(201);
    await text('posted while the page was open');
    expect(await page.locator('.events li').first().innerText()).toContain('note.browser_test');
    await expectAccessible(page, 'events');
    await screenshot(page, '08-events');
  });

  it('a partner failure shows its message instead of an empty table', async () => {
    w.fleet.acme.fault('GET /inventory', { status: 500, body: { ok: false, reason: 'platform down for maintenance' } });
    try {
      await open('#/machine/FLEET-2');
      await text('Salted peanuts 80g');
      await page.getByRole('button', { name: 'Read the shelves now' }).click();
      const alert = page.getByRole('alert').filter({ hasText: 'The machine could not be read' });
      await alert.waitFor();
      expect(await alert.innerText()).toMatch(/upstream/);
      expect(await page.getByText(/Read live at/).count()).toBe(0);
      await screenshot(page, '09-partner-failure');
    } finally {
      w.fleet.acme.clearFaults();
    }
  });

  it('signs out: the cookie is cleared and the API refuses the page', async () => {
    await open('#/fleet');
    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.getByLabel('Operator token').waitFor();
    expect((await context.cookies()).find((c) => c.name === 'vending_auth')).toBeUndefined();
    const status = await page.evaluate(async () => (await fetch('/ucp/v1/fleet')).status);
    expect(status).toBe(401);
  });
});
