/**
 * Issue 37, item 1: the console's approvals show everything they approve, on a desktop and on a 390 px phone. A run's
 * approval names its machines, goods and units and links to the run; a purchase's names its lines and destination;
 * the confirm step repeats the same before anything is decided. Screenshots: test-output/screenshots/37-*.png.
 */
import type { Browser } from 'playwright-core';
import { GUARDS } from '../support/money-fixtures';
import { TEST_TOKEN } from '../support/test-app';
import { expectAccessible, Kind, launchBrowser, screenshot, SignedInPage, signedInPages } from './browser-support';
import { ConsoleWorld, startConsoleWorld } from './console-seed';

jest.setTimeout(120_000);

describe('approvals show what they approve (desktop and phone)', () => {
  let w: ConsoleWorld;
  let browser: Browser;
  let pages: Record<Kind, SignedInPage>;
  let runId = '';

  beforeAll(async () => {
    [w, browser] = await Promise.all([startConsoleWorld(), launchBrowser()]);
    // Over a per-order budget of ¥10.00: the run and the purchase each wait for an owner.
    await w.t.put('/ucp/v1/admin/guards', { ...GUARDS, budget: { ...GUARDS.budget, perOrderFen: 1000 } }).expect(200);
    const run = await w.t.post('/ucp/v1/replenishment/runs?fulfiller=supply_checkout').expect(201);
    expect(run.body.status).toBe('awaiting_approval');
    runId = run.body.id;
    await w.t
      .post('/ucp/v1/checkout-sessions', {
        id: 'PO-lobby-stock',
        line_items: [{ item: { id: 'acme-supply:COLA' }, quantity: 30, quantity_unit: { unit: 'BX' } }],
        fulfillment: { methods: [{ type: 'pickup', destinations: [{ street_address: '1 Road', first_name: 'Li', phone_number: '13800000000' }] }] },
      })
      .expect(201);
    pages = await signedInPages(browser, w.t.url, TEST_TOKEN);
  }, 180_000);
  afterAll(async () => {
    await browser?.close();
    await w?.close();
  });
  afterEach(() => {
    for (const p of Object.values(pages ?? {})) expect(p.errors.splice(0)).toEqual([]);
  });

  it.each(['desktop', 'phone'] as const)('%s: each approval names its machines, goods, units and destination, and its confirm step repeats them', async (kind) => {
    const { page } = pages[kind];
    await page.goto(`${w.t.url}/console/#/approvals`);
    const run = page.getByRole('article').filter({ hasText: 'Replenishment run over budget' });
    const purchase = page.getByRole('article').filter({ hasText: 'Purchase order over budget' });
    await run.waitFor();
    // The run: machines by name, goods, units, money as ¥, a link to the run (the id only inside the link).
    await run.getByText(/A run orders \d+ units of 2 goods for 2 machines, about ¥[\d,]+\.\d\d/).first().waitFor();
    await run.getByRole('listitem').filter({ hasText: /^Lobby: \d+ units of Green tea 500ml/ }).waitFor();
    await run.getByRole('listitem').filter({ hasText: /^Gym: \d+ units of Cola 330ml/ }).waitFor();
    expect(await run.getByRole('link', { name: 'Open the run' }).getAttribute('href')).toBe(`#/replenishment/${runId}`);
    expect(await run.textContent()).not.toContain(runId);
    // The purchase: its line and where it goes, in words.
    await purchase.getByRole('listitem').filter({ hasText: '30 boxes of Cola 330ml x24 at ¥48.00 = ¥1,440.00' }).waitFor();
    await purchase.getByText('Goes: picked up at 1 Road, for Li (phone 13800000000).').waitFor();
    await expectAccessible(page, `approvals-37-${kind}`);
    await screenshot(page, `37-approvals-${kind}`);

    // The confirm step shows the same lines before anything is decided; cancelling changes nothing.
    await run.getByRole('button', { name: 'Approve…' }).click();
    const confirm = run.getByRole('group', { name: 'Confirm: Approve…' });
    await confirm.getByRole('listitem').filter({ hasText: /^Lobby: \d+ units of Green tea 500ml/ }).waitFor();
    await confirm.getByText(/Approve\? A run orders \d+ units of 2 goods for 2 machines/).waitFor();
    await confirm.getByRole('link', { name: 'Open the run' }).waitFor();
    await confirm.scrollIntoViewIfNeeded();
    await screenshot(page, `37-approvals-confirm-${kind}`);
    await confirm.getByRole('button', { name: 'Cancel' }).click();
    await purchase.getByRole('button', { name: 'Approve…' }).click();
    const pConfirm = purchase.getByRole('group', { name: 'Confirm: Approve…' });
    await pConfirm.getByText(/Goes: picked up at 1 Road, for Li/).waitFor();
    await pConfirm.getByRole('button', { name: 'Cancel' }).click();
    expect((await w.t.get('/ucp/v1/approvals?status=pending').expect(200)).body.approvals).toHaveLength(2);
  });

  it('the link opens the run it approves', async () => {
    const { page } = pages.phone;
    await page.goto(`${w.t.url}/console/#/approvals`);
    await page.getByRole('link', { name: 'Open the run' }).first().click();
    await page.getByRole('region', { name: `Run ${runId}` }).waitFor();
    await screenshot(page, '37-approval-run-link-phone');
  });
});
