import type { Logger } from '@crm/logging';
import type { TrackingClient } from '../adapters/broker/tracking';
import type { OrderFinding } from '../adapters/db/order-findings';
import type { TicketingStore } from '../adapters/db/store';
import { existsFrom } from '../domain/order-references';
import { stateOf } from '../domain/order-updates';
import { SYSTEM_ACTOR } from '../domain/workflow';
import { announceOrderChange, followIn } from './order-following';

export interface OrderFinderDeps {
  store: TicketingStore;
  tracking: Pick<TrackingClient, 'availability' | 'live'>;
  logger: Logger;
  /** Delays before each new check while tracking cannot answer; after the last, the finding is dropped. */
  retryDelaysMs: number[];
  /** Publishes the follow_task a link queued, now. */
  kick: () => void;
  /** Findings worked per run. */
  batch?: number;
}

/**
 * Links tickets to the orders their customers named (services/ticketing/README.md, "Orders
 * found in messages"). Recording notes the references of a message in `order_findings`, in its
 * own transaction; each run here takes those due, asks tracking about each candidate in turn,
 * and links the first that exists (`linkedBy: auto`) unless the ticket has an order by then or
 * an agent unlinked that one. While tracking cannot answer, the finding is checked again later
 * (ORDER_FINDING_RETRY_DELAYS_MS); a reference tracking does not know links nothing.
 */
export class OrderFinder {
  constructor(private readonly deps: OrderFinderDeps) {}

  async runDue(): Promise<number> {
    const leaseMs = 60_000;
    const due = await this.deps.store.transaction((tx) => tx.orderFindings.claimDue(this.deps.batch ?? 20, leaseMs));
    for (const finding of due) await this.work(finding);
    return due.length;
  }

  private async work(finding: OrderFinding): Promise<void> {
    const { ticket_id: ticketId, client_id: clientId } = finding;
    for (const candidate of finding.candidates) {
      // An order an agent unlinked is passed over, unasked: the next reference may still be the one.
      if (await this.deps.store.transaction((tx) => tx.orders.refused(ticketId, clientId, candidate.taskId))) continue;
      const answer = await this.deps.tracking.availability(clientId, candidate.taskId).catch(() => null);
      const exists = existsFrom(answer);
      if (exists === null) return this.later(finding, candidate.taskId);
      if (!exists) continue;
      const link = { clientId, taskId: candidate.taskId };
      // Asked before the link, so the ticket and its `linked` announcement carry the status and ETA.
      const state = await this.liveState(ticketId, link);
      const linked = await this.deps.store.transaction(async (tx) => {
        let row = await tx.orders.autoLink(ticketId, clientId, candidate.taskId, candidate.reference);
        if (row) {
          if (answer) await tx.orders.recordAvailability(ticketId, link, answer, new Date());
          if (state) row = (await tx.orders.recordState(ticketId, link, state)) ?? row;
          await followIn(tx, ticketId, link);
          await announceOrderChange(tx, ticketId, SYSTEM_ACTOR, 'linked', row);
        }
        await tx.orderFindings.done(finding.id);
        return row;
      });
      this.deps.kick();
      if (linked) this.deps.logger.info('ticket linked to an order found in a message', { ticketId, clientId, taskId: candidate.taskId });
      return;
    }
    await this.deps.store.transaction((tx) => tx.orderFindings.done(finding.id));
    this.deps.logger.info('order references found in a message are unknown to tracking; nothing linked', { ticketId, clientId, references: finding.candidates.length });
  }

  private async later(finding: OrderFinding, taskId: string): Promise<void> {
    const delay = this.deps.retryDelaysMs[finding.attempts];
    if (delay === undefined) {
      await this.deps.store.transaction((tx) => tx.orderFindings.done(finding.id));
      this.deps.logger.warn('tracking did not answer about an order found in a message; given up', { ticketId: finding.ticket_id, taskId, attempts: finding.attempts + 1 });
      return;
    }
    await this.deps.store.transaction((tx) => tx.orderFindings.retryLater(finding.id, delay));
    this.deps.logger.info('tracking cannot say now whether an order found in a message exists; asked again later', { ticketId: finding.ticket_id, taskId, delayMs: delay });
  }

  /** The order's status and ETA at link time, from tracking's live view when it has them (best effort: null without). */
  private async liveState(ticketId: string, link: { clientId: string; taskId: string }): Promise<ReturnType<typeof stateOf> | null> {
    try {
      return stateOf(await this.deps.tracking.live(link.clientId, link.taskId));
    } catch (error) {
      this.deps.logger.info('no status or ETA for a linked order yet; the followed task brings them', { ticketId, reason: (error as Error).message });
      return null;
    }
  }
}
