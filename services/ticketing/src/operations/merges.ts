import { withTransaction, type Pool, type PoolClient } from '@crm/db';
import type { Logger } from '@crm/logging';
import { emitCrmEvent } from '../adapters/db/crm-events';
import { markMerged, mergedAt, mergedSourcesOf, moveTimelineToTarget, refreshLastActivity, replySince, restoreSource } from '../adapters/db/merges';
import { insertInternalActivity, lockTickets, transactionNow, type ChangeTarget } from '../adapters/db/ticket-life';
import { conflict, invalid, ticketNotFound } from './ticket-errors';

export const MAX_MERGE_SOURCES = 100;

export interface MergeSpec {
  targetId: string;
  sourceIds: string[];
  /** Who merged: a principal's id, or `system` for a rule. */
  actor: string;
  /** The partner configuration's merge rule that decided it; null when a person did. */
  rule: string | null;
}

async function lockAll(client: PoolClient, ids: string[]): Promise<Map<string, ChangeTarget>> {
  const tickets = new Map((await lockTickets(client, ids)).map((ticket) => [ticket.id, ticket]));
  const missing = ids.find((id) => !tickets.has(id));
  if (missing !== undefined) throw ticketNotFound(missing);
  return tickets;
}

/**
 * Merges sources into a target in the caller's transaction: their timelines (activities,
 * notes, and so their contacts) move to the target, each source becomes `merged` with a
 * pointer, and each merge is on both timelines and announced. Later activity of a source's
 * conversation lands on the target (threading follows the pointer).
 */
export async function mergeInTransaction(client: PoolClient, spec: MergeSpec): Promise<void> {
  const { targetId, sourceIds, actor, rule } = spec;
  const tickets = await lockAll(client, [targetId, ...sourceIds]);
  const target = tickets.get(targetId)!;
  if (target.status === 'merged') throw conflict('merge_refused', `the target ticket is merged into ${target.merged_into}: merge into that one`);
  for (const id of sourceIds) {
    const source = tickets.get(id)!;
    if (source.status === 'merged') throw conflict('merge_refused', `ticket ${id} is merged already (into ${source.merged_into})`);
    if (source.account_id !== target.account_id) throw conflict('merge_refused', `ticket ${id} belongs to another account than the target`);
  }
  const now = await transactionNow(client);
  let moved = 0;
  for (const id of sourceIds) {
    const source = tickets.get(id)!;
    moved += await moveTimelineToTarget(client, id, targetId);
    await markMerged(client, id, targetId, rule, now);
    await insertInternalActivity(client, { accountId: source.account_id, ticketId: id, kind: 'merged', text: `merged into ${targetId}`, actor, data: { into: targetId, rule }, contactId: source.contact_id, occurredAt: now });
    await emitCrmEvent(client, 'ticket.updated', id, actor, { changes: { status: { from: source.status, to: 'merged' }, mergedInto: { from: null, to: targetId } } });
  }
  await refreshLastActivity(client, targetId, now);
  const text = `${sourceIds.length} ticket(s) merged into this one${rule ? ` by rule ${rule}` : ''}`;
  await insertInternalActivity(client, { accountId: target.account_id, ticketId: targetId, kind: 'merged', text, actor, data: { sourceIds, rule, moved }, contactId: target.contact_id, occurredAt: now });
  await emitCrmEvent(client, 'ticket.merged', targetId, actor, { merge: { targetId, sourceIds, rule } });
}

function readSourceIds(body: unknown, isId: (id: string) => boolean, required: boolean): string[] | null {
  const sourceIds = typeof body === 'object' && body !== null && !Array.isArray(body) ? (body as Record<string, unknown>).sourceIds : undefined;
  const extra = typeof body === 'object' && body !== null ? Object.keys(body).filter((key) => key !== 'sourceIds') : [];
  if (extra.length > 0) throw invalid('invalid_merge', [`unknown field(s) ${extra.map((key) => `/${key}`).join(', ')}`]);
  if (sourceIds === undefined && !required) return null;
  if (!Array.isArray(sourceIds) || sourceIds.length === 0 || sourceIds.length > MAX_MERGE_SOURCES || !sourceIds.every((id) => typeof id === 'string')) {
    throw invalid('invalid_merge', [`/sourceIds must be an array of 1 to ${MAX_MERGE_SOURCES} ticket ids`]);
  }
  const unknown = (sourceIds as string[]).find((id) => !isId(id));
  if (unknown !== undefined) throw ticketNotFound(unknown);
  return [...new Set(sourceIds as string[])];
}

export interface MergesDeps {
  pool: Pool;
  logger: Logger;
  isId: (id: string) => boolean;
  kick: () => void;
}

/** Merging tickets by hand, and undoing it. */
export class Merges {
  constructor(private readonly deps: MergesDeps) {}

  async merge(targetId: string, body: unknown, actor: string): Promise<void> {
    if (!this.deps.isId(targetId)) throw ticketNotFound(targetId);
    const sourceIds = readSourceIds(body ?? {}, this.deps.isId, true)!;
    if (sourceIds.includes(targetId)) throw invalid('invalid_merge', ['/sourceIds must not hold the target itself']);
    await withTransaction(this.deps.pool, (client) => mergeInTransaction(client, { targetId, sourceIds, actor, rule: null }));
    this.deps.kick();
    this.deps.logger.info('tickets merged', { targetId, sourceIds, actor });
  }

  /**
   * Restores merged tickets: `id` a merged ticket (restores it), or a target (restores the
   * `sourceIds` given, else all its sources). Refused once the target has replied since the merge.
   */
  async unmerge(id: string, body: unknown, actor: string): Promise<string> {
    if (!this.deps.isId(id)) throw ticketNotFound(id);
    const given = readSourceIds(body ?? {}, this.deps.isId, false);
    const targetId = await withTransaction(this.deps.pool, (client) => unmergeInTransaction(client, id, given, actor));
    this.deps.kick();
    this.deps.logger.info('tickets unmerged', { id, targetId, actor });
    return targetId;
  }
}

async function unmergeInTransaction(client: PoolClient, id: string, given: string[] | null, actor: string): Promise<string> {
  const [named] = await lockTickets(client, [id]);
  if (!named) throw ticketNotFound(id);
  const targetId = named.status === 'merged' ? named.merged_into! : id;
  const sourceIds = named.status === 'merged' ? [id] : (given ?? (await mergedSourcesOf(client, id)));
  if (sourceIds.length === 0) throw conflict('not_merged', `ticket ${id} is ${named.status} and has no tickets merged into it`);
  const tickets = await lockAll(client, [targetId, ...sourceIds]);
  for (const sourceId of sourceIds) {
    const source = tickets.get(sourceId)!;
    if (source.status !== 'merged' || source.merged_into !== targetId) throw conflict('not_merged', `ticket ${sourceId} is ${source.status}, not merged into ${targetId}`);
    const replied = await replySince(client, targetId, (await mergedAt(client, sourceId))!);
    if (replied) throw conflict('unmerge_refused', `ticket ${targetId} has replied since ticket ${sourceId} was merged into it (at ${replied.toISOString()}): the merge stays`);
  }
  const now = await transactionNow(client);
  const target = tickets.get(targetId)!;
  for (const sourceId of sourceIds) {
    await restoreSource(client, sourceId, targetId, now);
    await refreshLastActivity(client, sourceId, now);
    await insertInternalActivity(client, { accountId: target.account_id, ticketId: sourceId, kind: 'unmerged', text: `taken out of ${targetId}`, actor, data: { from: targetId }, contactId: tickets.get(sourceId)!.contact_id, occurredAt: now });
    await emitCrmEvent(client, 'ticket.updated', sourceId, actor, { changes: { status: { from: 'merged', to: null }, mergedInto: { from: targetId, to: null } } });
  }
  await refreshLastActivity(client, targetId, now);
  await insertInternalActivity(client, { accountId: target.account_id, ticketId: targetId, kind: 'unmerged', text: `${sourceIds.length} ticket(s) taken out`, actor, data: { sourceIds }, contactId: target.contact_id, occurredAt: now });
  await emitCrmEvent(client, 'ticket.unmerged', targetId, actor, { merge: { targetId, sourceIds, rule: null } });
  return targetId;
}
