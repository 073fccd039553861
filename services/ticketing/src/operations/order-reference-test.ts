import type { TrackingClient } from '../adapters/broker/tracking';
import type { TicketingStore } from '../adapters/db/store';
import { existsFrom, findReferences, referenceMessage, referencesOf } from '../domain/order-references';
import { invalid, PartnerConfigNotFound, unprocessable } from './errors';

export interface OrderReferenceMatch {
  reference: string;
  taskId: string;
  /** Whether tracking knows the task; null when it cannot say now. */
  exists: boolean | null;
  message: string;
}

function readText(body: unknown): string {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) throw invalid('invalid_order_reference_test', ['send {"text": "..."} as a JSON object']);
  const { text, ...extra } = body as Record<string, unknown>;
  const problems = Object.keys(extra).map((key) => `/${key} is not a field of the tester (only /text)`);
  if (typeof text !== 'string') problems.push('/text is required: the message to look for order references in');
  else if (text.length > 10_000) problems.push('/text must be at most 10000 characters');
  if (problems.length > 0) throw invalid('invalid_order_reference_test', problems);
  return text as string;
}

/**
 * The console's order reference tester: the references the account's stored configuration finds
 * in a text (its first MAX_SCANNED_CHARS characters), each checked with tracking.
 */
export async function testOrderReferences(deps: { store: TicketingStore; tracking: Pick<TrackingClient, 'availability'> }, pageId: string, body: unknown): Promise<OrderReferenceMatch[]> {
  const text = readText(body);
  const row = await deps.store.read.partnerConfigs.row(pageId);
  if (!row) throw new PartnerConfigNotFound(pageId);
  const clientId = row.config.orders?.trackingClientId;
  if (!row.config.orders || !clientId) {
    throw unprocessable('orders_not_configured', `page ${pageId} has no tracking client: set /orders/trackingClientId in its partner configuration first`);
  }
  const found = findReferences(text, referencesOf(row.config.orders));
  return Promise.all(
    found.map(async (reference) => {
      const exists = existsFrom(await deps.tracking.availability(clientId, reference.taskId).catch(() => null));
      return { ...reference, exists, message: referenceMessage(reference, clientId, exists) };
    }),
  );
}
