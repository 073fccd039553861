/**
 * An image in a DM reply, in real Chromium against the real services: the composer's "Attach
 * image" checks the file (the browser by its type, auth by its bytes), shows it, uploads it (the console, auth, the platform's media upload)
 * and the reply carries it; the platform receives one DM naming the uploaded media, and the
 * timeline shows the image on the sent reply.
 */
import type { BrowserContext, Page } from 'playwright-core';
import { TINY_PNG, waitFor } from '@crm/testing';
import { launchBrowser, screenshot, seriousViolations, signInWithToken, type TestBrowser } from './testing/browser';
import { connectAccountThroughPages, type ConsoleStack, CRM_TOKEN, startConsoleStack } from './testing/stack';

const ANA = { id: '777301', screenName: 'ana_image', name: 'Ana Image' };

let stack: ConsoleStack;
let browser: TestBrowser;
let context: BrowserContext;
let page: Page;
let accountId = '';
let ticketId = '';

interface PlatformRequest {
  status: number | null;
  json: { text?: string; attachments?: { media_id: string }[] } | null;
}

/** What the platform accepted at a path. */
async function accepted(path: string): Promise<PlatformRequest[]> {
  const { data } = await stack.social.get('/control/platform/requests', { params: { path, method: 'POST' } });
  return (data.items as PlatformRequest[]).filter((entry) => entry.status !== null && entry.status < 300);
}

beforeAll(async () => {
  stack = await startConsoleStack();
  browser = await launchBrowser();
  context = await browser.browser.newContext({ viewport: { width: 1440, height: 900 } });
  page = await context.newPage();
  await page.goto(`${stack.console.url}/inbox`);
  await signInWithToken(page, CRM_TOKEN);
  await page.getByRole('heading', { name: 'Inbox' }).waitFor();
  accountId = await connectAccountThroughPages(page, stack, '@acme_image');
  expect([200, 201]).toContain((await stack.ticketing.put(`/v1/partner-configs/${accountId}`, {})).status);
  expect((await stack.social.post('/control/platform/users', ANA)).status).toBe(200);
  expect((await stack.social.post('/control/direct-messages', { from: ANA, to: accountId, text: 'The parcel arrived broken' })).data.webhookStatus).toBe(200);
  await waitFor(
    async () => {
      const { data } = await stack.ticketing.get(`/v1/tickets?accountId=${accountId}`);
      ticketId = (data.items as { id: string }[])[0]?.id ?? '';
      return ticketId !== '';
    },
    { what: "Ana's ticket" },
  );
}, 180_000);

afterAll(async () => {
  await browser?.close();
  await stack?.stop();
});

describe('an image in a DM reply', () => {
  it('refuses a file that is not an image in plain words, shows an attached image, removes it, and sends one DM carrying it', async () => {
    await page.goto(`${stack.console.url}/tickets/${ticketId}`);
    const fileInput = page.getByTestId('composer').locator('input[type="file"]');

    await fileInput.setInputFiles({ name: 'notes.txt', mimeType: 'text/plain', buffer: Buffer.from('not a picture') });
    await page.getByTestId('image-problem').filter({ hasText: 'notes.txt is not an image a DM can carry: choose a JPEG, PNG, WEBP or GIF image.' }).waitFor();

    // Named and typed as a PNG, but not one: auth goes by the bytes, and its sentence reaches the agent.
    await fileInput.setInputFiles({ name: 'fake.png', mimeType: 'image/png', buffer: Buffer.from('not a picture either') });
    await page.getByTestId('image-problem').filter({ hasText: 'This file is not an image a DM can carry: choose a JPEG, PNG, WEBP or GIF image.' }).waitFor();

    await fileInput.setInputFiles({ name: 'label.png', mimeType: 'image/png', buffer: TINY_PNG });
    await page.getByRole('img', { name: 'Attached image label.png' }).waitFor();
    expect(await page.getByTestId('image-problem').count()).toBe(0);
    await page.getByRole('button', { name: 'Remove image label.png' }).click();
    await page.getByRole('button', { name: 'Attach image' }).waitFor();

    await fileInput.setInputFiles({ name: 'label.png', mimeType: 'image/png', buffer: TINY_PNG });
    await page.getByRole('img', { name: 'Attached image label.png' }).waitFor();
    await page.getByLabel('Reply', { exact: true }).fill('Here is your return label.');
    await screenshot(page, 'reply-image-attached', false);
    expect(await seriousViolations(page)).toEqual([]);
    await page.getByRole('button', { name: 'Send reply' }).dblclick();

    const sent = page.getByTestId('activity').filter({ hasText: 'Here is your return label.' }).and(page.locator('[data-status="sent"]'));
    await sent.waitFor({ timeout: 30_000 });
    await sent.getByTestId('activity-attachments').getByText('Image attached').waitFor();
    await page.getByRole('button', { name: 'Attach image' }).waitFor();

    // Two uploads (the removed image and the sent one), one DM, naming the second.
    const uploads = await accepted('/2/media/upload');
    expect(uploads).toHaveLength(2);
    const dms = await accepted(`/2/dm_conversations/with/${ANA.id}/messages`);
    expect(dms).toHaveLength(1);
    expect(dms[0]!.json).toEqual({ text: 'Here is your return label.', attachments: [{ media_id: expect.stringMatching(/^[0-9]+$/) }] });
    // The ticket's reply names the media the DM carried.
    const { data: ticket } = await stack.ticketing.get(`/v1/tickets/${ticketId}`);
    const reply = (ticket.activities as { text: string | null; attachments: { mediaId: string | null }[] }[]).filter((activity) => activity.text === 'Here is your return label.');
    expect(reply.map((activity) => activity.attachments)).toEqual([[{ type: 'photo', url: null, mediaId: dms[0]!.json!.attachments![0]!.media_id }]]);
  });
});
