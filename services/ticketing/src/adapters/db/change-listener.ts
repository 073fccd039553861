import pg from 'pg';
import { resolveDatabaseUrl } from '@crm/db';
import type { Logger } from '@crm/logging';
import { CHANGES_CHANNEL, type ChangeNotice } from './crm-events';

const RECONNECT_MS = 1_000;

/**
 * Listens to the changes every replica's transactions announce (NOTIFY on CHANGES_CHANNEL,
 * delivered on commit only) on a connection of its own, reconnecting when it drops. Chosen
 * over a per-replica broker queue on crm.events: the notice comes with the commit itself, also
 * for state that is no CRM event (typing, read receipts), and needs no broker objects per replica.
 * A notice sent while the connection is down is missed: a live inbox reloads on reconnect.
 */
export class ChangeListener {
  private client: pg.Client | null = null;
  private stopped = false;
  private readonly handlers = new Set<(notice: ChangeNotice) => void>();
  private connected: Promise<void> | null = null;

  constructor(
    private readonly url: string,
    private readonly logger: Logger,
  ) {}

  onChange(handler: (notice: ChangeNotice) => void): () => void {
    this.handlers.add(handler);
    return () => this.handlers.delete(handler);
  }

  /** Resolves once listening. */
  start(): Promise<void> {
    this.connected ??= this.connect();
    return this.connected;
  }

  private async connect(): Promise<void> {
    // A URL naming several servers: listen on the one that takes writes now, where the changes are made.
    const client = new pg.Client({ connectionString: await resolveDatabaseUrl(this.url), application_name: 'ticketing-changes' });
    client.on('notification', (message) => this.dispatch(message.payload));
    client.on('error', (error) => {
      this.logger.warn('change listener connection failed; it reconnects', { reason: error.message });
      void client.end().catch(() => undefined);
      this.reconnectLater(client);
    });
    await client.connect();
    await client.query(`LISTEN ${CHANGES_CHANNEL}`);
    this.client = client;
  }

  private reconnectLater(failed: pg.Client): void {
    if (this.stopped || this.client !== failed) return;
    this.client = null;
    setTimeout(() => {
      if (this.stopped) return;
      this.connect().catch((error: unknown) => {
        this.logger.warn('change listener could not reconnect; it tries again', { reason: (error as Error).message });
        this.client = failed;
        this.reconnectLater(failed);
      });
    }, RECONNECT_MS).unref();
  }

  private dispatch(payload: string | undefined): void {
    if (!payload) return;
    let notice: ChangeNotice;
    try {
      notice = JSON.parse(payload) as ChangeNotice;
    } catch {
      return;
    }
    for (const handler of this.handlers) handler(notice);
  }

  async stop(): Promise<void> {
    this.stopped = true;
    const client = this.client;
    this.client = null;
    await client?.end().catch(() => undefined);
  }
}
