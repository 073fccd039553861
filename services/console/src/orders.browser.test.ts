/**
 * Order-aware tickets in real Chromium (Debian's, every protection on) against the real
 * services: an admin turns orders on in the partner configuration and tries the reference
 * tester; a DM naming "order 4711" is linked to that order by itself (the inbox chip and the
 * sidebar's card say so); the delivery company cancels the task and the ticket's timeline,
 * status and priority change live; Unlink takes the order off in one click; a delivered order
 * offers Resolve? on a pending ticket's timeline. The screens are
 * checked with axe-core and for overflow at 1440 and 390 px, and photographed.
 */
import { copyFileSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { BrowserContext, Page } from 'playwright-core';
import type pg from 'pg';
import { Exchanges, TaskStatusChanged, TrackingEventKeys } from '@crm/contracts';
import { testPool, waitFor } from '@crm/testing';
import { TestPublisher } from '@crm/ticketing/src/testing/harness';
import { launchBrowser, scrollPanesToTop, SCREENSHOTS, screenshot, seriousViolations, signInWithPassword, type TestBrowser } from './testing/browser';
import { connectAccountThroughPages, type ConsoleStack, startConsoleStack } from './testing/stack';

const ANA = { id: '777301', screenName: 'ana_orders', name: 'Ana Customer' };
const BEN = { id: '777302', screenName: 'ben_orders', name: 'Ben Customer' };
/** The agent at the desk: an admin, who may also connect the account and configure it. */
const PRIYA = { email: 'priya@orders.example', displayName: 'Priya Shah', role: 'admin', password: 'a long password for the desk' };

let stack: ConsoleStack;
let browser: TestBrowser;
let context: BrowserContext;
let page: Page;
let accountId = '';
let ticketId = '';
/** tracking's database: whether it follows the task yet. */
let trackingPool: pg.Pool;
/** Publishes on the broker as tracking does. */
let publisher: TestPublisher;

interface ListedTicket {
  id: string;
  status: string;
  priority: string;
  contact: { screenName: string } | null;
  order: { taskId: string; linkedBy: string; reference: string | null; status: string | null; eta: string | null } | null;
  activities?: { kind: string; text: string | null }[];
}

const ticketOf = async (id: string) => (await stack.ticketing.get(`/v1/tickets/${id}`)).data as ListedTicket;

/** Checks the page with axe and for anything wider than the screen at 1440 and 390 px; photographs it as `<name>-<width>` when asked. */
async function checkBothWidths(name: string, photograph = false): Promise<void> {
  for (const width of [1440, 390]) {
    await page.setViewportSize({ width, height: 900 });
    await scrollPanesToTop(page);
    await screenshot(page, `${name}-${width}`);
    expect(await seriousViolations(page)).toEqual([]);
    // Nothing wider than the screen (a table scrolling within its own box is not); a failure names what sticks out.
    const wider = await page.evaluate((limit) => {
      const doc = (globalThis as unknown as { document: { documentElement: { scrollWidth: number }; querySelectorAll: (s: string) => Iterable<{ getBoundingClientRect: () => { right: number }; tagName: string; className: unknown }> } }).document;
      if (doc.documentElement.scrollWidth <= limit) return [];
      return [...doc.querySelectorAll('body *')].filter((element) => element.getBoundingClientRect().right > limit + 1).map((element) => `${element.tagName}.${String(element.className)}`).slice(0, 8);
    }, width);
    expect(wider).toEqual([]);
    if (photograph) {
      mkdirSync(join(__dirname, '..', 'docs'), { recursive: true });
      copyFileSync(join(SCREENSHOTS, `${name}-${width}.png`), join(__dirname, '..', 'docs', `${name}-${width}.png`));
    }
  }
  await page.setViewportSize({ width: 1440, height: 900 });
}

beforeAll(async () => {
  // tracking looks at the followed tasks every second, and both services relay their outboxes quickly.
  stack = await startConsoleStack({
    tracking: { FOLLOW_POLL_INTERVAL_SECONDS: '1', FOLLOW_ROUND_MS: '100', OUTBOX_RELAY_INTERVAL_MS: '200' },
    ticketing: { OUTBOX_RELAY_INTERVAL_MS: '200', ORDER_FINDING_INTERVAL_MS: '200' },
  });
  browser = await launchBrowser();
  // An agent in Paris: the ETA is on their clock.
  context = await browser.browser.newContext({ viewport: { width: 1440, height: 900 }, timezoneId: 'Europe/Paris', locale: 'en-GB' });
  page = await context.newPage();
  trackingPool = testPool(stack.tracking.databaseUrl, { max: 1 });
  publisher = new TestPublisher(stack.tracking.amqpUrl);
  await publisher.ready();

  expect((await stack.auth.post('/v1/agents', PRIYA)).status).toBe(201);
  await page.goto(`${stack.console.url}/inbox`);
  await signInWithPassword(page, PRIYA.email, PRIYA.password);
  await page.getByRole('heading', { name: 'Inbox' }).waitFor();
  accountId = await connectAccountThroughPages(page, stack, '@acme_orders');
  for (const user of [ANA, BEN]) expect((await stack.social.post('/control/platform/users', user)).status).toBe(200);

  // The delivery company: tracking knows client demo and its task 4711, on its way.
  await stack.tracking.enableClient('demo');
  await stack.tracking.simTask({ clientId: 'demo', taskId: '4711', elapsedSeconds: 40 });
  await stack.tracking.simTask({ clientId: 'demo', taskId: '4712', elapsedSeconds: 40 });
}, 180_000);

afterAll(async () => {
  await publisher?.close();
  await trackingPool?.end();
  await browser?.close();
  await stack?.stop();
});

describe('order-aware tickets', () => {
  it('turns orders on in the partner configuration, refusals beside their fields, and finds references with the tester', async () => {
    await page.reload();
    await page.getByTestId('account-row').filter({ hasText: '@acme_orders' }).getByRole('button', { name: 'Configure' }).click();
    const section = page.getByTestId('orders-config');
    await section.getByRole('switch', { name: /Link tickets to the orders/ }).check();
    await section.getByTestId('default-references').filter({ hasText: 'Defaults in use' }).waitFor();
    // A tracking client and a slip time are asked for before anything is sent.
    await section.getByLabel(/^ETA slip/).fill('');
    await page.getByRole('button', { name: 'Save configuration' }).click();
    await section.getByText('Tracking client is required', { exact: true }).waitFor();
    await section.getByText('Slip time is required', { exact: true }).waitFor();
    await section.getByLabel(/^Tracking client/).fill('demo');
    await section.getByLabel(/^ETA slip/).fill('30');
    // A pattern ticketing refuses is told beside it, in the words of its field errors.
    await section.getByRole('button', { name: 'Add pattern' }).click();
    await section.getByLabel(/^Pattern 1/).fill('ref-([0-9]+');
    await page.getByRole('button', { name: 'Save configuration' }).click();
    await section.getByRole('textbox', { name: /^Pattern 1/ }).and(page.locator('[aria-invalid="true"]')).waitFor();
    await page.getByTestId('save-result').filter({ hasText: /^Not saved: Pattern/ }).waitFor();
    await section.getByRole('button', { name: 'Remove pattern 1' }).click();
    await page.getByRole('button', { name: 'Save configuration' }).click();
    await page.getByTestId('save-result').filter({ hasText: 'Saved.' }).waitFor();
    const saved = (await stack.ticketing.get(`/v1/partner-configs/${accountId}`)).data.orders;
    expect(saved).toMatchObject({ trackingClientId: 'demo', rules: { slipMinutes: 30, reopenOnFailure: true } });

    const tester = page.getByTestId('order-reference-tester');
    await tester.getByLabel('Customer text to look for orders in').fill('Hi, where is order 4711? My other one is #9999');
    await tester.getByRole('button', { name: 'Find orders' }).click();
    const found = tester.getByTestId('reference-match');
    await found.first().waitFor();
    expect(await found.count()).toBe(2);
    await found.and(page.locator('[data-exists="true"]')).filter({ hasText: '“order 4711” → task 4711' }).getByText('Task found').waitFor();
    await found.and(page.locator('[data-exists="false"]')).filter({ hasText: '→ task 9999' }).getByText('No such task').waitFor();
    await checkBothWidths('order-configuration');
  });

  it('links a DM naming "order 4711" to that order by itself: the inbox chip and the order card say so', async () => {
    await page.goto(`${stack.console.url}/inbox`);
    await page.getByTestId('live-mode').filter({ hasText: 'Live' }).waitFor();
    expect((await stack.social.post('/control/direct-messages', { from: ANA, to: accountId, text: 'Hello, where is my order 4711? It should be here by now.' })).data.webhookStatus).toBe(200);
    const row = page.getByTestId('ticket-row').filter({ hasText: ANA.name });
    await row.getByTestId('order-chip').filter({ hasText: /^Order 4711/ }).waitFor({ timeout: 30_000 });
    ticketId = (await row.getAttribute('data-ticket-id'))!;
    // Once tracking follows the task, the rider is held up: the chip follows, live, with the
    // order's status and the new ETA on the agent's clock (Paris), and the timeline says so.
    await waitFor(async () => (await trackingPool.query("SELECT 1 FROM followed_tasks WHERE client_id = 'demo' AND task_id = '4711' AND status IS NOT NULL")).rowCount === 1, { what: 'tracking to follow task 4711' });
    // Linked with its status and ETA already (tracking's live view at link time); the delay moves the ETA.
    const linkedEta = (await ticketOf(ticketId)).order!.eta;
    expect((await stack.tracking.sim.post('/control/tasks/demo/4711/delay', { minutes: 10 })).status).toBe(200);
    const order = (await waitFor(async () => {
      const current = (await ticketOf(ticketId)).order!;
      return current.eta !== linkedEta ? current : null;
    }, { timeoutMs: 30_000, what: 'the ETA moved by the delay' }))!;
    expect(order).toMatchObject({ taskId: '4711', linkedBy: 'auto', reference: 'order 4711', status: 'out_for_delivery' });
    // The ETA on the agent's clock (Paris), not the server's.
    const parisEta = new Date(order.eta!).toLocaleTimeString('en-GB', { hour: '2-digit', minute: '2-digit', timeZone: 'Europe/Paris' });
    await row.getByTestId('order-chip').filter({ hasText: `Order 4711 · Out for delivery · ETA ${parisEta}` }).waitFor();
    await row.getByRole('link').click();
    const card = page.getByTestId('order-summary');
    await card.getByTestId('order-linked-by').filter({ hasText: 'Linked automatically from “order 4711”' }).waitFor();
    await card.getByTestId('order-status').filter({ hasText: 'Out for delivery' }).waitFor();
    await card.getByTestId('order-eta').filter({ hasText: `ETA ${parisEta}` }).waitFor();
    // The timeline's entry says its times on the agent's clock too.
    await page.getByTestId('ticket-view').locator('[data-testid="activity"][data-kind="order_update"]').filter({ hasText: new RegExp(`^ETA moved \\d{2}:\\d{2} -> ${parisEta}`) }).waitFor();
    await checkBothWidths('order-aware', true);
  });

  it('shows the cancelled delivery on the timeline and the pending ticket reopened as urgent, live', async () => {
    // The agent had answered and set it pending; the cancellation reopens it.
    expect((await stack.ticketing.patch(`/v1/tickets/${ticketId}`, { status: 'pending' })).status).toBe(200);
    const pane = page.getByTestId('ticket-view');
    await pane.getByText('pending', { exact: true }).first().waitFor();
    expect((await stack.tracking.sim.post('/control/tasks/demo/4711/cancel', {})).status).toBe(200);
    await pane.locator('[data-testid="activity"][data-kind="order_update"]').waitFor({ timeout: 30_000 });
    await page.getByTestId('order-summary').getByTestId('order-status').filter({ hasText: 'Cancelled' }).waitFor();
    await pane.getByText('open', { exact: true }).first().waitFor();
    const row = page.locator(`[data-testid="ticket-row"][data-ticket-id="${ticketId}"]`);
    await row.getByText('urgent', { exact: true }).waitFor();
    await row.getByTestId('order-chip').filter({ hasText: 'Order 4711 · Cancelled' }).waitFor();
    expect(await ticketOf(ticketId)).toMatchObject({ status: 'open', priority: 'urgent' });
  });

  it('unlinks the order in one click', async () => {
    const unlink = page.getByTestId('order-summary').getByRole('button', { name: 'Unlink', exact: true });
    await unlink.click();
    await page.getByTestId('order-summary').waitFor({ state: 'detached' });
    expect((await ticketOf(ticketId)).order).toBeNull();
    await page.locator(`[data-testid="ticket-row"][data-ticket-id="${ticketId}"]`).getByTestId('order-chip').waitFor({ state: 'detached' });
  });

  it("offers Resolve? on the entry of a delivered order while the ticket is pending, and resolves it in one click", async () => {
    await page.goto(`${stack.console.url}/inbox`);
    expect((await stack.social.post('/control/direct-messages', { from: BEN, to: accountId, text: 'Any news about order #4712?' })).data.webhookStatus).toBe(200);
    const row = page.getByTestId('ticket-row').filter({ hasText: BEN.name });
    await row.getByTestId('order-chip').filter({ hasText: /^Order 4712/ }).waitFor({ timeout: 30_000 });
    const benTicket = (await row.getAttribute('data-ticket-id'))!;
    await row.getByRole('link').click();
    await waitFor(async () => (await trackingPool.query("SELECT 1 FROM followed_tasks WHERE client_id = 'demo' AND task_id = '4712' AND status IS NOT NULL")).rowCount === 1, { what: 'tracking to follow task 4712' });
    expect((await stack.ticketing.patch(`/v1/tickets/${benTicket}`, { status: 'pending' })).status).toBe(200);
    // The rider hands the order over. The simulator's tasks take their trip in real time, so the
    // delivery is announced as tracking announces it: task.status_changed on tracking.events,
    // naming the ticket as the task's follower.
    const delivered = { eventId: `demo:4712:delivered:${benTicket}`, clientId: 'demo', taskId: '4712', followers: [benTicket], occurredAt: new Date().toISOString(), from: 'out_for_delivery' as const, to: 'delivered' as const, providerStatus: 'COMPLETED', statusAt: new Date().toISOString() };
    await publisher.envelope(Exchanges.trackingEvents, TrackingEventKeys.statusChanged, TaskStatusChanged, delivered);
    const resolve = page.getByTestId('ticket-view').getByRole('button', { name: 'Resolve?' });
    await resolve.waitFor({ timeout: 30_000 });
    await page.getByTestId('order-summary').getByTestId('order-status').filter({ hasText: 'Delivered' }).waitFor();
    await resolve.click();
    await waitFor(async () => (await ticketOf(benTicket)).status === 'resolved', { what: "Ben's ticket resolved" });
    await resolve.waitFor({ state: 'detached' });
  });
});
