import type { RequestHandler } from 'express';
import { principalOf } from '@crm/access';
import type { TicketingStore } from '../adapters/db/store';
import { isUuid } from '../domain/ids';
import { ContactNotFound } from '../operations/errors';
import { encodeCursor } from './cursor';
import { parseContactListQuery } from './params';
import { activityJson, contactJson } from './presenters';
import { visibleAccounts } from './reach';

/** How many timeline entries a contact's page shows (the newest). */
const CONTACT_TIMELINE_LIMIT = 500;

/** The contacts of the accounts the credential may see; another account's contact is answered 404. */
export function contactRoutes(store: TicketingStore): Record<'list' | 'show', RequestHandler> {
  const queries = store.read.tickets;
  return {
    list: async (req, res) => {
      const filter = parseContactListQuery(req.query as Record<string, unknown>);
      const { rows, more } = await queries.contacts({ ...filter, ...visibleAccounts(req, filter.accountId) });
      const last = rows.at(-1);
      res.json({ items: rows.map(contactJson), nextCursor: more && last ? encodeCursor({ createdAt: last.created_at_key, id: last.id }) : null });
    },
    show: async (req, res) => {
      const id = String(req.params.id);
      const contact = isUuid(id) ? await queries.contact(id) : null;
      if (!contact || !principalOf(req).allowsAccount(contact.account_id)) throw new ContactNotFound(id);
      res.json({ ...contactJson(contact), timeline: (await queries.contactTimeline(contact.id, CONTACT_TIMELINE_LIMIT)).map(activityJson) });
    },
  };
}
