import type { TicketingStore } from '../adapters/db/store';
import { readRoutingSubject, route, type RoutingDecision } from '../domain/partner-config';
import { invalid, PartnerConfigNotFound } from './errors';

/** The console's rule tester: where an activity would go under the account's stored configuration. */
export async function testRouting(store: TicketingStore, pageId: string, body: unknown): Promise<RoutingDecision> {
  const read = readRoutingSubject(body);
  if ('problems' in read) throw invalid('invalid_route_test', read.problems);
  const row = await store.read.partnerConfigs.row(pageId);
  if (!row) throw new PartnerConfigNotFound(pageId);
  return route(read.subject, { ...row.config, pageId });
}
