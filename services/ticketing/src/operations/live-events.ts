import type { ChangeNotice } from '../adapters/db/crm-events';

/** How long a typing indicator counts after it was sent. */
export const TYPING_TTL_MS = 6_000;

export interface LiveSubscriber {
  /** Only this account's changes; all when null. */
  accountId: string | null;
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
      if (subscriber.accountId === null || subscriber.accountId === notice.accountId) subscriber.send(notice);
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
