import type { Logger } from '@crm/logging';
import type { TicketingStore, TicketingTx } from '../adapters/db/store';
import type { ChangeTarget } from '../adapters/db/ticket-life';
import { conflict, invalid, TicketNotFound } from './errors';
import { followInStep } from './order-following';
import { reevaluateSlaIn } from './sla';

export const MAX_MERGE_SOURCES = 100;

export interface MergeSpec {
  targetId: string;
  sourceIds: string[];
  /** Who merged: a principal's id, or `system` for a rule. */
  actor: string;
  /** The partner configuration's merge rule that decided it; null when a person did. */
  rule: string | null;
}

async function lockAll(tx: TicketingTx, ids: string[]): Promise<Map<string, ChangeTarget>> {
  const tickets = new Map((await tx.life.lock(ids)).map((ticket) => [ticket.id, ticket] as const));
  const missing = ids.find((id) => !tickets.has(id));
  if (missing !== undefined) throw new TicketNotFound(missing);
  return tickets;
}

/** A ticket as a timeline names it: its subject and id ("“Parcel never arrived” (ticket 6f1c…)"). */
const nameOf = (ticket: ChangeTarget): string => `“${ticket.subject || 'no subject'}” (ticket ${ticket.id})`;

function checkMergeable(target: ChangeTarget, sources: ChangeTarget[]): void {
  if (target.status === 'merged') throw conflict('merge_refused', `the target ticket is merged into ${target.merged_into}: merge into that one`);
  for (const source of sources) {
    if (source.status === 'merged') throw conflict('merge_refused', `ticket ${source.id} is merged already (into ${source.merged_into})`);
    if (source.account_id !== target.account_id) throw conflict('merge_refused', `ticket ${source.id} belongs to another account than the target`);
  }
}

/**
 * Merges sources into a target in the caller's transaction: their timelines (activities,
 * notes, and so their contacts) move to the target, each source becomes `merged` with a
 * pointer, and each merge is on both timelines and announced. Later activity of a source's
 * conversation lands on the target (threading follows the pointer).
 */
export async function mergeInTransaction(tx: TicketingTx, spec: MergeSpec): Promise<void> {
  const { targetId, sourceIds, actor, rule } = spec;
  const tickets = await lockAll(tx, [targetId, ...sourceIds]);
  const target = tickets.get(targetId)!;
  const sources = sourceIds.map((id) => tickets.get(id)!);
  checkMergeable(target, sources);
  const now = await tx.now();
  let moved = 0;
  for (const source of sources) {
    moved += await tx.merges.moveTimeline(source.id, targetId);
    await tx.merges.markMerged(source.id, targetId, rule, now);
    await reevaluateSlaIn(tx, source.id, now); // a merged ticket's clocks stop
    await followInStep(tx, source.id, 'merged'); // and it no longer follows its order
    await tx.life.addEntry({ accountId: source.account_id, ticketId: source.id, kind: 'merged', text: `merged into ${nameOf(target)}`, actor, data: { into: targetId, rule }, contactId: source.contact_id, occurredAt: now });
    await tx.crmEvents.emit('ticket.updated', source.id, actor, { changes: { status: { from: source.status, to: 'merged' }, mergedInto: { from: null, to: targetId } } });
  }
  await tx.merges.refreshLastActivity(targetId, now);
  const text = `merged into this one${rule ? ` by rule ${rule}` : ''}: ${sources.map(nameOf).join(', ')}`;
  await tx.life.addEntry({ accountId: target.account_id, ticketId: targetId, kind: 'merged', text, actor, data: { sourceIds, rule, moved }, contactId: target.contact_id, occurredAt: now });
  await tx.crmEvents.emit('ticket.merged', targetId, actor, { merge: { targetId, sourceIds, rule } });
}

/** Restores merged tickets out of their target, refused once the target has replied since a merge. */
async function unmergeInTransaction(tx: TicketingTx, id: string, given: string[] | null, actor: string): Promise<string> {
  const [named] = await tx.life.lock([id]);
  if (!named) throw new TicketNotFound(id);
  const targetId = named.status === 'merged' ? named.merged_into! : id;
  const sourceIds = named.status === 'merged' ? [id] : (given ?? (await tx.merges.sourcesOf(id)));
  if (sourceIds.length === 0) throw conflict('not_merged', `ticket ${id} is ${named.status} and has no tickets merged into it`);
  const tickets = await lockAll(tx, [targetId, ...sourceIds]);
  for (const sourceId of sourceIds) {
    const source = tickets.get(sourceId)!;
    if (source.status !== 'merged' || source.merged_into !== targetId) throw conflict('not_merged', `ticket ${sourceId} is ${source.status}, not merged into ${targetId}`);
    const replied = await tx.merges.replySinceMerge(targetId, sourceId);
    if (replied) throw conflict('unmerge_refused', `ticket ${targetId} has replied since ticket ${sourceId} was merged into it (at ${replied.toISOString()}): the merge stays`);
  }
  const now = await tx.now();
  const target = tickets.get(targetId)!;
  for (const sourceId of sourceIds) {
    const status = await tx.merges.restore(sourceId, targetId, now);
    await followInStep(tx, sourceId, status); // back open or pending, it follows its order again
    await tx.merges.refreshLastActivity(sourceId, now);
    await tx.life.addEntry({ accountId: target.account_id, ticketId: sourceId, kind: 'unmerged', text: `taken out of ${nameOf(target)}`, actor, data: { from: targetId }, contactId: tickets.get(sourceId)!.contact_id, occurredAt: now });
    await tx.crmEvents.emit('ticket.updated', sourceId, actor, { changes: { mergedInto: { from: targetId, to: null } } });
  }
  await tx.merges.refreshLastActivity(targetId, now);
  await tx.life.addEntry({ accountId: target.account_id, ticketId: targetId, kind: 'unmerged', text: `taken out: ${sourceIds.map((sourceId) => nameOf(tickets.get(sourceId)!)).join(', ')}`, actor, data: { sourceIds }, contactId: target.contact_id, occurredAt: now });
  await tx.crmEvents.emit('ticket.unmerged', targetId, actor, { merge: { targetId, sourceIds, rule: null } });
  return targetId;
}

function readSourceIds(body: unknown, isId: (id: string) => boolean, required: boolean): string[] | null {
  const object = typeof body === 'object' && body !== null && !Array.isArray(body) ? (body as Record<string, unknown>) : {};
  const extra = Object.keys(object).filter((key) => key !== 'sourceIds');
  if (extra.length > 0) throw invalid('invalid_merge', [`unknown field(s) ${extra.map((key) => `/${key}`).join(', ')}`]);
  const { sourceIds } = object;
  if (sourceIds === undefined && !required) return null;
  if (!Array.isArray(sourceIds) || sourceIds.length === 0 || sourceIds.length > MAX_MERGE_SOURCES || !sourceIds.every((id) => typeof id === 'string')) {
    throw invalid('invalid_merge', [`/sourceIds must be an array of 1 to ${MAX_MERGE_SOURCES} ticket ids`]);
  }
  const unknown = (sourceIds as string[]).find((id) => !isId(id));
  if (unknown !== undefined) throw new TicketNotFound(unknown);
  return [...new Set(sourceIds as string[])];
}

export interface MergesDeps {
  store: TicketingStore;
  logger: Logger;
  isId: (id: string) => boolean;
  kick: () => void;
}

/** Merging tickets by hand, and undoing it. */
export class Merges {
  constructor(private readonly deps: MergesDeps) {}

  async merge(targetId: string, body: unknown, actor: string): Promise<void> {
    if (!this.deps.isId(targetId)) throw new TicketNotFound(targetId);
    const sourceIds = readSourceIds(body, this.deps.isId, true)!;
    if (sourceIds.includes(targetId)) throw invalid('invalid_merge', ['/sourceIds must not hold the target itself']);
    await this.deps.store.transaction((tx) => mergeInTransaction(tx, { targetId, sourceIds, actor, rule: null }));
    this.deps.kick();
    this.deps.logger.info('tickets merged', { targetId, sourceIds, actor });
  }

  /**
   * Restores merged tickets: `id` a merged ticket (restores it), or a target (restores the
   * `sourceIds` given, else all its sources). Returns the target.
   */
  async unmerge(id: string, body: unknown, actor: string): Promise<string> {
    if (!this.deps.isId(id)) throw new TicketNotFound(id);
    const given = readSourceIds(body, this.deps.isId, false);
    const targetId = await this.deps.store.transaction((tx) => unmergeInTransaction(tx, id, given, actor));
    this.deps.kick();
    this.deps.logger.info('tickets unmerged', { id, targetId, actor });
    return targetId;
  }
}
