/**
 * Connecting an account from the console's Accounts page in real Chromium with every
 * protection on (the pages' CSP in force, no bypass): the console, auth's start link, the
 * simulator's consent page (form-action 'self'), auth's callback and back to the Accounts page,
 * once with OAuth 1.0a and once with OAuth 2.0.
 */
import type { Page } from 'playwright-core';
import { launchBrowser, signInWithToken, type TestBrowser } from './testing/browser';
import { CRM_TOKEN, startConsoleStack, type ConsoleStack } from './testing/stack';

let stack: ConsoleStack;
let browser: TestBrowser;
let page: Page;
const blocked: string[] = [];

beforeAll(async () => {
  stack = await startConsoleStack();
  browser = await launchBrowser();
  page = await (await browser.browser.newContext({ viewport: { width: 1280, height: 900 } })).newPage();
  // A form or redirect the CSP stops shows only as a console message: collected to be reported.
  page.on('console', (message) => {
    if (/Content Security Policy/.test(message.text())) blocked.push(message.text());
  });
  await page.goto(`${stack.console.url}/signin`);
  await signInWithToken(page, CRM_TOKEN);
  await page.getByRole('heading', { name: 'Inbox' }).waitFor();
}, 180_000);

afterAll(async () => {
  await browser?.close();
  await stack?.stop();
});

describe('connecting an account through the platform pages, with every browser protection on', () => {
  it.each([
    ['OAuth 1.0a', /\/oauth\/authorize\?oauth_token=/, '@connect_one'],
    ['OAuth 2.0', /\/i\/oauth2\/authorize\?/, '@connect_two'],
  ])('connects with %s and lists the account as Connected', async (protocol, consentPage, user) => {
    await page.goto(`${stack.console.url}/accounts`);
    await page.getByRole('button', { name: `Connect with ${protocol}` }).click();
    await page.waitForURL(consentPage);
    const policy = (await page.request.head(page.url())).headers()['content-security-policy'];
    expect(policy).toMatch(/form-action 'self'(;|$)/);
    await page.locator('input[name="user"]').fill(user);
    await page.getByRole('button', { name: 'Authorize app' }).click();
    await page.waitForURL(/\/accounts\?/);
    const row = page.getByTestId('account-row').filter({ hasText: user });
    await row.getByText('Connected').waitFor();
    await row.getByRole('cell', { name: protocol, exact: true }).waitFor();
    expect(blocked).toEqual([]);
  });
});
