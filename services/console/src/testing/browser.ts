import { mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { chromium, type Browser, type Frame, type Locator, type Page } from 'playwright-core';

/** Debian's chromium (bootstrap.sh installs it with apt); CHROMIUM_PATH overrides. Nothing downloads a browser. */
export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
export const SCREENSHOTS = join(__dirname, '..', '..', 'screenshots');

export interface TestBrowser {
  browser: Browser;
  close: () => Promise<void>;
}

export async function launchBrowser(): Promise<TestBrowser> {
  // playwright gives every launch a fresh temporary profile (its own --user-data-dir), removed on close.
  const browser = await chromium.launch({
    executablePath: CHROMIUM,
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
  });
  return { browser, close: () => browser.close() };
}

/**
 * Waits until the page's finite animations and transitions have ended (a pop-up's fade-in, a
 * side menu collapsing after a resize); endless ones (a spinner) are not waited for. A function,
 * not a string: the page's CSP (no 'unsafe-eval') refuses a string to evaluate.
 */
async function atRest(target: Page | Frame): Promise<void> {
  await target.waitForFunction(
    () => {
      type Running = { playState: string; effect: { getComputedTiming: () => { endTime?: number | string } } | null };
      const page = globalThis as unknown as { document: { getAnimations: () => Running[] } };
      return page.document.getAnimations().every((animation) => animation.playState !== 'running' || animation.effect?.getComputedTiming().endTime === Infinity);
    },
    undefined,
    { timeout: 5_000 },
  );
}

/** Scrolls every pane back to its top (the conversation's start, the sidebar's first cards) before a photograph. */
export async function scrollPanesToTop(page: Page): Promise<void> {
  await page.evaluate(() => {
    const all = (globalThis as unknown as { document: { querySelectorAll: (selector: string) => Iterable<{ scrollTop: number }> } }).document.querySelectorAll('*');
    for (const element of all) if (element.scrollTop > 0) element.scrollTop = 0;
  });
}

/** Saves a screenshot in screenshots/ once the page is at rest: the whole page, or (wholePage false, e.g. behind a modal) the viewport. */
export async function screenshot(page: Page, name: string, wholePage = true): Promise<void> {
  mkdirSync(SCREENSHOTS, { recursive: true });
  await atRest(page);
  const path = join(SCREENSHOTS, `${name}.png`);
  const viewport = page.viewportSize();
  // The whole page in one viewport (a full-page capture would repeat the fixed header mid-page).
  const height = await page.evaluate(() => (globalThis as unknown as { document: { documentElement: { scrollHeight: number } } }).document.documentElement.scrollHeight);
  if (!wholePage || !viewport || height <= viewport.height) return void (await page.screenshot({ path }));
  await page.setViewportSize({ width: viewport.width, height });
  await page.screenshot({ path });
  await page.setViewportSize(viewport);
}

interface AxeViolation {
  id: string;
  impact: string | null;
  help: string;
  nodes: { target: string[] }[];
}

/**
 * Runs axe-core in the page (or frame) and returns its serious and critical violations. axe is
 * evaluated through the DevTools protocol, as any test script is: the page's CSP (no inline
 * scripts) stays in force, where a <script> tag would need it switched off.
 */
export async function seriousViolations(target: Page | Frame): Promise<string[]> {
  // Colours are judged as the agent sees them at rest: a pop-up fading in blends its text with the page behind for a moment.
  await atRest(target);
  await target.evaluate(readFileSync(require.resolve('axe-core/axe.min.js'), 'utf8'));
  const violations = await target.evaluate(async () => {
    const axe = (globalThis as unknown as { axe: { run: (context: unknown, options: unknown) => Promise<{ violations: AxeViolation[] }> } }).axe;
    return (await axe.run('html', { resultTypes: ['violations'] })).violations;
  });
  return violations.filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => `${v.id} (${v.impact}): ${v.help} at ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
}

/** Signs in as an agent with email and password. `scope` is the page, or the sign-in dialog over a page whose session ended. */
export async function signInWithPassword(scope: Page | Locator, email: string, password: string): Promise<void> {
  await scope.getByLabel('Email').fill(email);
  await scope.getByLabel(/^Password/).fill(password);
  await scope.getByRole('button', { name: 'Sign in' }).click();
}

/** Signs in with an API credential, as development does (behind the sign-in's "Use an API token instead" switch). */
export async function signInWithToken(scope: Page | Locator, token: string): Promise<void> {
  await scope.getByRole('button', { name: 'Use an API token instead' }).click();
  await scope.getByLabel('API credential').fill(token);
  await scope.getByRole('button', { name: 'Sign in' }).click();
}
