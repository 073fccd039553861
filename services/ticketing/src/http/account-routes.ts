import type { RequestHandler } from 'express';
import { principalOf } from '@crm/access';
import type { TicketingStore } from '../adapters/db/store';
import { AccountNotFound, PartnerConfigNotFound } from '../operations/errors';
import type { TrackingClient } from '../adapters/broker/tracking';
import { testOrderReferences } from '../operations/order-reference-test';
import { testRouting } from '../operations/route-test';
import { savePartnerConfig, type SavePartnerConfigDeps } from '../operations/save-partner-config';
import type { SearchQueries } from '../operations/search-queries';
import { encodeIdCursor } from './cursor';
import { parseHeldListQuery } from './params';
import { accountJson, heldCountJson, heldExpiredJson, heldJson, partnerConfigJson } from './presenters';
import { visibleAccountId, visiblePageId } from './reach';

export interface AccountRouteDeps {
  store: TicketingStore;
  /** Saving a partner configuration (and releasing what it unblocks). */
  partnerConfigs: SavePartnerConfigDeps;
  /** The state of each account's search queries. */
  searchQueries: Pick<SearchQueries, 'states'>;
  /** Asked whether the orders a text names exist (the order reference tester). */
  tracking: Pick<TrackingClient, 'availability'>;
}

type PartnerConfigRoute = 'list' | 'show' | 'save' | 'testRouting' | 'testOrderReferences' | 'searchQueries';

/** Partner configurations (of the accounts the credential may see), the rule tester and each search query's state. */
export function partnerConfigRoutes(deps: AccountRouteDeps): Record<PartnerConfigRoute, RequestHandler> {
  const { read } = deps.store;
  const configured = async (pageId: string) => {
    const row = await read.partnerConfigs.row(pageId);
    if (!row) throw new PartnerConfigNotFound(pageId);
    return row;
  };
  return {
    list: async (req, res) => {
      const principal = principalOf(req);
      res.json({ items: (await read.partnerConfigs.rows()).filter((row) => principal.allowsAccount(row.page_id)).map(partnerConfigJson) });
    },
    show: async (req, res) => {
      res.json(partnerConfigJson(await configured(visiblePageId(req))));
    },
    save: async (req, res) => {
      const { created, row } = await savePartnerConfig(deps.partnerConfigs, visiblePageId(req), req.body);
      res.status(created ? 201 : 200).json(partnerConfigJson(row));
    },
    testRouting: async (req, res) => {
      const decision = await testRouting(deps.store, visiblePageId(req), req.body);
      res.json({ rule: decision.rule, queue: decision.queue, folder: decision.folder });
    },
    testOrderReferences: async (req, res) => {
      res.json({ matches: await testOrderReferences(deps, visiblePageId(req), req.body) });
    },
    // Each configured query with its last run, last error, matches and next run.
    searchQueries: async (req, res) => {
      const pageId = visiblePageId(req);
      const row = await configured(pageId);
      res.json({ items: await deps.searchQueries.states({ ...row.config, pageId }) });
    },
  };
}

/** The accounts as ticketing knows them, and the deliveries held for want of a configuration. */
export function accountRoutes({ store }: Pick<AccountRouteDeps, 'store'>): Record<'list' | 'show' | 'held', RequestHandler> {
  const { read } = store;
  return {
    list: async (req, res) => {
      const principal = principalOf(req);
      res.json({ items: (await read.accounts.list()).filter((account) => principal.allowsAccount(account.account_id)).map(accountJson) });
    },
    show: async (req, res) => {
      const accountId = visibleAccountId(req);
      const account = await read.accounts.find(accountId);
      if (!account) throw new AccountNotFound(accountId);
      res.json(accountJson(account));
    },
    held: async (req, res) => {
      const filter = parseHeldListQuery(req.query as Record<string, unknown>);
      // A credential limited to some accounts names one of its own: held deliveries of others are not its to see.
      if (principalOf(req).accountIds !== null && (filter.accountId === undefined || !principalOf(req).allowsAccount(filter.accountId))) throw new AccountNotFound(filter.accountId ?? '(none given)');
      const [{ rows, more }, counts, expired] = await Promise.all([read.held.list(filter), read.held.count(filter.accountId), read.held.expired(filter.accountId)]);
      const last = rows.at(-1);
      res.json({ accounts: counts.map(heldCountJson), expired: expired.map(heldExpiredJson), items: rows.map(heldJson), nextCursor: more && last ? encodeIdCursor(last.id) : null });
    },
  };
}
