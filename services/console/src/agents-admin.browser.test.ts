/**
 * An admin manages agents and teams on the Agents page, in real Chromium (Debian's, every
 * protection on) against the real services on the real RabbitMQ and PostgreSQL: a created agent
 * signs in, refused fields are told beside their field, a double-click creates one agent, a
 * deactivated agent is signed out; a non-admin has no Agents page. Then every screen of the
 * console, at 1440 and at 390 px: axe finds nothing serious or critical, and nothing is wider
 * than a 390 px phone.
 */
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { AccountRepository } from '@crm/ticketing/src/adapters/db/accounts';
import { waitFor } from '@crm/testing';
import { launchBrowser, screenshot, seriousViolations, signInWithPassword, type TestBrowser } from './testing/browser';
import { CRM_TOKEN, startConsoleStack, type ConsoleStack } from './testing/stack';

const ACCOUNT = '4101';
const PASSWORD = 'a long password for the admin';
const ADMIN = { email: 'ada@desk.example', displayName: 'Ada Admin' };
const NEW_AGENT = { email: 'noor@desk.example', displayName: 'Noor Patel', password: 'noor has a long password' };
const WIDTHS = [1440, 390] as const;

let stack: ConsoleStack;
let browser: TestBrowser;
const contexts: BrowserContext[] = [];
let ticketId = '';

beforeAll(async () => {
  stack = await startConsoleStack();
  await new AccountRepository(stack.ticketingService.pool).recordChange({ accountId: ACCOUNT, status: 'connected', at: new Date() });
  expect((await stack.ticketing.put(`/v1/partner-configs/${ACCOUNT}`, {})).status).toBe(201);
  const sent = await stack.social.post('/control/direct-messages', { from: { id: '641001', screenName: 'dara', name: 'Dara Customer' }, to: ACCOUNT, text: 'the parcel is late' });
  expect(sent.data.webhookStatus).toBe(200);
  ticketId = (await waitFor(async () => ((await stack.ticketing.get(`/v1/tickets?accountId=${ACCOUNT}`)).data.items as { id: string }[])[0]?.id, { what: 'the ticket' }))!;
  expect((await stack.auth.put('/v1/teams/billing', { name: 'Billing' })).status).toBe(200);
  // The first admin, as the CLI (or the CRM's bootstrap token) makes it.
  expect((await stack.auth.post('/v1/agents', { ...ADMIN, role: 'admin', password: PASSWORD })).status).toBe(201);
  browser = await launchBrowser();
}, 180_000);

afterAll(async () => {
  for (const context of contexts) await context.close().catch(() => undefined);
  await browser?.close();
  await stack?.stop();
});

async function newPage(target: Browser, width = 1440): Promise<Page> {
  const context = await target.newContext({ viewport: { width, height: 900 } });
  contexts.push(context);
  return context.newPage();
}

async function signIn(page: Page, email: string, password: string): Promise<void> {
  await page.goto(`${stack.console.url}/signin`);
  await signInWithPassword(page, email, password);
  await page.getByRole('heading', { name: 'Inbox' }).waitFor();
}

const agentsNamed = async (email: string) => ((await stack.auth.get('/v1/agents')).data.items as { id: string; email: string; role: string; teams: string[]; disabled: boolean }[]).filter((agent) => agent.email === email);

describe('the Agents page', () => {
  let admin: Page;
  let noor: Page;

  it('lets an admin create an agent, telling refused fields beside them; a double-click creates one; the agent then signs in', async () => {
    admin = await newPage(browser.browser);
    await signIn(admin, ADMIN.email, PASSWORD);
    await admin.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Agents' }).click();
    await admin.getByRole('heading', { name: 'Agents and teams' }).waitFor();
    await admin.getByTestId('agent-row').filter({ hasText: ADMIN.email }).getByText('Admin', { exact: true }).waitFor();

    const form = admin.getByRole('region', { name: 'Add an agent' });
    await form.getByLabel('Email').fill('not an email');
    await form.getByLabel('Name', { exact: true }).fill(NEW_AGENT.displayName);
    await form.getByLabel('First password').fill('short');
    await form.getByRole('button', { name: 'Add agent' }).click();
    await form.getByText('Email: enter an email address such as ana@example.com').waitFor();
    await form.getByText('Password: choose a password of 12 to 256 characters').waitFor();
    expect(await form.getByLabel('Email').getAttribute('aria-invalid')).toBe('true');

    await form.getByLabel('Email').fill(NEW_AGENT.email);
    await form.getByLabel('First password').fill(NEW_AGENT.password);
    await form.getByRole('checkbox', { name: 'Billing' }).check();
    const creations: string[] = [];
    admin.on('request', (request) => request.method() === 'POST' && request.url().endsWith('/api/agents') && creations.push(request.url()));
    await form.getByRole('button', { name: 'Add agent' }).dblclick();
    await form.getByRole('status').filter({ hasText: `${NEW_AGENT.displayName} can now sign in with ${NEW_AGENT.email}.` }).waitFor();
    await admin.getByTestId('agent-row').filter({ hasText: NEW_AGENT.email }).waitFor();
    expect(creations).toHaveLength(1);
    expect(await agentsNamed(NEW_AGENT.email)).toEqual([expect.objectContaining({ role: 'agent', teams: ['billing'], disabled: false })]);
    expect(await form.getByText('exists already').count()).toBe(0);

    noor = await newPage(browser.browser);
    await signIn(noor, NEW_AGENT.email, NEW_AGENT.password);
    await noor.getByText(`Signed in as ${NEW_AGENT.displayName}`).waitFor();
  });

  it('shows a non-admin no Agents entry, and a sentence at /agents', async () => {
    const nav = noor.getByRole('navigation', { name: 'Main' });
    await nav.getByRole('link', { name: 'Accounts' }).waitFor();
    expect(await nav.getByRole('link', { name: 'Agents' }).count()).toBe(0);
    await noor.goto(`${stack.console.url}/agents`);
    await noor.getByText('Only an admin manages agents and teams.').waitFor();
    expect(await noor.getByRole('table', { name: 'Agents' }).count()).toBe(0);
  });

  it('lets the admin add and rename a team, change a role and teams, and deactivate after a confirmation', async () => {
    const teams = admin.getByRole('region', { name: 'Teams' });
    await teams.getByLabel('New team id').fill('returns');
    await teams.getByLabel('New team name').fill('Returns');
    await teams.getByRole('button', { name: 'Add team' }).click();
    const returns = teams.getByLabel('Name of team returns');
    await returns.waitFor();
    await returns.fill('Returns and refunds');
    await teams.getByTestId('team-row').filter({ has: admin.getByLabel('Name of team returns') }).getByRole('button', { name: 'Rename' }).click();
    await waitFor(async () => ((await stack.auth.get('/v1/teams')).data.items as { id: string; name: string }[]).some((team) => team.id === 'returns' && team.name === 'Returns and refunds'), { what: 'the team renamed' });

    const row = admin.getByTestId('agent-row').filter({ hasText: NEW_AGENT.email });
    await row.getByRole('button', { name: `Edit ${NEW_AGENT.displayName}` }).click();
    const edit = admin.getByRole('dialog', { name: `Edit ${NEW_AGENT.displayName}` });
    await edit.getByLabel('Role').selectOption('admin');
    await edit.getByRole('checkbox', { name: 'Returns and refunds' }).check();
    await edit.getByRole('button', { name: 'Save changes' }).click();
    await edit.waitFor({ state: 'detached' });
    await row.getByText('Billing, Returns and refunds').waitFor();
    expect(await agentsNamed(NEW_AGENT.email)).toEqual([expect.objectContaining({ role: 'admin', teams: ['billing', 'returns'] })]);

    await row.getByRole('button', { name: `Deactivate ${NEW_AGENT.displayName}` }).click();
    const confirm = admin.getByRole('dialog', { name: `Deactivate ${NEW_AGENT.displayName}?` });
    await confirm.getByText('will be signed out at once').waitFor();
    await confirm.getByRole('button', { name: 'Keep active' }).click();
    await confirm.waitFor({ state: 'detached' });
    expect((await agentsNamed(NEW_AGENT.email))[0]!.disabled).toBe(false);
    await row.getByRole('button', { name: `Deactivate ${NEW_AGENT.displayName}` }).click();
    await confirm.getByRole('button', { name: 'Deactivate' }).dblclick();
    await row.getByText('Deactivated').waitFor();
    // Noor's session ended with the deactivation: her next call brings the sign-in over her page.
    await noor.reload();
    await noor.getByRole('button', { name: 'Sign in' }).waitFor();
  });
});

/** What is wrong on the screen now: axe's serious and critical violations, and, on a phone, anything wider than it. */
async function problemsOf(page: Page, screen: string, width: number): Promise<string[]> {
  await screenshot(page, `every-screen-${screen}-${width}`);
  const problems = (await seriousViolations(page)).map((violation) => `${screen} at ${width}: ${violation}`);
  if (width === 390) {
    const scrollWidth = await page.evaluate(() => (globalThis as unknown as { document: { scrollingElement: { scrollWidth: number } } }).document.scrollingElement.scrollWidth);
    if (scrollWidth > 390) problems.push(`${screen} at 390: the page is ${scrollWidth} px wide (${(await widerThanPhone(page)).join('; ')})`);
    const header = page.locator('header.mantine-AppShell-header');
    if ((await header.count()) > 0 && (await header.evaluate((element) => element.scrollWidth - element.clientWidth)) > 0) problems.push(`${screen} at 390: the header's content is wider than its bar`);
  }
  return problems;
}

/** The innermost elements reaching past 390 px, named by tag, test id or class, for the failure's message. */
function widerThanPhone(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    type Element = { tagName: string; className: unknown; children: ArrayLike<Element>; getAttribute: (name: string) => string | null; getBoundingClientRect: () => { right: number } };
    const all = Array.from((globalThis as unknown as { document: { querySelectorAll: (s: string) => ArrayLike<Element> } }).document.querySelectorAll('body *'));
    const past = (element: Element) => element.getBoundingClientRect().right > 391;
    return all
      .filter((element) => past(element) && !Array.from(element.children).some(past))
      .slice(0, 5)
      .map((element) => `${element.tagName.toLowerCase()}${element.getAttribute('data-testid') ? `[data-testid=${element.getAttribute('data-testid')}]` : ''}.${String(element.className).split(' ')[0]} ends at ${Math.round(element.getBoundingClientRect().right)}`);
  });
}

async function launchLink(): Promise<string> {
  const answer = await fetch(`${stack.console.url}/v1/launch-links`, { method: 'POST', headers: { 'content-type': 'application/json', authorization: `Bearer ${CRM_TOKEN}` }, body: JSON.stringify({ ticketId }) });
  expect(answer.status).toBe(201);
  return ((await answer.json()) as { url: string }).url;
}

/** The screens an admin reaches, each opened and waited for. */
function adminScreens(page: Page): [string, () => Promise<void>][] {
  const url = stack.console.url;
  return [
    ['workspace', async () => { await page.goto(`${url}/inbox`); await page.getByTestId('ticket-row').first().waitFor(); }],
    ['ticket', async () => { await page.goto(`${url}/tickets/${ticketId}`); await page.getByTestId('ticket-view').waitFor(); }],
    ['accounts', async () => { await page.goto(`${url}/accounts`); await page.getByTestId('account-row').first().waitFor(); }],
    ['config-editor', async () => { await page.getByTestId('account-row').first().getByRole('button', { name: 'Configure' }).click(); await page.getByRole('button', { name: 'Save configuration' }).waitFor(); }],
    ['agents', async () => { await page.goto(`${url}/agents`); await page.getByTestId('agent-row').first().waitFor(); }],
    ['agents-edit', async () => { await page.getByRole('button', { name: `Edit ${ADMIN.displayName}` }).click(); await page.getByRole('dialog', { name: `Edit ${ADMIN.displayName}` }).waitFor(); }],
    ['agents-deactivate', async () => { await page.keyboard.press('Escape'); await page.getByRole('button', { name: `Deactivate ${ADMIN.displayName}` }).click(); await page.getByRole('dialog', { name: `Deactivate ${ADMIN.displayName}?` }).waitFor(); }],
  ];
}

describe('every screen at 1440 and 390 px', () => {
  // Eleven screens opened and checked with axe at each width: minutes on a loaded machine.
  it.each(WIDTHS)('has no serious or critical axe violation at %i px, and nothing wider than a 390 px phone', async (width) => {
    const problems: string[] = [];
    {
      const page = await newPage(browser.browser, width);
      await page.goto(`${stack.console.url}/signin`);
      await page.getByRole('button', { name: 'Sign in' }).waitFor();
      problems.push(...(await problemsOf(page, 'sign-in', width)));
      await signIn(page, ADMIN.email, PASSWORD);
      for (const [screen, open] of adminScreens(page)) {
        await open();
        problems.push(...(await problemsOf(page, screen, width)));
      }
      const launch = await newPage(browser.browser, width);
      const link = await launchLink();
      await launch.goto(link);
      await launch.getByTestId('ticket-view').waitFor();
      problems.push(...(await problemsOf(launch, 'launch-ticket', width)));
      await launch.goto(link);
      await launch.getByRole('heading', { name: 'This link was used already' }).waitFor();
      problems.push(...(await problemsOf(launch, 'launch-used', width)));
      await launch.goto(`${stack.console.url}/launch?token=not-a-link`);
      await launch.getByRole('heading', { name: 'This link has expired' }).waitFor();
      problems.push(...(await problemsOf(launch, 'launch-expired', width)));
    }
    expect(problems).toEqual([]);
  }, 180_000);
});
