import type { RequestHandler, Response } from 'express';
import { principalOf, type Principal } from '@crm/access';
import { Refusal } from '@crm/http';
import type { ChangeNotice } from '../adapters/db/crm-events';
import { eventStreamsDropped, eventStreamsOpen } from '../adapters/metrics';
import { AccountNotFound } from '../operations/errors';
import type { LiveEvents } from '../operations/live-events';
import { platformIdParam } from './params';

/** What a refused stream is told to wait before trying again. */
const RETRY_AFTER_SECONDS = 30;

export interface StreamLimits {
  /** Streams one principal (credential or session) may hold open in this process. */
  perPrincipal: number;
  /** Streams this process holds open at most. */
  perProcess: number;
  /** Unsent bytes a stream may have before it is dropped (its client does not read). */
  bufferBytes: number;
  /** How often a stream sends a keep-alive, and checks its token again first. */
  keepaliveMs: number;
}

/** Whether an API token still verifies (the cached check); throws when it cannot tell. */
export type TokenCheck = (token: string) => Promise<boolean>;

/**
 * The open event streams of this process, each with its principal: admitted within the limits,
 * ended when their credential or session is revoked, all ended at shutdown.
 */
export class EventStreams {
  private readonly open = new Map<Response, Principal>();

  constructor(
    readonly limits: StreamLimits,
    /** Ends a stream whose revocation announcement was missed: its token is checked at each keep-alive. */
    readonly stillValid: TokenCheck,
  ) {}

  /** Throws 429 too_many_streams when the principal or the process holds as many as allowed. */
  admit(principal: Principal): void {
    const refuse = (message: string) => new Refusal('rate_limited', 'too_many_streams', message, { headers: { 'retry-after': String(RETRY_AFTER_SECONDS) } });
    if (this.open.size >= this.limits.perProcess) throw refuse(`this server holds ${this.limits.perProcess} event streams already; try again later`);
    let mine = 0;
    for (const holder of this.open.values()) if (holder.id === principal.id) mine += 1;
    if (mine >= this.limits.perPrincipal) throw refuse(`this credential holds ${this.limits.perPrincipal} event streams open already; close one first`);
  }

  add(res: Response, principal: Principal): void {
    this.open.set(res, principal);
    eventStreamsOpen.set(this.open.size);
  }

  delete(res: Response): void {
    this.open.delete(res);
    eventStreamsOpen.set(this.open.size);
  }

  /** Ends every stream of the credential or session announced revoked. */
  endRevoked(id: string): void {
    for (const [res, principal] of this.open) if (principal.revokedBy(id)) res.end();
  }

  endAll(): void {
    for (const res of this.open.keys()) res.end();
  }
}

/**
 * `GET /v1/events`: a server-sent-events stream of ticket changes (every CRM event type),
 * typing (`conversation.typing`, `conversation.typing_stopped`) and read state
 * (`conversation.read`) of what the caller may read, optionally for one account. Each event's
 * `id` is the CRM event's id. A client that does not keep up is dropped, not buffered for.
 */
export function eventStreamRoute(live: LiveEvents, streams: EventStreams): RequestHandler {
  return (req, res) => {
    const principal = principalOf(req);
    const accountId = platformIdParam(req.query as Record<string, unknown>, 'accountId') ?? null;
    if (accountId !== null && !principal.allowsAccount(accountId)) throw new AccountNotFound(accountId);
    streams.admit(principal);
    res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache', connection: 'keep-alive', 'x-accel-buffering': 'no' });
    const write = (text: string) => {
      if (res.destroyed) return;
      if (res.writableLength > streams.limits.bufferBytes) {
        eventStreamsDropped.inc();
        res.destroy();
        return;
      }
      res.write(text);
    };
    write(': connected\n\n');
    const send = (notice: ChangeNotice) => write(`id: ${notice.id}\nevent: ${notice.type}\ndata: ${JSON.stringify(notice)}\n\n`);
    const unsubscribe = live.subscribe({ audience: { accountIds: principal.accountIds, ticketIds: principal.ticketIds, accountId }, send });
    // A bootstrap token is no API token to check; any other is checked again (cached), so a missed revocation still ends the stream.
    const token = principal.bootstrap ? null : /^Bearer (.+)$/.exec(req.get('authorization') ?? '')?.[1];
    const keepalive = setInterval(() => {
      if (!token) return write(': keepalive\n\n');
      streams.stillValid(token).then(
        (valid) => (valid ? write(': keepalive\n\n') : res.end()),
        // auth cannot answer: the stream goes on, as the cache would have let it.
        () => write(': keepalive\n\n'),
      );
    }, streams.limits.keepaliveMs);
    keepalive.unref();
    streams.add(res, principal);
    res.on('close', () => {
      clearInterval(keepalive);
      unsubscribe();
      streams.delete(res);
    });
  };
}
