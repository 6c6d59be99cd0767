/**
 * The operator console in a real browser: Debian's chromium (/usr/bin/chromium, installed by .ci/run when missing;
 * nothing is downloaded) driven headless by playwright-core, axe-core for accessibility, screenshots of every screen
 * in test-output/screenshots (gitignored) for a reviewer to look at.
 */
import AxeBuilder from '@axe-core/playwright';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';

export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
export const SCREENSHOTS = join(__dirname, '..', '..', 'test-output', 'screenshots');

export async function launchBrowser(): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM,
    headless: true,
    args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run', '--disable-dev-shm-usage'],
  });
}

export async function screenshot(page: Page, name: string): Promise<void> {
  mkdirSync(SCREENSHOTS, { recursive: true });
  await page.screenshot({ path: join(SCREENSHOTS, `${name}.png`), fullPage: true });
}

/** axe-core on the page as it stands: no serious or critical violation (the rest is reported, not failed). */
export async function expectAccessible(page: Page, screen: string): Promise<void> {
  const result = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'best-practice']).analyze();
  const bad = result.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
  const described = bad.map((v) => `${screen}: ${v.id} (${v.impact}) ${v.help}: ${v.nodes.map((n) => n.target.join(' ')).slice(0, 5).join(', ')}`);
  expect(described).toEqual([]);
}

/** Errors the page itself threw or logged (a console screen must not crash silently). */
export function collectPageErrors(page: Page): string[] {
  const errors: string[] = [];
  page.on('pageerror', (e) => errors.push(e.message));
  page.on('console', (m) => {
    // 401 before sign-in and the deliberate partner failure are expected network answers, not page errors.
    if (m.type() === 'error' && !/status of (401|502|404)/.test(m.text())) errors.push(m.text());
  });
  return errors;
}

/** The two screens every console test looks at: a desktop and a 390 px phone. */
export const VIEWPORTS = { desktop: { width: 1440, height: 900 }, phone: { width: 390, height: 844 } } as const;
export type Kind = keyof typeof VIEWPORTS;
export interface SignedInPage {
  context: BrowserContext;
  page: Page;
  errors: string[];
}

/**
 * One console page per viewport, signed in with `token`, on Today. The browser's zone is London, so +08:00 must come
 * from the console, never from the browser.
 */
export async function signedInPages(browser: Browser, baseUrl: string, token: string): Promise<Record<Kind, SignedInPage>> {
  const out: Partial<Record<Kind, SignedInPage>> = {};
  for (const kind of Object.keys(VIEWPORTS) as Kind[]) {
    const context = await browser.newContext({ viewport: VIEWPORTS[kind], timezoneId: 'Europe/London', isMobile: kind === 'phone', hasTouch: kind === 'phone' });
    const page = await context.newPage();
    page.setDefaultTimeout(20_000);
    const errors = collectPageErrors(page);
    await page.goto(`${baseUrl}/console/`);
    await page.getByLabel('Operator token').fill(token);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('heading', { name: 'Today' }).waitFor();
    out[kind] = { context, page, errors };
  }
  return out as Record<Kind, SignedInPage>;
}
