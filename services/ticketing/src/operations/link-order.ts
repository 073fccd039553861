import { TRACKING_ERROR_CODES, type TrackingErrorCode, type TrackingLiveView } from '@crm/contracts';
import type { Logger } from '@crm/logging';
import { RpcError } from '@crm/messaging';
import type { TrackingClient } from '../adapters/broker/tracking';
import type { TicketingStore } from '../adapters/db/store';
import { isMissingTicket, type OrderRow } from '../adapters/db/ticket-orders';
import { needsRefresh, readOrderLink, unknownOrder, type OrderLink } from '../domain/order-link';
import { stateOf } from '../domain/order-updates';
import { SYSTEM_ACTOR } from '../domain/workflow';
import { InvalidOrderLink, notFound, TicketNotFound, TrackingLookupFailed, TrackingUnavailable, unprocessable } from './errors';
import { announceOrderChange, followIn, unfollowIn } from './order-following';

export interface OrderLinksDeps {
  store: TicketingStore;
  tracking: Pick<TrackingClient, 'availability' | 'live'>;
  logger: Logger;
  /** An answer older than this is asked again when the ticket is read. */
  refreshAfterMs: number;
  /** How long a read waits for that answer before showing the last one, marked stale. */
  readWaitMs: number;
  /** Publishes what a link or unlink queued (follow_task, unfollow_task), now; the periodic relay is the safety net. */
  kick: () => void;
}

/**
 * Tickets linked to orders, and whether tracking can show them. Tracking is asked when the
 * link is made (waiting for its answer, up to the RPC timeout) and again when the ticket is
 * read and the answer is old; a read waits only briefly, and the check goes on in the
 * background, so the next read has it. One check per link at a time in this process.
 */
export class OrderLinks {
  private readonly checking = new Map<string, Promise<OrderRow | null>>();

  constructor(private readonly deps: OrderLinksDeps) {}

  /**
   * Links the ticket to the order once tracking has been asked about it. Refused (422, nothing
   * stored) when tracking says the client or the task does not exist; kept, with tracking's
   * answer, when it exists but cannot be shown (client turned off, provider down), and kept
   * unverified (`available` null, asked again on read) when tracking does not answer in time.
   * A client the caller may not see (`mayUseClient`) is refused as an unknown one, without
   * asking tracking.
   */
  async link(ticketId: string, body: unknown, mayUseClient: (clientId: string) => boolean, actor: string = SYSTEM_ACTOR): Promise<OrderRow> {
    const read = readOrderLink(body);
    if ('problems' in read) throw new InvalidOrderLink(read.problems.join('; '));
    const { link } = read;
    if (!(await this.deps.store.read.tickets.ticket(ticketId))) throw new TicketNotFound(ticketId);
    if (!mayUseClient(link.clientId)) {
      this.deps.logger.info("order link to a tracking client outside the credential's limits refused as unknown", { ticketId, ...link });
      throw this.refusal(link, 'client_not_found');
    }
    // The live view (status and ETA, when tracking has them) is asked at the same time.
    const [answer, view] = await Promise.all([
      this.deps.tracking.availability(link.clientId, link.taskId).catch((error: unknown) => {
        this.deps.logger.warn('tracking did not say whether the order exists; linked unverified', { ticketId, ...link, reason: (error as Error).message });
        return null;
      }),
      this.deps.tracking.live(link.clientId, link.taskId).catch(() => null),
    ]);
    if (answer && !answer.available && unknownOrder(link, answer.reason)) {
      this.deps.logger.info('order link refused: tracking does not know it', { ticketId, ...link, reason: answer.reason });
      throw this.refusal(link, answer.reason);
    }
    const row = await this.deps.store
      .transaction(async (tx) => {
        const { row: linked, changed, previous } = await tx.orders.link(ticketId, link.clientId, link.taskId);
        let kept = answer ? ((await tx.orders.recordAvailability(ticketId, link, answer, new Date())) ?? linked) : linked;
        if (changed && view) kept = (await tx.orders.recordState(ticketId, link, stateOf(view))) ?? kept;
        if (changed) {
          if (previous) await unfollowIn(tx, ticketId, previous);
          await followIn(tx, ticketId, link);
          await announceOrderChange(tx, ticketId, actor, 'linked', kept);
        }
        return kept;
      })
      .catch((error: unknown) => {
        throw isMissingTicket(error) ? new TicketNotFound(ticketId) : error;
      });
    this.deps.kick();
    this.deps.logger.info('ticket linked to an order', { ticketId, ...link, available: answer?.available ?? null });
    return row;
  }

  private refusal(link: OrderLink, reason: string): Error {
    const refused = unknownOrder(link, reason)!;
    return unprocessable(refused.code, refused.message);
  }

  /**
   * The live map view of the ticket's order, asked of tracking: 404 order_not_linked when the
   * ticket has none, or its client is not one the caller may see (`mayViewClient`).
   */
  async liveView(ticketId: string, mayViewClient: (clientId: string) => boolean): Promise<TrackingLiveView> {
    const ticket = await this.deps.store.read.tickets.ticket(ticketId);
    if (!ticket) throw new TicketNotFound(ticketId);
    const { order_client_id: clientId, order_task_id: taskId } = ticket;
    if (clientId === null || taskId === null || !mayViewClient(clientId)) throw notFound('order_not_linked', `ticket ${ticketId} is not linked to an order; link one with PUT /v1/tickets/${ticketId}/order`);
    try {
      return await this.deps.tracking.live(clientId, taskId);
    } catch (error) {
      if (error instanceof RpcError && (TRACKING_ERROR_CODES as readonly string[]).includes(error.code)) throw new TrackingLookupFailed(error.code as TrackingErrorCode, error.message);
      this.deps.logger.warn('tracking did not show the live view of a linked order', { ticketId, clientId, taskId, reason: (error as Error).message });
      throw new TrackingUnavailable('tracking did not answer in time; try again shortly');
    }
  }

  /** Unlinks the ticket; its order is never linked to it again from a customer's words (an agent may link it again). */
  async unlink(ticketId: string, actor: string = SYSTEM_ACTOR): Promise<void> {
    const found = await this.deps.store.transaction(async (tx) => {
      const before = await tx.orders.find(ticketId);
      const { found: exists, unlinked } = await tx.orders.unlink(ticketId);
      if (unlinked && before) {
        await unfollowIn(tx, ticketId, unlinked);
        await announceOrderChange(tx, ticketId, actor, 'unlinked', before);
      }
      return exists;
    });
    if (!found) throw new TicketNotFound(ticketId);
    this.deps.kick();
    this.deps.logger.info('ticket unlinked from its order', { ticketId });
  }

  /** The order as the ticket should show it now: asked again when old, waiting at most `readWaitMs` for the answer. */
  async current(ticketId: string, order: OrderRow | null): Promise<OrderRow | null> {
    if (!order || !needsRefresh(order.tracking_checked_at, new Date(), this.deps.refreshAfterMs)) return order;
    let timer: NodeJS.Timeout | undefined;
    const waited = new Promise<null>((resolve) => {
      timer = setTimeout(() => resolve(null), this.deps.readWaitMs);
    });
    const answered = await Promise.race([this.check(ticketId, { clientId: order.client_id, taskId: order.task_id }), waited]);
    clearTimeout(timer);
    return answered ?? order;
  }

  /** Asks tracking and keeps its answer; null when it did not answer (or the ticket was unlinked meanwhile). */
  private check(ticketId: string, link: OrderLink): Promise<OrderRow | null> {
    const key = `${ticketId}\u0000${link.clientId}\u0000${link.taskId}`;
    const running = this.checking.get(key);
    if (running) return running;
    const run = this.ask(ticketId, link).finally(() => this.checking.delete(key));
    this.checking.set(key, run);
    return run;
  }

  /** Never rejects: a check that fails leaves the last answer in place. */
  private async ask(ticketId: string, link: OrderLink): Promise<OrderRow | null> {
    try {
      const answer = await this.deps.tracking.availability(link.clientId, link.taskId);
      const row = await this.deps.store.transaction((tx) => tx.orders.recordAvailability(ticketId, link, answer, new Date()));
      this.deps.logger.info('tracking availability checked', { ticketId, ...link, available: answer.available, reason: answer.reason });
      return row && row.client_id === link.clientId && row.task_id === link.taskId ? row : null;
    } catch (error) {
      this.deps.logger.warn('tracking did not say whether it can show the order; the last answer stays', { ticketId, ...link, reason: (error as Error).message });
      return null;
    }
  }
}
