import type { RawLog } from '../adapters/db/raw-log';
import type { TicketingStore } from '../adapters/db/store';
import { interpretActivity } from '../domain/activity';
import { InvalidActivity } from '../domain/errors';
import { recordDeliveries, type DeliveryInput } from './record-delivery';

export interface RebuildProgress {
  /** Raw log entries read so far. */
  read: number;
  /** Entries that became tickets, timeline entries, state or contacts (or were held). */
  recorded: number;
  /** Entries interpretation refuses (they went to the DLQ when they arrived, too). */
  invalid: number;
  /** Of the recorded, those held because their account has no partner configuration. */
  held: number;
}

export interface RebuildInput {
  /** The live database's raw log. */
  rawLog: RawLog;
  /** The live database, for the configuration the raw log does not hold. */
  source: TicketingStore;
  /** A fresh, migrated database: the tickets, activities and contacts are made there. */
  target: TicketingStore;
  /** Only this account's deliveries; all when absent. */
  accountId?: string;
  /** Deliveries recorded per transaction (as a prefetch window is live). */
  batchSize?: number;
  onProgress?: (progress: RebuildProgress) => void;
}

/** What is configuration, not derived from deliveries: partner configurations and the mirror of auth's accounts. */
async function copyConfiguration(source: TicketingStore, target: TicketingStore, accountId?: string): Promise<void> {
  const wanted = <T>(rows: T[], id: (row: T) => string) => rows.filter((row) => accountId === undefined || id(row) === accountId);
  const configs = wanted(await source.read.partnerConfigs.rows(), (row) => row.page_id);
  const accounts = wanted(await source.read.accounts.list(), (row) => row.account_id);
  await target.transaction(async (tx) => {
    for (const row of configs) await tx.partnerConfigs.save({ ...row.config, pageId: row.page_id });
    for (const row of accounts) {
      await tx.accounts.recordChange({
        accountId: row.account_id,
        status: row.status,
        at: row.status_changed_at,
        screenName: row.screen_name,
        consumerKeyMasked: row.consumer_key_masked,
        accessTokenMasked: row.access_token_masked,
      });
    }
  });
}

/**
 * Rebuilds tickets, activities and contacts from the raw log into a fresh database: the
 * configuration is copied, then every logged delivery is interpreted and recorded again, in
 * the order it was logged, by the same use case as live. What the live database holds is not
 * touched, so a fix of interpretation can be checked on the rebuilt copy before it replaces it.
 */
export async function rebuildFromRawLog(input: RebuildInput): Promise<RebuildProgress> {
  const progress: RebuildProgress = { read: 0, recorded: 0, invalid: 0, held: 0 };
  await copyConfiguration(input.source, input.target, input.accountId);
  let batch: DeliveryInput[] = [];
  const flush = async () => {
    // One process records alone: no conversation is ever busy.
    for (const outcome of await recordDeliveries(input.target, batch)) if (outcome !== 'busy' && outcome.held) progress.held += 1;
    progress.recorded += batch.length;
    batch = [];
    input.onProgress?.({ ...progress });
  };
  for await (const entry of input.rawLog.inOrder(input.accountId)) {
    progress.read += 1;
    try {
      batch.push({ envelope: entry.envelope, interpretation: interpretActivity(entry.envelope.payload) });
    } catch (error) {
      if (!(error instanceof InvalidActivity)) throw error;
      progress.invalid += 1;
    }
    if (batch.length >= (input.batchSize ?? 50)) await flush();
  }
  if (batch.length > 0) await flush();
  return progress;
}
