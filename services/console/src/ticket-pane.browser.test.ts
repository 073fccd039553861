/**
 * The ticket pane in real Chromium (Debian's, every protection on) against the real services:
 * the composer sends one DM per draft whatever the clicks and keeps its draft across a reload;
 * merging goes through the picker, with a confirmation when the customers differ, and is undone
 * from the timeline; the sidebar shows the customer, their other tickets and the order with its
 * small map, which opens the pop-up. Each screen is photographed at 1440 and 390 px and checked with axe-core.
 */
import type { BrowserContext, Page } from 'playwright-core';
import { waitFor } from '@crm/testing';
import { launchBrowser, scrollPanesToTop, screenshot, seriousViolations, signInWithPassword, type TestBrowser } from './testing/browser';
import { connectAccountThroughPages, type ConsoleStack, startConsoleStack } from './testing/stack';

const ANA = { id: '777101', screenName: 'ana_pane', name: 'Ana Customer' };
const BOB = { id: '777102', screenName: 'bob_pane', name: 'Bob Other' };
/** The agent at the desk: an admin, who may also connect the account. */
const PRIYA = { email: 'priya@desk.example', displayName: 'Priya Shah', role: 'admin', password: 'a long password for the desk' };

let stack: ConsoleStack;
let browser: TestBrowser;
let context: BrowserContext;
let page: Page;
let accountId = '';
let anaTicket = '';
let bobTicket = '';

interface ListedTicket {
  id: string;
  status: string;
  mergedInto: string | null;
  contact: { screenName: string } | null;
}

const ticketOf = async (id: string) => (await stack.ticketing.get(`/v1/tickets/${id}`)).data as ListedTicket & { activities: { kind: string; text: string | null }[] };

/** The DMs the platform received for a user: requests to its send route that it accepted. */
async function dmsSentTo(userId: string): Promise<number> {
  const { data } = await stack.social.get('/control/platform/requests', { params: { path: `/2/dm_conversations/with/${userId}/messages`, method: 'POST' } });
  return (data.items as { status: number }[]).filter((entry) => entry.status < 300).length;
}

async function ticketOfContact(screenName: string): Promise<string> {
  let id = '';
  await waitFor(
    async () => {
      const { data } = await stack.ticketing.get(`/v1/tickets?accountId=${accountId}`);
      id = (data.items as ListedTicket[]).find((ticket) => ticket.contact?.screenName === screenName)?.id ?? '';
      return id !== '';
    },
    { what: `the ticket of @${screenName}` },
  );
  return id;
}

/** Photographs the page at 1440 and 390 px and checks it with axe at both. */
async function photographBothWidths(name: string, wholePage: boolean): Promise<void> {
  for (const width of [1440, 390]) {
    await page.setViewportSize({ width, height: 900 });
    // Each pane from its top: the conversation's start, the sidebar's customer and order cards.
    await scrollPanesToTop(page);
    await screenshot(page, `${name}-${width}`, wholePage);
    expect(await seriousViolations(page)).toEqual([]);
    // Nothing wider than the screen.
    expect(await page.evaluate(() => (globalThis as unknown as { document: { documentElement: { scrollWidth: number } } }).document.documentElement.scrollWidth)).toBeLessThanOrEqual(width);
  }
  await page.setViewportSize({ width: 1440, height: 900 });
}

beforeAll(async () => {
  stack = await startConsoleStack();
  browser = await launchBrowser();
  // An agent in Paris: times on the pane and in the notes it writes are theirs, not the server's.
  context = await browser.browser.newContext({ viewport: { width: 1440, height: 900 }, timezoneId: 'Europe/Paris', locale: 'en-GB' });
  page = await context.newPage();

  // An agent signs in as herself and connects an account through the platform's own pages.
  expect((await stack.auth.post('/v1/agents', PRIYA)).status).toBe(201);
  await page.goto(`${stack.console.url}/inbox`);
  await signInWithPassword(page, PRIYA.email, PRIYA.password);
  await page.getByRole('heading', { name: 'Inbox' }).waitFor();
  accountId = await connectAccountThroughPages(page, stack, '@acme_pane');
  // ticketing opens tickets for an account with a partner configuration (the defaults here).
  expect([200, 201]).toContain((await stack.ticketing.put(`/v1/partner-configs/${accountId}`, {})).status);

  // The platform knows both customers (their profiles, and the names its echo of a sent DM carries).
  for (const user of [ANA, BOB]) expect((await stack.social.post('/control/platform/users', user)).status).toBe(200);
  for (const [from, text] of [
    [ANA, 'Where is my parcel? Order 42 is late'],
    [BOB, 'My invoice for order 17 is wrong'],
  ] as const) {
    expect((await stack.social.post('/control/direct-messages', { from, to: accountId, text })).data.webhookStatus).toBe(200);
  }
  anaTicket = await ticketOfContact(ANA.screenName);
  bobTicket = await ticketOfContact(BOB.screenName);
  // Ana also mentions the account: a public ticket of the same customer, her other ticket.
  expect((await stack.social.post('/control/activities', { kind: 'mention', account: accountId, user: ANA, text: '@acme_pane any news on my order?' })).status).toBe(200);
  await waitFor(async () => ((await stack.ticketing.get(`/v1/tickets?accountId=${accountId}`)).data.items as ListedTicket[]).filter((ticket) => ticket.contact?.screenName === ANA.screenName).length === 2, {
    what: "Ana's public ticket",
  });
}, 180_000);

afterAll(async () => {
  await browser?.close();
  await stack?.stop();
});

describe('the ticket pane', () => {
  it('sends one DM for a double-clicked Send, and one follow for a double-clicked Follow', async () => {
    await page.goto(`${stack.console.url}/tickets/${anaTicket}`);
    // The platform's profile, through auth.
    await page.getByTestId('customer-card').getByText(/\d followers/).waitFor();
    await page.getByLabel('Reply', { exact: true }).fill('Your order 42 is on its way.');
    await expect(page.getByTestId('length-count').innerText()).resolves.toBe('28 / 10,000');
    await page.getByRole('button', { name: 'Send reply' }).dblclick();
    await page.getByTestId('activity').filter({ hasText: 'Your order 42 is on its way.' }).and(page.locator('[data-status="sent"]')).waitFor({ timeout: 30_000 });
    expect(await dmsSentTo(ANA.id)).toBe(1);
    const replies = (await ticketOf(anaTicket)).activities.filter((activity) => activity.text === 'Your order 42 is on its way.');
    expect(replies).toHaveLength(1);
    // The sent draft is gone: the composer is empty again.
    expect(await page.getByLabel('Reply', { exact: true }).inputValue()).toBe('');

    // An action on the account's behalf, double-clicked too: the platform is asked once.
    await page.getByRole('button', { name: 'Follow' }).dblclick();
    await page.locator('[data-testid="activity"][data-kind="action"][data-status="sent"]').waitFor({ timeout: 30_000 });
    const follows = (await stack.social.get('/control/platform/requests', { params: { path: `/2/users/${accountId}/following`, method: 'POST' } })).data.items as unknown[];
    expect(follows).toHaveLength(1);
  });

  it('keeps a draft, with its canned reply filled in, across a reload', async () => {
    await page.getByRole('button', { name: 'Canned replies' }).click();
    await page.getByRole('menuitem', { name: 'Greeting' }).click();
    const reply = page.getByLabel('Reply', { exact: true });
    expect(await reply.inputValue()).toBe('Hi Ana, thanks for reaching out. Let me look into this for you.');
    await reply.press('End');
    await reply.pressSequentially(' Draft kept.');
    await page.reload();
    await page.getByTestId('ticket-view').waitFor();
    await expect(page.getByLabel('Reply', { exact: true }).inputValue()).resolves.toBe('Hi Ana, thanks for reaching out. Let me look into this for you. Draft kept.');
    // The r key puts the agent back in the reply; a public reply's limit is not a DM's.
    await page.getByTestId('ticket-view').getByRole('heading', { level: 2 }).click();
    await page.keyboard.press('n');
    await expect(page.getByRole('textbox', { name: 'Internal note' }).evaluate((element) => element === (globalThis as unknown as { document: { activeElement: unknown } }).document.activeElement)).resolves.toBe(true);
    await page.getByTestId('ticket-view').getByRole('heading', { level: 2 }).click();
    await page.keyboard.press('r');
    await page.getByLabel('Reply', { exact: true }).waitFor();
  });

  it("merges another customer's ticket through the picker after saying so, names it on the timeline, and unmerges it", async () => {
    await page.getByRole('button', { name: 'Merge tickets…' }).click();
    const picker = page.getByTestId('merge-picker');
    await picker.getByLabel("Search this account's tickets").fill('bob_pane');
    // The list answers the search once it is no longer busy (before, it may still show every ticket).
    await picker.locator('[role="group"][aria-busy="false"]').waitFor();
    const candidate = picker.getByTestId('merge-candidate').filter({ hasText: 'My invoice for order 17 is wrong' });
    await candidate.waitFor();
    expect(await picker.getByTestId('merge-candidate').count()).toBe(1);
    await candidate.getByRole('checkbox').check();
    await picker.getByTestId('merge-preview').waitFor();
    await picker.getByRole('button', { name: 'Merge 1 ticket…' }).click();
    await expect(picker.getByTestId('merge-customers-differ').innerText()).resolves.toContain('@bob_pane is not @ana_pane');
    expect((await ticketOf(bobTicket)).status).toBe('open');
    await screenshot(page, 'merge-confirmation', false);
    expect(await seriousViolations(page)).toEqual([]);
    await picker.getByRole('button', { name: 'Merge anyway' }).click();
    await expect(page.getByTestId('merge-result').innerText()).resolves.toContain('“My invoice for order 17 is wrong” (@bob_pane)');
    expect(await ticketOf(bobTicket)).toMatchObject({ status: 'merged', mergedInto: anaTicket });

    const merged = page.getByTestId('merged-source').filter({ hasText: '“My invoice for order 17 is wrong” from @bob_pane' });
    await merged.waitFor();
    await merged.getByRole('button', { name: /^Unmerge/ }).click();
    await waitFor(async () => (await ticketOf(bobTicket)).status !== 'merged', { what: "Bob's ticket out of the merge" });
    await page.locator('[data-testid="activity"][data-kind="unmerged"]').getByText('“My invoice for order 17 is wrong” from @bob_pane').waitFor();
    await merged.getByRole('button', { name: /^Unmerge/ }).waitFor({ state: 'detached' });
  });

  it('shows the customer and the linked order with a small map beside the conversation, and the map pop-up with its legend', async () => {
    await stack.tracking.enableClient('demo');
    await stack.tracking.simTask({ clientId: 'demo', taskId: 'order-42', elapsedSeconds: 60 });
    await page.getByLabel('Tracking client').fill('demo');
    await page.getByLabel('Task id').fill('order-42');
    await page.getByRole('button', { name: 'Link order' }).click();
    const card = page.getByTestId('order-summary');
    await card.getByTestId('order-status').filter({ hasText: 'Out for delivery' }).waitFor();
    await card.getByTestId('mini-map').locator('path.rider-marker').waitFor();
    await card.getByTestId('order-eta').waitFor();
    // The customer's other tickets: her public one, never Bob's.
    const others = page.getByTestId('other-tickets');
    await others.getByRole('link', { name: /any news on my order/ }).waitFor();
    expect(await others.getByRole('link').count()).toBe(1);
    await photographBothWidths('ticket-pane', true);

    await card.getByRole('button', { name: 'Track order' }).click();
    await page.getByTestId('rider-position').filter({ hasText: 'Rider at' }).waitFor();
    await expect(page.getByTestId('map-legend').innerText()).resolves.toMatch(/Rider[\s\S]*Drop[\s\S]*Route still to go/);
    await page.getByText('No map tiles configured').waitFor();
    await photographBothWidths('ticket-map-popup', false);

    // The evidence note gives its times in the agent's time zone, named, not in ISO UTC.
    await page.getByRole('button', { name: 'Record evidence snapshot' }).click();
    await page.getByTestId('snapshot-result').waitFor();
    const note = (await ticketOf(anaTicket)).activities.find((activity) => activity.kind === 'evidence_snapshot' || activity.text?.startsWith('Tracking snapshot'));
    expect(note?.text).toMatch(/position of \d{1,2} \w{3,4} \d{4}, \d{2}:\d{2}:\d{2} CES?T\)/);
    expect(note?.text).not.toMatch(/\d{4}-\d{2}-\d{2}T/);
  });
});
