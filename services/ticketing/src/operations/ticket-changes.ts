import type { Logger } from '@crm/logging';
import type { TicketingStore, TicketingTx } from '../adapters/db/store';
import type { ChangeTarget } from '../adapters/db/ticket-life';
import { readNote } from '../domain/evidence';
import { changedFields, forbiddenMove, readBulkChange, readTicketChange, type TicketChange } from '../domain/workflow';
import { conflict, invalid, TicketNotFound } from './errors';
import { followInStep } from './order-following';
import { reevaluateSlaIn } from './sla';

export interface TicketChangesDeps {
  store: TicketingStore;
  logger: Logger;
  /** Whether a string is a ticket id (anything else is not found, without a query). */
  isId: (id: string) => boolean;
  /** Publishes what the transaction queued, now (the periodic relay is the safety net). */
  kick: () => void;
}

/**
 * A person's changes to tickets: status along the workflow, assignee, team, priority, queue,
 * folder, tags (one ticket or up to 100 at once, all or nothing) and internal notes. Each
 * change is a timeline entry naming who made it, and a CRM event after the commit.
 */
export class TicketChanges {
  constructor(private readonly deps: TicketChangesDeps) {}

  /** PATCH one ticket. */
  async change(ticketId: string, body: unknown, actor: string): Promise<void> {
    const read = readTicketChange(body);
    if ('problems' in read) throw invalid('invalid_change', read.problems);
    await this.applyAll([ticketId], read.change, actor);
  }

  /** The same change on every ticket of `{ids, change}`; any refusal refuses them all. */
  async bulk(body: unknown, actor: string): Promise<string[]> {
    const read = readBulkChange(body, this.deps.isId);
    if ('problems' in read) throw invalid('invalid_change', read.problems);
    await this.applyAll(read.ids, read.change, actor);
    return read.ids;
  }

  private async applyAll(ids: string[], change: TicketChange, actor: string): Promise<void> {
    const unknown = ids.find((id) => !this.deps.isId(id));
    if (unknown !== undefined) throw new TicketNotFound(unknown);
    const changed = await this.deps.store.transaction(async (tx) => {
      const tickets = await tx.life.lock(ids);
      const missing = ids.find((id) => !tickets.some((ticket) => ticket.id === id));
      if (missing !== undefined) throw new TicketNotFound(missing);
      for (const ticket of tickets) {
        const why = change.status ? forbiddenMove(ticket.status, change.status) : null;
        if (why) throw conflict('forbidden_transition', ids.length > 1 ? `ticket ${ticket.id}: ${why}` : why);
      }
      const now = await tx.now();
      let count = 0;
      for (const ticket of tickets) if (await applyOne(tx, ticket, change, actor, now)) count += 1;
      return count;
    });
    if (changed > 0) this.deps.kick();
    this.deps.logger.info('tickets changed', { tickets: ids.length, changed, actor, fields: Object.keys(change) });
  }

  /** An internal note (with an evidence snapshot, when given) on the ticket's timeline. */
  async addNote(ticketId: string, body: unknown, actor: string) {
    const read = readNote(body);
    if ('problems' in read) throw invalid('invalid_note', read.problems);
    if (!this.deps.isId(ticketId)) throw new TicketNotFound(ticketId);
    const activity = await this.deps.store.transaction(async (tx) => {
      const [ticket] = await tx.life.lock([ticketId]);
      if (!ticket) throw new TicketNotFound(ticketId);
      const entry = await tx.life.addEntry({
        accountId: ticket.account_id,
        ticketId,
        kind: read.evidence ? 'evidence_snapshot' : 'note',
        text: read.text,
        actor,
        data: read.evidence ? { evidence: read.evidence } : null,
        contactId: ticket.contact_id,
        occurredAt: await tx.now(),
      });
      await tx.crmEvents.emit('ticket.activity', ticketId, actor, { activity: entry });
      return entry;
    });
    this.deps.kick();
    return activity;
  }
}

/** One ticket's part of a change: applied, on the timeline, announced; false when it changes nothing. */
export async function applyOne(tx: TicketingTx, ticket: ChangeTarget, change: TicketChange, actor: string, now: Date): Promise<boolean> {
  const changes = changedFields(ticket, change);
  const fields = Object.keys(changes);
  if (fields.length === 0) return false;
  const only: TicketChange = Object.fromEntries(fields.map((field) => [field, change[field as keyof TicketChange]]));
  await tx.life.apply(ticket.id, only, now);
  const kind = fields.length === 1 && fields[0] === 'status' ? 'status_changed' : 'ticket_updated';
  const text = fields.map((field) => `${field}: ${show(changes[field]!.from)} → ${show(changes[field]!.to)}`).join('; ');
  await tx.life.addEntry({ accountId: ticket.account_id, ticketId: ticket.id, kind, text, actor, data: { changes }, contactId: ticket.contact_id, occurredAt: now });
  await tx.crmEvents.emit('ticket.updated', ticket.id, actor, { changes });
  // Status and priority move the SLA clocks: pause, stop, resume, or new budgets.
  if ('status' in changes || 'priority' in changes) await reevaluateSlaIn(tx, ticket.id, now);
  // A resolved or closed ticket no longer follows its order; a reopened one follows it again.
  if ('status' in changes) await followInStep(tx, ticket.id, change.status!);
  return true;
}

const show = (value: unknown) => (Array.isArray(value) ? `[${value.join(', ')}]` : value === null ? 'none' : String(value));
