import type { Logger } from '@crm/logging';
import type { TicketingStore } from '../adapters/db/store';
import type { PartnerConfigRow } from '../adapters/db/partner-configs';
import { checkPartnerConfig, withDefaults, type ConfigDefaults, type PartnerConfigInput } from '../domain/partner-config';
import { InvalidPartnerConfig } from './errors';
import type { HeldRelease } from './release-held';

export interface SavePartnerConfigDeps {
  store: TicketingStore;
  logger: Logger;
  /** Fills in what a partner configuration leaves out. */
  defaults: ConfigDefaults;
  /** Processes the held deliveries of an account once it has a configuration. */
  heldRelease: Pick<HeldRelease, 'release'>;
}

/** The body as a configuration for the page, or InvalidPartnerConfig naming each bad field by its JSON pointer. */
function readPartnerConfig(pageId: string, body: unknown): PartnerConfigInput {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    throw new InvalidPartnerConfig('send the configuration as a JSON object with content-type application/json');
  }
  const problems = checkPartnerConfig(body);
  if (problems.length > 0) throw new InvalidPartnerConfig(problems.join('; '));
  const input = body as PartnerConfigInput;
  if (input.pageId !== undefined && input.pageId !== pageId) throw new InvalidPartnerConfig(`/pageId ${input.pageId} does not match the page ${pageId} of the path`);
  return input;
}

/**
 * Stores (replaces) an account's partner configuration, missing parts taking defaults, then
 * releases the deliveries held for want of one (in the background: the periodic release is
 * the safety net). Resolves with whether it is the account's first, and the stored row.
 */
export async function savePartnerConfig(deps: SavePartnerConfigDeps, pageId: string, body: unknown): Promise<{ created: boolean; row: PartnerConfigRow }> {
  const config = withDefaults(pageId, readPartnerConfig(pageId, body), deps.defaults);
  const { created, row } = await deps.store.transaction(async (tx) => {
    // Exclusive on the account: deliveries deciding between holding and processing wait, so none is held after this commits unseen by the release.
    await tx.locks.accountExclusive(pageId);
    const first = await tx.partnerConfigs.save(config);
    return { created: first, row: (await tx.partnerConfigs.row(pageId))! };
  });
  deps.logger.info('partner configuration stored', { pageId, created });
  deps.heldRelease.release(pageId).then(
    (released) => released > 0 && deps.logger.info('held deliveries released', { pageId, released }),
    (error: unknown) => deps.logger.error('releasing held deliveries failed; the periodic release tries again', { pageId, reason: (error as Error).message }),
  );
  return { created, row };
}
