/**
 * Agents are people, in real Chromium (Debian's, every protection on) against the real
 * services on the real RabbitMQ and PostgreSQL: an agent signs in with an email and password
 * (a wrong one told uniformly), the header names them, and two agents on one ticket see each
 * other live (viewing, typing) and who wrote each reply.
 */
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { AccountRepository } from '@crm/ticketing/src/adapters/db/accounts';
import { waitFor } from '@crm/testing';
import { launchBrowser, screenshot, seriousViolations, signInWithPassword, type TestBrowser } from './testing/browser';
import { CRM_TOKEN, startConsoleStack, type ConsoleStack } from './testing/stack';

const ACCOUNT = '4001';
const PASSWORD = 'a long password for the desk';
const ANA = { email: 'ana@desk.example', displayName: 'Ana Lima' };
const BO = { email: 'bo@desk.example', displayName: 'Bo Marsh' };

let stack: ConsoleStack;
let browser: TestBrowser;
const contexts: BrowserContext[] = [];
let ticketId = '';
let anaId = '';

beforeAll(async () => {
  stack = await startConsoleStack();
  await new AccountRepository(stack.ticketingService.pool).recordChange({ accountId: ACCOUNT, status: 'connected', at: new Date() });
  expect((await stack.ticketing.put(`/v1/partner-configs/${ACCOUNT}`, {})).status).toBe(201);
  const sent = await stack.social.post('/control/direct-messages', { from: { id: '640001', screenName: 'cleo', name: 'Cleo Customer' }, to: ACCOUNT, text: 'my parcel never came' });
  expect(sent.data.webhookStatus).toBe(200);
  ticketId = (await waitFor(async () => ((await stack.ticketing.get(`/v1/tickets?accountId=${ACCOUNT}`)).data.items as { id: string }[])[0]?.id, { what: 'the ticket' }))!;
  // An admin (here the CRM's bootstrap token) makes the two agents.
  for (const agent of [ANA, BO]) {
    const made = await stack.auth.post('/v1/agents', { ...agent, password: PASSWORD });
    expect(made.status).toBe(201);
    if (agent === ANA) anaId = made.data.id as string;
  }
  browser = await launchBrowser();
}, 180_000);

afterAll(async () => {
  for (const context of contexts) await context.close().catch(() => undefined);
  await browser?.close();
  await stack?.stop();
});

async function newPage(target: Browser): Promise<Page> {
  const context = await target.newContext({ viewport: { width: 1280, height: 900 } });
  contexts.push(context);
  return context.newPage();
}

async function signIn(page: Page, email: string, password: string): Promise<void> {
  await page.goto(`${stack.console.url}/signin`);
  await signInWithPassword(page, email, password);
}

describe('agents on a ticket', () => {
  let ana: Page;
  let bo: Page;

  it('signs an agent in with email and password, refusing a wrong password as a wrong email, and names them in the header', async () => {
    ana = await newPage(browser.browser);
    for (const [email, password] of [[ANA.email, 'not the password at all'], ['nobody@desk.example', PASSWORD]]) {
      await signIn(ana, email!, password!);
      await ana.getByRole('alert').filter({ hasText: 'the email or password is not right; check both and try again' }).waitFor();
    }
    await screenshot(ana, 'agent-sign-in');
    expect(await seriousViolations(ana)).toEqual([]);
    await signIn(ana, ANA.email, PASSWORD);
    await ana.getByRole('heading', { name: 'Inbox' }).waitFor();
    await ana.getByText(`Signed in as ${ANA.displayName}`).waitFor();
    const cookie = (await ana.context().cookies()).find((c) => c.name === 'console_session');
    expect(cookie?.value).not.toContain(PASSWORD);
  });

  it("shows each agent the other one viewing and typing, live, over the page's one event stream, and A's name on A's reply", async () => {
    bo = await newPage(browser.browser);
    await signIn(bo, BO.email, PASSWORD);
    await bo.getByRole('heading', { name: 'Inbox' }).waitFor();
    const streamsOpened: string[] = [];
    bo.on('request', (request) => {
      if (new URL(request.url()).pathname === '/api/events') streamsOpened.push(request.url());
    });
    await bo.goto(`${stack.console.url}/tickets/${ticketId}`);
    await bo.getByTestId('ticket-view').waitFor();

    await ana.goto(`${stack.console.url}/tickets/${ticketId}`);
    await ana.getByTestId('ticket-view').waitFor();
    const anaOnBosPage = bo.getByTestId('presence-agent').filter({ hasText: ANA.displayName });
    await anaOnBosPage.filter({ hasText: 'is viewing' }).waitFor();
    await ana.getByTestId('presence-agent').filter({ hasText: `${BO.displayName} is viewing` }).waitFor();
    // The list, the open ticket and its presence all listen to the page's one event stream.
    expect(streamsOpened).toHaveLength(1);

    await ana.getByLabel('Reply', { exact: true }).fill('We are looking into it, Cleo.');
    await anaOnBosPage.filter({ hasText: 'is typing…' }).waitFor();
    await ana.getByRole('button', { name: 'Send reply' }).click();
    const reply = bo.getByTestId('activity').filter({ hasText: 'We are looking into it, Cleo.' });
    await reply.filter({ hasText: `by ${ANA.displayName}` }).waitFor();
    const activities = (await stack.ticketing.get(`/v1/tickets/${ticketId}`)).data.activities as { text: string | null; by: string | null; byName: string | null }[];
    expect(activities.find((activity) => activity.text === 'We are looking into it, Cleo.')).toMatchObject({ by: anaId, byName: ANA.displayName });
    await screenshot(bo, 'ticket-presence');
    expect(await seriousViolations(bo)).toEqual([]);

    // Ana leaves the ticket: Bo's page stops showing her.
    await ana.getByRole('link', { name: 'Inbox', exact: true }).click();
    await anaOnBosPage.waitFor({ state: 'detached' });
  });

  it('offers the agents by name as assignees, and saves the picked one as the assignee', async () => {
    await bo.getByTestId('assignee-picker').click();
    await bo.getByRole('option', { name: ANA.displayName }).click();
    await bo.getByRole('button', { name: 'Update ticket' }).click();
    await waitFor(async () => (await stack.ticketing.get(`/v1/tickets/${ticketId}`)).data.assignee === anaId, { what: 'Ana assigned' });
    const change = ((await stack.ticketing.get(`/v1/tickets/${ticketId}`)).data.activities as { direction: string; kind: string; byName: string | null }[]).filter((activity) => activity.direction === 'internal').at(-1);
    expect(change?.byName).toBe(BO.displayName);
  });

  it("acts as the agent a launch link names: the embedded ticket shows as that agent's presence", async () => {
    const link = await fetch(`${stack.console.url}/v1/launch-links`, {
      method: 'POST',
      headers: { authorization: `Bearer ${CRM_TOKEN}`, 'content-type': 'application/json' },
      body: JSON.stringify({ ticketId, agent: { email: ANA.email } }),
    });
    expect(link.status).toBe(201);
    const embedded = await newPage(browser.browser);
    await embedded.goto(((await link.json()) as { url: string }).url);
    await embedded.getByTestId('ticket-view').waitFor();
    await bo.getByTestId('presence-agent').filter({ hasText: `${ANA.displayName} is viewing` }).waitFor();
  });
});
