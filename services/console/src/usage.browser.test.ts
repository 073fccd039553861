/**
 * The Usage page and the console's banners, in real Chromium (Debian's, every protection on)
 * against the real services on the real RabbitMQ and PostgreSQL: after a reply and a profile
 * read that auth meters, the page draws the month's spend per day (an <svg> with bars), lists
 * the kinds of call in words, keeps its account and month in the URL, and saves a budget (its
 * refusals beside their fields) whose limit and warning are drawn across the chart; a reached
 * warning brings its banner. When the platform refuses the app for spent credit the banner says
 * how many replies wait, stays dismissed for the episode, comes back for the next, and goes when
 * an admin's check finds credit back. axe finds nothing serious or critical and nothing is wider
 * than the window, at 1440 and 390 px.
 */
import { randomUUID } from 'node:crypto';
import type { BrowserContext, Page } from 'playwright-core';
import { waitFor } from '@crm/testing';
import { launchBrowser, screenshot, seriousViolations, signInWithToken, type TestBrowser } from './testing/browser';
import { connectAccountThroughPages, type ConsoleStack, CRM_TOKEN, startConsoleStack } from './testing/stack';

const ANA = { id: '777401', screenName: 'ana_usage', name: 'Ana Usage' };
// Prices in whole dollars, so the month's bars and the budget's lines are plain to read.
const RATE_CARD = JSON.stringify({ dm_interaction_create: 1.5, users_read: 0.5 });

let stack: ConsoleStack;
let browser: TestBrowser;
const contexts: BrowserContext[] = [];
let page: Page;
let accountId = '';
let ticketId = '';

async function newPage(width: number): Promise<Page> {
  const context = await browser.browser.newContext({ viewport: { width, height: 900 } });
  contexts.push(context);
  const opened = await context.newPage();
  await opened.goto(`${stack.console.url}/inbox`);
  await signInWithToken(opened, CRM_TOKEN);
  await opened.getByRole('heading', { name: 'Inbox' }).waitFor();
  return opened;
}

/** The units auth has metered this month of one kind for the account. */
async function unitsOf(kind: string): Promise<number> {
  const { data } = await stack.auth.get('/v1/usage', { params: { accountId } });
  return (data.items as { kind: string; units: number }[]).filter((item) => item.kind === kind).reduce((sum, item) => sum + item.units, 0);
}

const reply = async (text: string) => expect((await stack.ticketing.post(`/v1/tickets/${ticketId}/replies`, { text }, { headers: { 'idempotency-key': randomUUID() } })).status).toBe(202);

beforeAll(async () => {
  // No periodic credit probe: credit comes back when an admin checks.
  stack = await startConsoleStack({ auth: { CREDIT_PROBE_INTERVAL_MS: '0', PLATFORM_RATE_CARD: RATE_CARD }, console: { POLL_INTERVAL_MS: '500' } });
  browser = await launchBrowser();
  page = await newPage(1440);
  accountId = await connectAccountThroughPages(page, stack, '@acme_usage');
  expect([200, 201]).toContain((await stack.ticketing.put(`/v1/partner-configs/${accountId}`, {})).status);
  expect((await stack.social.post('/control/platform/users', ANA)).status).toBe(200);
  expect((await stack.social.post('/control/direct-messages', { from: ANA, to: accountId, text: 'Where is my order?' })).data.webhookStatus).toBe(200);
  ticketId = (await waitFor(async () => ((await stack.ticketing.get(`/v1/tickets?accountId=${accountId}`)).data.items as { id: string }[])[0]?.id, { what: "Ana's ticket" }))!;
}, 180_000);

afterAll(async () => {
  await stack?.social.delete('/control/platform/app-refusal').catch(() => undefined);
  for (const context of contexts) await context.close().catch(() => undefined);
  await browser?.close();
  await stack?.stop();
});

/** axe's serious and critical findings, and at 390 px anything wider than the phone. */
async function problemsOf(target: Page, width: number): Promise<string[]> {
  const problems = await seriousViolations(target);
  const scrollWidth = await target.evaluate(() => (globalThis as unknown as { document: { scrollingElement: { scrollWidth: number } } }).document.scrollingElement.scrollWidth);
  if (scrollWidth > width) problems.push(`the page is ${scrollWidth} px wide at ${width}`);
  const header = target.locator('header.mantine-AppShell-header');
  if ((await header.evaluate((element) => element.scrollWidth - element.clientWidth)) > 0) problems.push(`the header's content is wider than its bar at ${width}`);
  return problems;
}

describe('the Usage page', () => {
  it("draws the month's metered spend per day, lists the kinds of call in words, and keeps its account and month in the URL", async () => {
    await reply('Your order is on its way.');
    expect((await stack.auth.get(`/v1/accounts/${accountId}/users/${ANA.screenName}`)).status).toBe(200);
    await waitFor(async () => (await unitsOf('dm_interaction_create')) === 1 && (await unitsOf('users_read')) >= 1, { what: 'the reply and the profile read metered' });

    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Usage' }).click();
    await page.getByRole('heading', { name: 'Usage', level: 2 }).waitFor();
    const chart = page.getByRole('region', { name: 'Spend per day' });
    // Today's bar (the days without calls have bars of no height).
    await chart.locator('svg .recharts-bar-rectangle path').filter({ visible: true }).first().waitFor();
    const kinds = page.getByRole('table', { name: 'What the calls were' });
    await kinds.getByRole('row', { name: /Direct messages sent 1 \$1\.50/ }).waitFor();
    await kinds.getByRole('row', { name: /Profiles read/ }).waitFor();
    await page.getByTestId('account-share').filter({ hasText: '100%' }).waitFor();
    const csvHref = await page.getByRole('link', { name: 'Download CSV' }).getAttribute('href');
    expect(csvHref).toMatch(/^\/api\/usage\.csv\?from=\d{4}-\d{2}-01&to=/);
    // The link's file, as the browser downloads it with the session cookie.
    const csv = await page.request.get(`${stack.console.url}${csvHref}`);
    expect(csv.status()).toBe(200);
    expect(csv.headers()['content-type']).toMatch(/^text\/csv/);
    expect((await csv.text()).split('\n')[0]).toBe('accountId,date,kind,units,amount');

    await page.getByLabel('Account', { exact: true }).selectOption(accountId);
    await page.waitForURL((url) => url.searchParams.get('accountId') === accountId);
    const lastMonth = await page.getByLabel('Month', { exact: true }).locator('option').nth(1).getAttribute('value');
    await page.getByLabel('Month', { exact: true }).selectOption(lastMonth!);
    await page.waitForURL((url) => url.searchParams.get('month') === lastMonth);
    await page.getByText('No calls this month.').waitFor();
    await page.goBack();
    await kinds.getByRole('row', { name: /Direct messages sent/ }).waitFor();
    expect(new URL(page.url()).searchParams.get('accountId')).toBe(accountId);
  });

  it('saves a budget, telling refused fields beside them, draws its limit and warning across the chart, and warns in a banner', async () => {
    // The account is chosen: its budget is the one form.
    const form = page.getByTestId('budget-form');
    await form.getByLabel('Monthly limit ($)').fill('2000000');
    await form.getByLabel('Warn at (% of the limit)').fill('150');
    await form.getByRole('button', { name: 'Save budget' }).click();
    await form.getByText('Enter a percentage of the limit from 0 to 100').waitFor();
    await form.getByLabel('Warn at (% of the limit)').fill('50');
    await form.getByRole('button', { name: 'Save budget' }).click();
    await form.getByText('Monthly limit must be at most 1000000').waitFor();
    expect(await form.getByLabel('Monthly limit ($)').getAttribute('aria-invalid')).toBe('true');

    await form.getByLabel('Monthly limit ($)').fill('10');
    await form.getByLabel('Warn at (% of the limit)').fill('15');
    await form.getByRole('button', { name: 'Save budget' }).click();
    await form.getByRole('status').filter({ hasText: 'of $10.00 spent this month; the warning comes at $1.50' }).waitFor();
    expect((await stack.auth.get(`/v1/accounts/${accountId}/budget`)).data).toMatchObject({ monthlyLimit: 10, warnAt: 0.15, stopEssential: false });
    const chart = page.getByRole('region', { name: 'Spend per day' });
    await chart.getByText('Limit $10.00').waitFor();
    await chart.getByText('Warning at $1.50').waitFor();
    await page.getByTestId('budget-banner').filter({ hasText: /is near its monthly budget: \$\d+\.\d\d of \$10\.00 spent this month/ }).waitFor({ timeout: 20_000 });
    await page.getByTestId('budget-banner').getByRole('button', { name: 'Dismiss this notice' }).click();
    await page.getByTestId('budget-banner').waitFor({ state: 'detached' });
  });

  it('has no serious or critical axe violation and nothing wider than the window, at 1440 and 390 px', async () => {
    const problems = await problemsOf(page, 1440);
    await screenshot(page, 'usage-1440');
    const phone = await newPage(390);
    await phone.goto(`${stack.console.url}/usage?accountId=${accountId}`);
    await phone.getByRole('region', { name: 'Spend per day' }).locator('svg .recharts-bar-rectangle path').filter({ visible: true }).first().waitFor();
    await phone.getByRole('region', { name: 'Spend per day' }).getByText('Limit $10.00').waitFor();
    problems.push(...(await problemsOf(phone, 390)));
    await screenshot(phone, 'usage-390');
    expect(problems).toEqual([]);
  });
});

describe('the out-of-credit banner', () => {
  const banner = () => page.getByTestId('credit-banner');

  it('says how many replies wait, stays dismissed for its episode, and comes back for the next', async () => {
    await page.goto(`${stack.console.url}/inbox`);
    await stack.social.post('/control/platform/app-refusal', { kind: 'credits-depleted' });
    await reply('Held until credit returns.');
    await banner().filter({ hasText: 'Platform credit is spent: replies are held and will be sent when credit returns (1 waiting).' }).waitFor({ timeout: 20_000 });
    expect(await seriousViolations(page)).toEqual([]);
    await banner().getByRole('button', { name: 'Dismiss this notice' }).click();
    await banner().waitFor({ state: 'detached' });
    await page.reload();
    await page.getByRole('heading', { name: 'Inbox' }).waitFor();
    expect((await stack.auth.get('/v1/app/status')).data).toMatchObject({ outOfCredit: true, heldCommands: 1 });
    expect(await banner().count()).toBe(0);

    await stack.social.delete('/control/platform/app-refusal');
    expect((await stack.auth.post('/v1/app/credit-check')).data).toMatchObject({ outOfCredit: false, heldCommands: 0 });
    await waitFor(async () => (await unitsOf('dm_interaction_create')) === 2, { what: 'the held reply sent once credit was back' });

    await stack.social.post('/control/platform/app-refusal', { kind: 'credits-depleted' });
    await reply('Held again.');
    await banner().filter({ hasText: '(1 waiting)' }).waitFor({ timeout: 20_000 });
  });

  it("goes when an admin's check finds credit back, and the held reply is sent", async () => {
    await banner().getByRole('button', { name: 'Check credit now' }).click();
    await banner().getByText('The platform still refuses').waitFor();
    await stack.social.delete('/control/platform/app-refusal');
    await banner().getByRole('button', { name: 'Check credit now' }).click();
    await banner().waitFor({ state: 'detached' });
    await waitFor(async () => (await unitsOf('dm_interaction_create')) === 3, { what: 'the second held reply sent' });
  });
});
