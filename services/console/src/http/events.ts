import { Readable } from 'node:stream';
import type { Express } from 'express';
import { Refusal } from '@crm/http';
import type { Logger } from '@crm/logging';
import type { Upstream } from '../adapters/upstream';
import { relayedRefusal, sessionEnded, tooManyRequests, type SessionSettings } from './session';

/** The `ticketId` in an event's JSON data; undefined for comments (keep-alives) and other blocks. */
function ticketIdOf(block: string): string | undefined {
  const data = block
    .split('\n')
    .filter((line) => line.startsWith('data:'))
    .map((line) => line.slice(5).trimStart())
    .join('\n');
  try {
    const parsed = JSON.parse(data) as { ticketId?: unknown };
    return typeof parsed.ticketId === 'string' ? parsed.ticketId : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Relays ticketing's server-sent events (`GET /v1/events`) to the browser, opened with the
 * session's token: ticketing sends only what the agent may see and ends the stream when the
 * session is revoked or ends, and so does the relay. When ticketing has no stream (404) the
 * browser is told so with 501 `events_unavailable` and polls instead; a launch-link session
 * only hears of its ticket.
 */
export function eventRoutes(app: Express, ticketing: Upstream, settings: SessionSettings, logger: Logger): void {
  app.get('/api/events', async (req, res) => {
    const session = req.session!;
    const abort = new AbortController();
    res.on('close', () => abort.abort());
    let upstream: Response;
    try {
      upstream = await ticketing.stream(session.token, '/v1/events', abort.signal);
    } catch {
      throw new Refusal('upstream_failed', 'upstream_unavailable', 'ticketing cannot be reached for live events');
    }
    if (upstream.status === 401) throw sessionEnded(res, settings, Boolean(session.ticketId));
    if (upstream.status === 429) throw tooManyRequests({ status: 429, body: await upstream.json().catch(() => null), headers: upstream.headers }, 'rate_limited');
    if (upstream.status === 404) throw new Refusal('not_implemented', 'events_unavailable', 'ticketing has no event stream; poll instead');
    if (upstream.status >= 400 && upstream.status < 500) {
      throw relayedRefusal({ status: upstream.status, body: await upstream.json().catch(() => null), headers: upstream.headers }, 'events_refused', `ticketing refused the event stream (${upstream.status})`);
    }
    if (!upstream.ok || !upstream.body) throw new Refusal('upstream_failed', 'upstream_unavailable', `ticketing's event stream answered ${upstream.status}`);
    res.status(200).set({ 'content-type': 'text/event-stream', 'cache-control': 'no-store', connection: 'keep-alive', 'x-accel-buffering': 'no' });
    res.flushHeaders();
    const only = session.ticketId;
    const source = Readable.fromWeb(upstream.body as import('node:stream/web').ReadableStream<Uint8Array>);
    let buffered = '';
    source.on('data', (chunk: Buffer) => {
      buffered += chunk.toString('utf8');
      const blocks = buffered.split('\n\n');
      buffered = blocks.pop() ?? '';
      for (const block of blocks) if (!only || ticketIdOf(block) === only) res.write(`${block}\n\n`);
    });
    source.on('error', () => res.end());
    source.on('end', () => res.end());
    res.on('close', () => {
      abort.abort();
      logger.debug('event relay closed');
    });
  });
}
