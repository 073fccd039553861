import type { ChangeNotice } from '../adapters/db/crm-events';

/** How long a typing indicator counts after it was sent. */
export const TYPING_TTL_MS = 6_000;

/** Which changes a subscriber may hear: the account asked for, within what its principal may read. */
export interface LiveAudience {
  /** The accounts it may read; null: every account. */
  accountIds: readonly string[] | null;
  /** A ticket-limited principal (a launch session) hears only changes of these tickets; null: no ticket limit. */
  ticketIds: readonly string[] | null;
  /** Only this account's changes (`?accountId=`); null: every account it may read. */
  accountId: string | null;
}

/** Whether a change is for the audience: the one place a stream's limits are decided. */
export function hears(audience: LiveAudience, notice: ChangeNotice): boolean {
  if (audience.ticketIds !== null) return notice.ticketId !== null && audience.ticketIds.includes(notice.ticketId);
  if (audience.accountIds !== null && !audience.accountIds.includes(notice.accountId)) return false;
  return audience.accountId === null || audience.accountId === notice.accountId;
}

export interface LiveSubscriber {
  audience: LiveAudience;
  send: (notice: ChangeNotice) => void;
}

/**
 * The live inbox: fans the committed changes this replica hears out to its SSE subscribers.
 * A typing indicator expires: `ttlMs` after the last one of a conversation, subscribers get
 * `conversation.typing_stopped`.
 */
export class LiveEvents {
  private readonly subscribers = new Set<LiveSubscriber>();
  private readonly typing = new Map<string, NodeJS.Timeout>();

  constructor(private readonly ttlMs: number) {}

  subscribe(subscriber: LiveSubscriber): () => void {
    this.subscribers.add(subscriber);
    return () => this.subscribers.delete(subscriber);
  }

  get size(): number {
    return this.subscribers.size;
  }

  publish(notice: ChangeNotice): void {
    for (const subscriber of this.subscribers) {
      if (hears(subscriber.audience, notice)) subscriber.send(notice);
    }
    if (notice.type === 'conversation.typing') this.expireLater(notice);
  }

  private expireLater(notice: ChangeNotice): void {
    const key = `${notice.accountId}:${String(notice.data?.counterpartId)}:${String(notice.data?.party)}`;
    clearTimeout(this.typing.get(key));
    const timer = setTimeout(() => {
      this.typing.delete(key);
      this.publish({ ...notice, id: `${notice.id}:stopped`, type: 'conversation.typing_stopped', occurredAt: new Date().toISOString(), expiresAt: undefined });
    }, this.ttlMs);
    timer.unref();
    this.typing.set(key, timer);
  }

  /** Forgets every subscriber and timer (the HTTP side ends the streams). */
  close(): void {
    for (const timer of this.typing.values()) clearTimeout(timer);
    this.typing.clear();
    this.subscribers.clear();
  }
}
