/**
 * The agents' workspace in real Chromium (Debian's, every protection on) against the real
 * services on the real RabbitMQ and PostgreSQL: the views with their counts, the conversation
 * list filtered by ticketing, the open conversation, the URL keeping all of it, the keyboard, and
 * the phone's one pane at a time. axe checks every screen at 1440 and 390 px; the screenshots go
 * to docs/ (the READMEs show them).
 */
import { join } from 'node:path';
import type { BrowserContext, Locator, Page } from 'playwright-core';
import { TestPublisher } from '@crm/ticketing/src/testing/harness';
import { dmDelivery, dmEvent, userObject } from '@crm/ticketing/src/testing/deliveries';
import { waitFor } from '@crm/testing';
import { launchBrowser, seriousViolations, signInWithToken, type TestBrowser } from './testing/browser';
import { CRM_TOKEN, startConsoleStack, type ConsoleStack } from './testing/stack';

const ACCOUNT = '880001';
const DOCS = join(__dirname, '..', 'docs');

let stack: ConsoleStack;
let browser: TestBrowser;
let publisher: TestPublisher;
let context: BrowserContext;
let eventSeq = 0;
const tickets: Record<string, string> = {};

/** A customer's DM to the account, as webhook-ingest publishes it; resolves with its ticket once ticketing has it. */
async function dm(userId: string, screenName: string, name: string, text: string): Promise<string> {
  const eventId = `${Date.now()}${(eventSeq += 1)}`;
  await publisher.delivery(dmDelivery(ACCOUNT, [dmEvent({ id: eventId, from: userId, to: ACCOUNT, text, at: Date.now() })], [userObject(userId, screenName, name)]));
  const id = await waitFor(
    async () => (await stack.ticketingService.pool.query<{ ticket_id: string | null }>('SELECT ticket_id FROM activities WHERE platform_event_id = $1', [eventId])).rows[0]?.ticket_id ?? undefined,
    { what: `DM ${eventId} on a ticket` },
  );
  return id!;
}

async function signedInPage(width: number, height: number): Promise<Page> {
  const page = await context.newPage();
  await page.setViewportSize({ width, height });
  return page;
}

async function expectAccessible(page: Page, screen: string): Promise<void> {
  expect({ screen, violations: await seriousViolations(page) }).toEqual({ screen, violations: [] });
}

/** Waits until a dialog has finished its opening transition (axe judges contrast as shown). */
async function opened(dialog: Locator): Promise<void> {
  await dialog.waitFor();
  await waitFor(async () => (await dialog.evaluate((element) => (globalThis as unknown as { getComputedStyle: (e: unknown) => { opacity: string } }).getComputedStyle(element).opacity)) === '1', { what: 'the dialog fully shown' });
}

/** How far the page is wider than its viewport (0: no horizontal scrolling). */
const overflow = (page: Page) =>
  page.evaluate(() => {
    const root = (globalThis as unknown as { document: { documentElement: { scrollWidth: number; clientWidth: number } } }).document.documentElement;
    return root.scrollWidth - root.clientWidth;
  });

beforeAll(async () => {
  stack = await startConsoleStack();
  publisher = new TestPublisher(stack.tracking.amqpUrl);
  await publisher.ready();
  expect((await stack.ticketing.put(`/v1/partner-configs/${ACCOUNT}`, { pageName: 'Acme Foods' })).status).toBeLessThan(300);
  tickets.ana = await dm('770001', 'ana', 'Ana Customer', 'Where is my order 42? It was due an hour ago.');
  tickets.bob = await dm('770002', 'bob', 'Bob Buyer', 'I was charged twice for order 17, please refund one.');
  tickets.cho = await dm('770003', 'cho', 'Cho Client', 'Thanks, the rider just arrived!');
  tickets.dee = await dm('770004', 'dee', 'Dee Diner', 'Can I change the address of order 51?');
  expect((await stack.ticketing.patch(`/v1/tickets/${tickets.bob}`, { queue: 'billing', folder: 'refunds', priority: 'high', assignee: 'sam' })).status).toBe(200);
  expect((await stack.ticketing.patch(`/v1/tickets/${tickets.cho}`, { status: 'resolved' })).status).toBe(200);
  await stack.ticketingService.pool.query('UPDATE tickets SET sla_breached = true WHERE id = $1', [tickets.ana]);
  browser = await launchBrowser();
  context = await browser.browser.newContext({ viewport: { width: 1440, height: 900 } });
  const page = await context.newPage();
  await page.goto(`${stack.console.url}/inbox`);
  await signInWithToken(page, CRM_TOKEN);
  await page.getByTestId('conversation-list').waitFor();
  await page.close();
}, 180_000);

afterAll(async () => {
  await browser?.close();
  await publisher?.close();
  await stack?.stop();
});

const rows = (page: Page) => page.getByTestId('ticket-row');
const view = (page: Page, name: string) => page.getByTestId('views').getByRole('link', { name: new RegExp(`^${name}`) });

describe("the agents' workspace at 1440 px", () => {
  let page: Page;
  beforeAll(async () => {
    page = await signedInPage(1440, 900);
  });

  it('shows the views with counts from ticketing, the open and pending conversations, and no resolved one', async () => {
    await page.goto(`${stack.console.url}/inbox`);
    await page.getByTestId('live-mode').filter({ hasText: 'Live' }).waitFor();
    await waitFor(async () => (await rows(page).count()) === 3, { what: 'three open conversations' });
    await expect(view(page, 'All open').getByTestId('view-count').innerText()).resolves.toBe('3');
    await expect(view(page, 'SLA breached').getByTestId('view-count').innerText()).resolves.toBe('1');
    await expect(view(page, 'Unassigned').getByTestId('view-count').innerText()).resolves.toBe('2');
    await expect(view(page, 'billing / refunds').getByTestId('view-count').innerText()).resolves.toBe('1');
    const bob = rows(page).filter({ hasText: 'Bob Buyer' });
    await expect(bob.innerText()).resolves.toMatch(/Acme Foods[\s\S]*charged twice[\s\S]*high/i);
    expect(await rows(page).filter({ hasText: 'Cho Client' }).count()).toBe(0);
    await expectAccessible(page, 'list at 1440');
  });

  it('filters in ticketing by view and keeps view, filters and selection in the URL: Back restores them, a reload keeps them', async () => {
    await view(page, 'billing / refunds').click();
    await page.waitForURL(/view=folder&queue=billing&folder=refunds/);
    await waitFor(async () => (await rows(page).count()) === 1, { what: 'the folder view' });
    await view(page, 'SLA breached').click();
    await page.waitForURL(/view=breached/);
    await rows(page).filter({ hasText: 'Ana Customer' }).waitFor();
    expect(await rows(page).count()).toBe(1);
    await page.goBack();
    await page.waitForURL(/view=folder&queue=billing&folder=refunds/);
    await rows(page).filter({ hasText: 'Bob Buyer' }).waitFor();
    expect(await rows(page).count()).toBe(1);
    await page.getByLabel('Search conversations').fill('address');
    await page.getByLabel('Search conversations').press('Enter');
    await page.waitForURL(/q=address/);
    await page.getByText('No conversations match.').waitFor();
    await page.goBack();
    await rows(page).filter({ hasText: 'Bob Buyer' }).waitFor();
    await page.reload();
    await rows(page).filter({ hasText: 'Bob Buyer' }).waitFor();
    expect(page.url()).toMatch(/view=folder&queue=billing&folder=refunds$/);
  });

  it('moves with j and k, opens with Enter beside the list, lists every shortcut on ?, and takes a new DM live', async () => {
    await page.goto(`${stack.console.url}/inbox`);
    await waitFor(async () => (await rows(page).count()) === 3, { what: 'the open conversations' });
    await page.locator('body').click({ position: { x: 1430, y: 890 } });
    await page.keyboard.press('j');
    await page.keyboard.press('j');
    const marked = await page.locator('[data-testid="ticket-row"][data-cursor]').getAttribute('data-ticket-id');
    expect(marked).toBe(await rows(page).nth(1).getAttribute('data-ticket-id'));
    await page.keyboard.press('k');
    await page.keyboard.press('Enter');
    const first = await rows(page).nth(0).getAttribute('data-ticket-id');
    await page.waitForURL(`${stack.console.url}/tickets/${first}`);
    await page.getByTestId('ticket-view').waitFor();
    await expect(page.locator('[data-testid="ticket-row"][data-selected]').getAttribute('data-ticket-id')).resolves.toBe(first);
    await page.screenshot({ path: join(DOCS, 'workspace-1440.png') });
    await expectAccessible(page, 'conversation at 1440');
    await page.keyboard.press('?');
    const dialog = page.getByRole('dialog', { name: 'Keyboard shortcuts' });
    await opened(dialog);
    for (const key of ['j', 'k', 'Enter', 'o', '?']) await dialog.getByTestId('shortcut').filter({ has: page.locator('kbd', { hasText: new RegExp(`^\\${key}$`) }) }).first().waitFor();
    await expectAccessible(page, 'shortcuts at 1440');
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'detached' });
    // Enter on a focused link is the link's own: it opens that conversation, not the marked one.
    await rows(page).filter({ hasText: 'Bob Buyer' }).getByRole('link').focus();
    await page.keyboard.press('Enter');
    await page.waitForURL(`${stack.console.url}/tickets/${tickets.bob}`);
    const newcomer = await dm('770005', 'eve', 'Eve Eater', 'My soup arrived cold.');
    await rows(page).filter({ hasText: 'Eve Eater' }).waitFor();
    await waitFor(async () => (await view(page, 'All open').getByTestId('view-count').innerText()) === '4', { what: 'the count to follow' });
    expect(newcomer).toBeTruthy();
  });

  it('shows a conversation that arrived while its live stream was still connecting', async () => {
    const late = await signedInPage(1440, 900);
    // The event stream is held back until the DM is on its ticket: its events went to no one.
    let release = () => undefined as void;
    const released = new Promise<void>((resolve) => (release = resolve));
    await late.route('**/api/events', async (route) => {
      await released;
      await route.continue();
    });
    await late.goto(`${stack.console.url}/inbox`);
    await rows(late).first().waitFor();
    await late.getByTestId('live-mode').filter({ hasText: 'Connecting' }).waitFor();
    await dm('770006', 'fay', 'Fay Feaster', 'The rider left my bag at the wrong door.');
    expect(await rows(late).filter({ hasText: 'Fay Feaster' }).count()).toBe(0);
    release();
    await late.getByTestId('live-mode').filter({ hasText: 'Live' }).waitFor();
    await rows(late).filter({ hasText: 'Fay Feaster' }).waitFor({ timeout: 15_000 });
    await late.close();
  });
});

describe("the agents' workspace on a phone (390 px)", () => {
  let page: Page;
  beforeAll(async () => {
    page = await signedInPage(390, 844);
  });

  it('shows one pane at a time, views, list, then the conversation with a way back, never wider than the screen', async () => {
    await page.goto(`${stack.console.url}/inbox`);
    await rows(page).first().waitFor();
    const header = page.locator('header');
    expect(await header.evaluate((element) => element.scrollWidth - element.clientWidth)).toBe(0);
    expect(await overflow(page)).toBe(0);
    await expect(page.getByTestId('conversation-pane').count()).resolves.toBe(0);
    await page.screenshot({ path: join(DOCS, 'workspace-390.png') });
    await expectAccessible(page, 'list at 390');

    await page.getByRole('button', { name: 'Show the views' }).first().click();
    await view(page, 'SLA breached').waitFor();
    expect(await overflow(page)).toBe(0);
    await expectAccessible(page, 'views at 390');
    await view(page, 'SLA breached').click();
    await page.waitForURL(/view=breached/);
    await rows(page).filter({ hasText: 'Ana Customer' }).waitFor();
    // Mantine slides the closed views out to the left.
    await waitFor(async () => ((await page.getByTestId('views').boundingBox())?.x ?? 0) + 220 <= 0, { what: 'the views to close' });

    await rows(page).filter({ hasText: 'Ana Customer' }).getByRole('link').click();
    await page.getByTestId('ticket-view').waitFor();
    await expect(page.getByTestId('conversation-list').count()).resolves.toBe(0);
    expect(await overflow(page)).toBe(0);
    await page.screenshot({ path: join(DOCS, 'workspace-390-conversation.png') });
    await expectAccessible(page, 'conversation at 390');
    await page.getByTestId('back-to-list').click();
    await page.waitForURL(/\/inbox\?view=breached$/);
    await rows(page).filter({ hasText: 'Ana Customer' }).waitFor();
    // The browser's Back goes to the conversation again, and Back once more to the list.
    await page.goBack();
    await page.getByTestId('ticket-view').waitFor();
    await page.goBack();
    await rows(page).filter({ hasText: 'Ana Customer' }).waitFor();

    await page.keyboard.press('?');
    await opened(page.getByRole('dialog', { name: 'Keyboard shortcuts' }));
    expect(await overflow(page)).toBe(0);
    await expectAccessible(page, 'shortcuts at 390');
  });
});
