/**
 * The agent's screens in real Chromium (Debian's, driven by playwright-core) against the real
 * services in this process: auth, ticketing, webhook-ingest, tracking, the social platform
 * and tracking provider simulators, on the real RabbitMQ and PostgreSQL. Accounts connect
 * with OAuth 1.0a and OAuth 2.0 through the simulator's pages. Each screen is
 * photographed into screenshots/ and checked with axe-core (no serious or critical finding).
 */
import { createHash, randomUUID } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { BrowserContext, Page } from 'playwright-core';
import { closeServer, portOf } from '@crm/http';
import { waitFor } from '@crm/testing';
import { launchBrowser, screenshot, seriousViolations, type TestBrowser } from './testing/browser';
import { CRM_TOKEN, startConsoleStack, type ConsoleStack } from './testing/stack';

let stack: ConsoleStack;
let browser: TestBrowser;
let context: BrowserContext;
let page: Page;
let host: Server;
let hostUrl = '';
let accountId = '';
let ticketId = '';

/** A page of "the CRM" that frames whatever URL it is given (the launch link). */
async function startHostPage(): Promise<void> {
  host = createServer((req, res) => {
    const src = new URL(req.url ?? '/', 'http://host').searchParams.get('src') ?? '';
    res.setHeader('content-type', 'text/html');
    res.end(`<!doctype html><html lang="en"><title>CRM</title><main><h1>CRM</h1><iframe title="Support console" src="${src.replace(/"/g, '&quot;')}" width="1100" height="900"></iframe></main></html>`);
  });
  await new Promise<void>((resolve) => host.listen(0, '127.0.0.1', resolve));
  hostUrl = `http://127.0.0.1:${portOf(host)}`;
}

beforeAll(async () => {
  await startHostPage();
  // Tiles from a server that is not there: the map must still draw the route, the markers and a scale.
  // Few sign-in failures per address, so the page's 429 shows after a handful.
  stack = await startConsoleStack({ console: { FRAME_ANCESTORS: hostUrl, TILE_URL: 'http://127.0.0.1:9/{z}/{x}/{y}.png' }, auth: { AUTH_FAILURES_PER_MINUTE: '4' } });
  browser = await launchBrowser();
  context = await browser.browser.newContext({ viewport: { width: 1280, height: 900 } });
  page = await context.newPage();
}, 180_000);

afterAll(async () => {
  await browser?.close();
  await stack?.stop();
  if (host) await closeServer(host);
});

const consoleUrl = () => stack.console.url;

/** Deliveries for the account received at the given times, in ticketing's raw log as its consumer would have logged them. */
async function logDeliveries(accountId: string, receivedAt: Date[]): Promise<void> {
  for (const at of receivedAt) {
    const body = `{"for_user_id":"${accountId}","at":"${at.toISOString()}","n":"${randomUUID()}"}`;
    const sha = createHash('sha256').update(body).digest('hex');
    await stack.ticketingService.pool.query(
      `INSERT INTO raw_log (delivery_id, env_name, kind, for_user_id, received_at, logged_at, body_sha256, message) VALUES ($1, 'console', 'direct_message_events', $2, $3, $3, $4, convert_to($5, 'UTF8'))`,
      [`delivery-${sha}`, accountId, at, sha, body],
    );
  }
}

async function expectAccessible(name: string, wholePage = true): Promise<void> {
  await screenshot(page, name, wholePage);
  expect(await seriousViolations(page)).toEqual([]);
}

describe("the agent's console", () => {
  it('signs in with an API credential (development), refusing a wrong one', async () => {
    await page.goto(`${consoleUrl()}/inbox`);
    await page.getByRole('button', { name: 'Use an API token instead' }).click();
    await page.getByLabel('API credential').fill('not-a-valid-token');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('alert').filter({ hasText: 'not accepted' }).waitFor();
    await expectAccessible('sign-in');
    await page.getByLabel('API credential').fill(CRM_TOKEN);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('heading', { name: 'Inbox' }).waitFor();
    const cookie = (await context.cookies()).find((c) => c.name === 'console_session');
    expect(cookie).toMatchObject({ httpOnly: true, sameSite: 'Lax' });
    expect(cookie!.value).not.toContain(CRM_TOKEN);
  });

  it('connects an account through the OAuth flow and configures a routing rule, errors beside their field, and a search query with its state', async () => {
    await page.goto(`${consoleUrl()}/accounts`);
    await page.getByRole('button', { name: 'Connect with OAuth 1.0a' }).click();
    await page.waitForURL(/\/oauth\/authorize\?oauth_token=/);
    await page.locator('input[name="user"]').fill('@acme_support');
    await page.getByRole('button', { name: 'Authorize app' }).click();
    await page.waitForURL(/\/accounts\?/);
    accountId = new URL(page.url()).searchParams.get('accountId')!;
    expect((await stack.auth.post('/v1/webhooks', { ownerAccountId: accountId })).status).toBe(201);
    expect((await stack.auth.put(`/v1/accounts/${accountId}/subscription`)).status).toBe(200);
    await page.reload();
    const row = page.getByTestId('account-row').filter({ hasText: '@acme_support' });
    await row.getByText('Connected').waitFor();
    await row.getByRole('cell', { name: 'OAuth 1.0a', exact: true }).waitFor();
    await row.getByRole('button', { name: 'Configure' }).click();

    await page.getByRole('button', { name: 'Add rule' }).click();
    await page.getByLabel('Rule name').fill('Orders');
    await page.getByRole('button', { name: 'Save configuration' }).click();
    // ticketing names /routing/rules/0/queue; the sentence shows under that rule's Queue field.
    await page.getByTestId('rule').getByText('Queue is required').waitFor();
    await page.getByTestId('save-result').filter({ hasText: 'Not saved: Queue is required.' }).waitFor();
    // A cleared number stays empty and is asked for, never saved as 0.
    await page.getByLabel('First response (minutes)').fill('');
    await page.getByRole('button', { name: 'Save configuration' }).click();
    await page.getByText('First response time is required', { exact: true }).waitFor();
    expect(await page.getByLabel('First response (minutes)').inputValue()).toBe('');
    await page.getByLabel('First response (minutes)').fill('45');

    await page.getByTestId('rule').getByLabel('Queue').fill('deliveries');
    await page.getByTestId('rule').getByLabel('Folder').fill('orders');
    await page.getByTestId('rule').getByLabel('Keywords').fill('order, parcel');
    await page.getByTestId('rule').getByLabel('Keywords').blur();
    await page.getByRole('button', { name: 'Save configuration' }).click();
    await page.getByTestId('save-result').filter({ hasText: 'Saved.' }).waitFor();
    const orders = { name: 'Orders', when: { keywords: ['order', 'parcel'] }, queue: 'deliveries', folder: 'orders' };
    const savedRules = async () => (await stack.ticketing.get(`/v1/partner-configs/${accountId}`)).data.routing.rules;
    expect(await savedRules()).toEqual([orders]);
    expect((await stack.ticketing.get(`/v1/partner-configs/${accountId}`)).data.sla.firstResponseMinutes).toBe(45);

    // A second rule, moved first, saved; then removed again.
    await page.getByRole('button', { name: 'Add rule' }).click();
    const second = page.getByTestId('rule').nth(1);
    await second.getByLabel('Rule name').fill('Refunds');
    await second.getByLabel('Queue').fill('billing');
    await second.getByLabel('Senders').fill('@bob');
    await second.getByLabel('Senders').blur();
    await page.getByRole('button', { name: 'Move rule 2 up' }).click();
    await page.getByRole('button', { name: 'Save configuration' }).click();
    await waitFor(async () => (await savedRules()).length === 2, { what: 'two saved rules' });
    expect(await savedRules()).toEqual([{ name: 'Refunds', when: { senders: ['@bob'] }, queue: 'billing', folder: 'inbox' }, orders]);
    await page.getByTestId('rule').first().getByRole('button', { name: 'Remove' }).click();
    await page.getByRole('button', { name: 'Save configuration' }).click();
    await waitFor(async () => (await savedRules()).length === 1, { what: 'the removal saved' });
    expect(await savedRules()).toEqual([orders]);

    await page.getByLabel('Message').fill('where is my order 42?');
    await page.getByRole('button', { name: 'Test routing' }).click();
    await expect(page.getByTestId('route-test-result').innerText()).resolves.toBe('Rule "Orders" → queue deliveries, folder orders');
    await expectAccessible('configuration');

    // A saved search query shows ticketing's state of it; taken out again, it shows none.
    await page.getByLabel('One query per line').fill('parcel never came');
    await page.getByRole('button', { name: 'Save configuration' }).click();
    await page.getByTestId('search-query-state').filter({ hasText: /^parcel never came: (not run yet|last run)/ }).waitFor();
    await page.getByLabel('One query per line').fill('');
    await page.getByRole('button', { name: 'Save configuration' }).click();
    await page.getByTestId('search-query-state').waitFor({ state: 'detached' });
  });

  it('shows a new DM in the inbox without a reload, in the queue of the matching rule', async () => {
    await page.getByRole('link', { name: 'Inbox', exact: true }).click();
    await page.getByRole('heading', { name: 'Inbox' }).waitFor();
    // ticketing's change stream, relayed: new tickets come without a reload or polling.
    await page.getByTestId('live-mode').filter({ hasText: 'Live' }).waitFor();
    const sent = await stack.social.post('/control/direct-messages', { from: { id: '777001', screenName: 'ana', name: 'Ana Customer' }, to: accountId, text: 'where is my order 42?' });
    expect(sent.data.webhookStatus).toBe(200);
    const row = page.getByTestId('ticket-row').filter({ hasText: '@ana' });
    await row.waitFor();
    expect(await row.getByTestId('ticket-queue').innerText()).toBe('deliveries / orders');
    await expectAccessible('inbox');
    await row.getByRole('link').click();
    await page.getByTestId('ticket-view').waitFor();
    ticketId = page.url().split('/tickets/')[1]!;
  });

  it('sends a reply once however often it is clicked, and shows it pending, then sent', async () => {
    await page.getByLabel('Reply', { exact: true }).fill('Your order 42 left the warehouse today.');
    await page.getByRole('button', { name: 'Send reply' }).dblclick();
    const reply = page.getByTestId('activity').filter({ hasText: 'Your order 42 left the warehouse today.' });
    await reply.and(page.locator('[data-status="sent"]')).waitFor({ timeout: 30_000 });
    const activities = (await stack.ticketing.get(`/v1/tickets/${ticketId}`)).data.activities as { text: string | null }[];
    expect(activities.filter((activity) => activity.text === 'Your order 42 left the warehouse today.')).toHaveLength(1);
    await expectAccessible('ticket');
  });

  it("links an order; the map pop-up shows the rider moving, refreshes while open, and Esc closes it", async () => {
    await stack.tracking.enableClient('demo');
    await stack.tracking.simTask({ clientId: 'demo', taskId: 'order-42', elapsedSeconds: 60 });
    await page.getByLabel('Tracking client').fill('demo');
    await page.getByLabel('Task id').fill('order-42');
    await page.getByRole('button', { name: 'Link order' }).click();
    const track = page.getByRole('button', { name: 'Track order' });
    await track.click();
    const position = page.getByTestId('rider-position');
    await position.filter({ hasText: 'Rider at' }).waitFor();
    const before = { text: await position.innerText(), d: await page.getByTestId('map').locator('path.rider-marker').getAttribute('d') };
    expect(await page.getByTestId('task-status').innerText()).toMatch(/STARTED/);
    await stack.tracking.sim.post('/control/tasks/demo/order-42/advance', { seconds: 30 });
    await waitFor(async () => (await position.innerText()) !== before.text, { what: 'the rider to move on the next refresh' });
    await waitFor(async () => (await page.getByTestId('map').locator('path.rider-marker').getAttribute('d')) !== before.d, { what: 'the marker to move' });
    await expect(page.getByTestId('route-distance').innerText()).resolves.toMatch(/Distance: [0-9.]+ k?m/);
    await expect(page.getByTestId('eta').innerText()).resolves.toMatch(/ETA: .*\([0-9]+ min\)/);
    await page.getByText('Map tiles could not load').waitFor();
    await page.getByRole('button', { name: 'Record evidence snapshot' }).click();
    await page.getByTestId('snapshot-result').waitFor();
    const timeline = (await stack.ticketing.get(`/v1/tickets/${ticketId}`)).data.activities as { kind: string; data: { evidence?: Record<string, unknown> } | null }[];
    const snapshot = timeline.find((activity) => activity.kind === 'evidence_snapshot');
    expect(snapshot?.data?.evidence).toMatchObject({ clientId: 'demo', taskId: 'order-42', rider: { lat: expect.any(Number), lng: expect.any(Number) }, distanceMeters: expect.any(Number) });
    await expectAccessible('map-popup', false);
    await page.keyboard.press('Escape');
    await page.getByTestId('map-modal').waitFor({ state: 'detached' });
    // Mantine hands focus back a moment after the modal leaves the page.
    const focused = () => page.evaluate(() => (globalThis as unknown as { document: { activeElement: { textContent: string } | null } }).document.activeElement?.textContent);
    await waitFor(async () => (await focused()) === 'Track order', { what: 'focus back on the Track order button' });
    // The inbox's row beside names the linked order (the list carries no task status).
    await page.locator(`[data-testid="ticket-row"][data-ticket-id="${ticketId}"]`).getByTestId('order-chip').filter({ hasText: 'Order order-42' }).waitFor();
  });

  it('shows the last known position marked stale while the provider is down, and a finished task as finished', async () => {
    const track = page.getByRole('button', { name: 'Track order' });
    await track.click();
    await page.getByTestId('rider-position').filter({ hasText: 'Rider at' }).waitFor();
    await stack.tracking.sim.put('/control/failures', { target: 'provider', mode: 'error', status: 503, clientId: 'demo' });
    await page.getByTestId('map-state').filter({ hasText: 'Tracking provider unavailable: last known position' }).waitFor();
    await page.getByTestId('stale-badge').waitFor();
    await page.getByTestId('rider-position').filter({ hasText: 'Rider at' }).waitFor();
    await stack.tracking.sim.delete('/control/failures');
    expect((await stack.tracking.sim.post('/control/tasks/demo/order-42/cancel', {})).status).toBe(200);
    await page.getByTestId('map-state').filter({ hasText: 'Task finished' }).waitFor();
    expect(await page.getByTestId('rider-position').innerText()).toBe('No rider position');
    await page.getByRole('button', { name: 'Close the map' }).click();
    await page.getByTestId('map-modal').waitFor({ state: 'detached' });
  });

  it('opens one ticket in an iframe of an allowed origin through a single-use launch link', async () => {
    const refused = await fetch(`${consoleUrl()}/v1/launch-links`, { method: 'POST', headers: { 'content-type': 'application/json', authorization: 'Bearer wrong' }, body: JSON.stringify({ ticketId }) });
    expect(refused.status).toBe(401);
    const answer = await fetch(`${consoleUrl()}/v1/launch-links`, { method: 'POST', headers: { 'content-type': 'application/json', authorization: `Bearer ${CRM_TOKEN}` }, body: JSON.stringify({ ticketId }) });
    expect(answer.status).toBe(201);
    const { url } = (await answer.json()) as { url: string };
    const embedContext = await browser.browser.newContext({ viewport: { width: 1200, height: 1000 } });
    const crmPage = await embedContext.newPage();
    await crmPage.goto(`${hostUrl}/?src=${encodeURIComponent(url)}`);
    const frame = crmPage.frameLocator('iframe');
    await frame.getByTestId('ticket-view').waitFor();
    await frame.getByText('Your order 42 left the warehouse today.').waitFor();
    await screenshot(crmPage, 'embedded');
    const embedded = crmPage.frames().find((f) => f.url().includes('/embed/tickets/'))!;
    // The launch session reaches its ticket only.
    expect(await embedded.evaluate(async () => (await fetch('/api/tickets')).status)).toBe(403);
    expect((await fetch(url, { redirect: 'manual' })).status).toBe(401);
    await embedContext.close();
  });

  it('refuses writes without the CSRF token, and an order of a client tracking does not know in words an agent can act on', async () => {
    const status = await page.evaluate(async (id) => (await fetch(`/api/tickets/${id}/replies`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"text":"x"}' })).status, ticketId);
    expect(status).toBe(403);
    await page.getByLabel('Tracking client').fill('nobody');
    await page.getByRole('button', { name: 'Link order' }).click();
    await page.getByRole('alert').filter({ hasText: "Tracking has no client named 'nobody'. Check the client's name on the order" }).waitFor();
    // The order linked before stays.
    await page.getByTestId('order-summary').filter({ hasText: 'order-42 (demo)' }).waitFor();
    expect(await page.getByText('/v1/').count()).toBe(0);
  });

  it("connects an account with OAuth 2.0 through the platform's consent page; a silent account shows its badge without a reload", async () => {
    await page.goto(`${consoleUrl()}/accounts`);
    await page.getByText('OAuth 2.0 is recommended').waitFor();
    await page.getByRole('button', { name: 'Connect with OAuth 2.0' }).click();
    // auth's start link sends the browser on to the platform's OAuth 2.0 consent page, with PKCE.
    await page.waitForURL(/\/i\/oauth2\/authorize\?/);
    const consent = new URL(page.url());
    expect(consent.searchParams.get('code_challenge_method')).toBe('S256');
    expect(consent.searchParams.get('scope')).toContain('offline.access');
    await page.locator('input[name="user"]').fill('@acme_orders');
    await page.getByRole('button', { name: 'Authorize app' }).click();
    await page.waitForURL(/\/accounts\?/);
    const oauth2Account = new URL(page.url()).searchParams.get('accountId')!;
    expect((await stack.auth.get(`/v1/accounts/${oauth2Account}`)).data).toMatchObject({ screenName: 'acme_orders', protocol: 'oauth2' });
    const row = page.getByTestId('account-row').filter({ hasText: '@acme_orders' });
    await row.getByRole('cell', { name: 'OAuth 2.0', exact: true }).waitFor();
    await row.getByText('Connected').waitFor();

    // It usually gets deliveries (three, hours ago, in ticketing's raw log as the consumer logs them) and has had none since: silent.
    await waitFor(async () => (await stack.ticketing.get(`/v1/accounts/${oauth2Account}`)).data?.status === 'connected', { what: 'ticketing to know the account' });
    const receivedAt = [4, 3, 2].map((hours) => new Date(Date.now() - hours * 3_600_000));
    await logDeliveries(oauth2Account, receivedAt);
    expect(await row.getByTestId('silence-badge').count()).toBe(0);
    await stack.ticketingService.silenceChecks.runNow();
    const badge = row.getByTestId('silence-badge');
    await badge.waitFor();
    const { silence } = (await stack.ticketing.get(`/v1/accounts/${oauth2Account}`)).data as { silence: { silentSince: string; detectedAt: string } };
    expect(silence.silentSince).toBe(receivedAt[2]!.toISOString());
    // textContent: the badge's style shows it in capitals.
    expect(await badge.textContent()).toMatch(/^Silent since \S/);
    expect(await badge.getAttribute('title')).toMatch(/; detected \S/);
    // The account that got a DM a moment ago is not silent.
    expect(await page.getByTestId('account-row').filter({ hasText: '@acme_support' }).getByTestId('silence-badge').count()).toBe(0);
    await expectAccessible('accounts');
  });

  it("shows the sign-in page once the agent's credential is revoked", async () => {
    const agent = await stack.credentials.create({ name: 'night desk', scopes: ['tickets:read'] });
    const agentContext = await browser.browser.newContext({ viewport: { width: 1280, height: 900 } });
    const agentPage = await agentContext.newPage();
    await agentPage.goto(`${consoleUrl()}/signin`);
    await agentPage.getByRole('button', { name: 'Use an API token instead' }).click();
    await agentPage.getByLabel('API credential').fill(agent.token);
    await agentPage.getByRole('button', { name: 'Sign in' }).click();
    await agentPage.getByRole('heading', { name: 'Inbox' }).waitFor();
    await agentPage.getByText('Signed in as night desk').waitFor();
    await stack.credentials.revoke(agent.id);
    // The event stream ends; the page's next call is refused with session_ended: the sign-in shows, not "Signed in".
    await agentPage.getByRole('button', { name: 'Sign in' }).waitFor({ timeout: 10_000 });
    expect(await agentPage.getByText('Signed in as').count()).toBe(0);
    await agentContext.close();
  });

  it('shows too many failed sign-ins as such, with when to try again', async () => {
    const signInContext = await browser.browser.newContext({ viewport: { width: 1280, height: 900 } });
    const signInPage = await signInContext.newPage();
    await signInPage.goto(`${consoleUrl()}/signin`);
    await signInPage.getByRole('button', { name: 'Use an API token instead' }).click();
    let status = 0;
    for (let attempt = 0; attempt < 8 && status !== 429; attempt++) {
      await signInPage.getByLabel('API credential').fill(`crm_aaaaaaaaaaaaaaaa_${'y'.repeat(43)}`);
      const answered = signInPage.waitForResponse((response) => response.url().endsWith('/api/session') && response.request().method() === 'POST');
      await signInPage.getByRole('button', { name: 'Sign in' }).click();
      status = (await answered).status();
    }
    expect(status).toBe(429);
    await signInPage.getByRole('alert').filter({ hasText: /too many attempts; try again in \d+ s/ }).waitFor();
    await screenshot(signInPage, 'sign-in-too-many');
    await signInContext.close();
  });
});
