import type { Request, RequestHandler, Response } from 'express';
import { principalOf, type Principal } from '@crm/access';
import type { TicketingStore } from '../adapters/db/store';
import { isUuid } from '../domain/ids';
import { AccountNotFound, PartnerConfigNotFound, TicketNotFound } from '../operations/errors';
import { platformIdParam } from './params';

/** A route's work on the ticket its path names (`:id`), once that ticket is known to be the caller's to reach. */
export type TicketHandler = (ticketId: string, req: Request, res: Response) => Promise<void>;

/**
 * What tickets a principal reaches, the one place a ticket id from a request is checked: a
 * ticket it may not reach is answered 404, as if it did not exist. A ticket-limited principal
 * (a launch session) reaches its tickets; any other the tickets of the accounts it may see.
 */
export class TicketReach {
  constructor(private readonly store: TicketingStore) {}

  /** The handler of a route naming a ticket (`:id`), given the id once it is a ticket id the caller reaches. */
  ticket(handler: TicketHandler): RequestHandler {
    return async (req, res) => {
      const id = String(req.params.id);
      if (!isUuid(id)) throw new TicketNotFound(id);
      await this.require(principalOf(req), [id]);
      await handler(id, req, res);
    };
  }

  /**
   * Throws TicketNotFound naming the first ticket the principal may not reach; what is no
   * ticket is left to the use case to answer.
   */
  async require(principal: Principal, ids: readonly unknown[]): Promise<void> {
    for (const id of ids) {
      if (principal.ticketIds !== null) {
        if (!principal.allowsTicket(String(id))) throw new TicketNotFound(String(id));
        continue;
      }
      if (principal.accountIds === null || typeof id !== 'string' || !isUuid(id)) continue;
      const accountId = (await this.store.read.tickets.ticket(id))?.account_id ?? null;
      if (accountId !== null && !principal.allowsAccount(accountId)) throw new TicketNotFound(id);
    }
  }

  /**
   * Unmerging a merged ticket changes (and answers) the ticket it was merged into: a
   * ticket-limited principal must reach that one too.
   */
  async requireMergeTarget(principal: Principal, id: string): Promise<void> {
    if (principal.ticketIds === null) return;
    const mergedInto = (await this.store.read.tickets.ticket(id))?.merged_into ?? null;
    if (mergedInto !== null) await this.require(principal, [mergedInto]);
  }
}

/** `:pageId` of an account the credential may see; another account's is answered 404 as if it had no configuration. */
export function visiblePageId(req: Request): string {
  const pageId = platformIdParam(req.params, 'pageId')!;
  if (!principalOf(req).allowsAccount(pageId)) throw new PartnerConfigNotFound(pageId);
  return pageId;
}

/** `:accountId` of an account the credential may see; another is answered 404 as if it did not exist. */
export function visibleAccountId(req: Request): string {
  const accountId = platformIdParam(req.params, 'accountId')!;
  if (!principalOf(req).allowsAccount(accountId)) throw new AccountNotFound(accountId);
  return accountId;
}

/** A list's accounts: the one asked for (none when it may not be seen), else every account the credential may see. */
export function visibleAccounts(req: Request, asked: string | undefined): { accountId?: string; accountIds?: string[] } {
  const allowed = principalOf(req).accountIds;
  if (allowed === null) return asked === undefined ? {} : { accountId: asked };
  return { accountIds: asked === undefined ? [...allowed] : allowed.filter((id) => id === asked) };
}
