import type { Pool } from '@crm/db';
import { loadPartnerConfig } from '../adapters/db/partner-configs';
import { readRoutingSubject, route, type RoutingDecision } from '../domain/partner-config';
import { invalid, Refused } from './ticket-errors';

/** The console's rule tester: where an activity would go under the account's stored configuration. */
export async function testRouting(pool: Pool, pageId: string, body: unknown): Promise<RoutingDecision> {
  const read = readRoutingSubject(body);
  if ('problems' in read) throw invalid('invalid_route_test', read.problems);
  const config = await loadPartnerConfig(pool, pageId);
  if (!config) throw new Refused('not_found', 'partner_config_not_found', `no partner configuration for page '${pageId}'`);
  return route(read.subject, config);
}
