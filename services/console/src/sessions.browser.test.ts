/**
 * Sessions in real Chromium against the real services (CSP in force): a session that ends while
 * a ticket is open brings the sign-in over it and, once signed in again, the agent is back on
 * the ticket with their draft; launch links are pages in plain words when they cannot open, and
 * a launch session never reaches the full console.
 */
import type { BrowserContext, Page } from 'playwright-core';
import { waitFor } from '@crm/testing';
import { AccountRepository } from '@crm/ticketing/src/adapters/db/accounts';
import { launchBrowser, screenshot, seriousViolations, signInWithToken, type TestBrowser } from './testing/browser';
import { CRM_TOKEN, startConsoleStack, type ConsoleStack } from './testing/stack';

const ACCOUNT = '3003';
let stack: ConsoleStack;
let browser: TestBrowser;
let ticketId = '';

beforeAll(async () => {
  stack = await startConsoleStack();
  await new AccountRepository(stack.ticketingService.pool).recordChange({ accountId: ACCOUNT, status: 'connected', at: new Date() });
  expect((await stack.ticketing.put(`/v1/partner-configs/${ACCOUNT}`, {})).status).toBe(201);
  const sent = await stack.social.post('/control/direct-messages', { from: { id: '600001', screenName: 'sam', name: 'Sam Customer' }, to: ACCOUNT, text: 'where is my parcel?' });
  expect(sent.data.webhookStatus).toBe(200);
  await waitFor(async () => {
    ticketId = ((await stack.ticketing.get(`/v1/tickets?accountId=${ACCOUNT}`)).data.items as { id: string }[])[0]?.id ?? '';
    return Boolean(ticketId);
  }, { what: 'the ticket' });
  browser = await launchBrowser();
}, 180_000);

afterAll(async () => {
  await browser?.close();
  await stack?.stop();
});

async function newPage(): Promise<{ context: BrowserContext; page: Page }> {
  const context = await browser.browser.newContext({ viewport: { width: 1280, height: 900 } });
  return { context, page: await context.newPage() };
}

async function launchLink(): Promise<string> {
  const answer = await fetch(`${stack.console.url}/v1/launch-links`, { method: 'POST', headers: { 'content-type': 'application/json', authorization: `Bearer ${CRM_TOKEN}` }, body: JSON.stringify({ ticketId }) });
  expect(answer.status).toBe(201);
  return ((await answer.json()) as { url: string }).url;
}

describe('sessions in the browser', () => {
  it('sends a signed-out agent to sign-in and back to the ticket; a session that ends keeps the page and its draft under the sign-in', async () => {
    const { context, page } = await newPage();
    await page.goto(`${stack.console.url}/tickets/${encodeURIComponent(ticketId)}`);
    await page.waitForURL(/\/signin\?next=/);
    await signInWithToken(page, CRM_TOKEN);
    await page.getByTestId('ticket-view').waitFor();
    expect(new URL(page.url()).pathname).toBe(`/tickets/${encodeURIComponent(ticketId)}`);

    const draft = 'Your parcel is on its way, it arrives tomorrow.';
    await page.getByLabel('Reply', { exact: true }).fill(draft);
    // The session's cookie expires (the browser drops it): the next call answers 401, the send or one
    // the page makes by itself (the banners' polls) if it comes first; either brings the sign-in over the page.
    await context.clearCookies();
    const dialog = page.getByRole('dialog', { name: 'Sign in again' });
    await page
      .getByRole('button', { name: 'Send reply' })
      .click({ timeout: 10_000 })
      .catch(async (error: unknown) => {
        if (!(await dialog.isVisible())) throw error;
      });
    await dialog.getByText('Your session has ended').waitFor();
    expect(await page.getByText('Signed in as').count()).toBe(0);
    await screenshot(page, 'session-ended');
    expect(await seriousViolations(page)).toEqual([]);

    await signInWithToken(dialog, CRM_TOKEN);
    await dialog.waitFor({ state: 'detached' });
    expect(new URL(page.url()).pathname).toBe(`/tickets/${encodeURIComponent(ticketId)}`);
    expect(await page.getByLabel('Reply', { exact: true }).inputValue()).toBe(draft);
    await page.getByRole('button', { name: 'Send reply' }).click();
    await page.getByTestId('activity').filter({ hasText: draft }).waitFor();
    await context.close();
  });

  it('shows a used or expired launch link as a page in plain words, and keeps a launch session on its ticket', async () => {
    const url = await launchLink();
    const { context, page } = await newPage();
    await page.goto(url);
    await page.getByTestId('ticket-view').waitFor();
    // The full console is not for a launch session: back to its ticket.
    await page.goto(`${stack.console.url}/inbox`);
    await page.waitForURL(/\/embed\/tickets\//);
    await page.getByTestId('ticket-view').waitFor();
    expect(await page.getByRole('navigation', { name: 'Main' }).count()).toBe(0);

    await page.goto(url);
    await page.getByRole('heading', { name: 'This link was used already' }).waitFor();
    await page.getByText('Open the ticket again from the CRM').waitFor();
    await screenshot(page, 'launch-link-used');
    expect(await seriousViolations(page)).toEqual([]);
    await page.goto(`${stack.console.url}/launch?token=not-a-link`);
    await page.getByRole('heading', { name: 'This link has expired' }).waitFor();
    expect(await page.locator('body').innerText()).not.toContain('{');
    await context.close();
  });
});
