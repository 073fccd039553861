import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { chromium, type Browser, type Frame, type Page } from 'playwright-core';

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

export async function screenshot(page: Page, name: string): Promise<void> {
  mkdirSync(SCREENSHOTS, { recursive: true });
  await page.screenshot({ path: join(SCREENSHOTS, `${name}.png`), fullPage: name !== 'map-popup' });
}

interface AxeViolation {
  id: string;
  impact: string | null;
  help: string;
  nodes: { target: string[] }[];
}

/** Runs axe-core in the page (or frame) and returns its serious and critical violations. */
export async function seriousViolations(target: Page | Frame): Promise<string[]> {
  await target.addScriptTag({ path: require.resolve('axe-core/axe.min.js') });
  const violations = await target.evaluate(async () => {
    const axe = (globalThis as unknown as { axe: { run: (context: unknown, options: unknown) => Promise<{ violations: AxeViolation[] }> } }).axe;
    return (await axe.run('html', { resultTypes: ['violations'] })).violations;
  });
  return violations.filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => `${v.id} (${v.impact}): ${v.help} at ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
}
