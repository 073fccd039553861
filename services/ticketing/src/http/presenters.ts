import type { ActivityRow, TicketRow } from '../adapters/db/ticket-queries';

/** Ticket JSON of ARCHITECTURE section 7. */
export interface TicketJson {
  id: string;
  accountId: string;
  status: string;
  channel: 'dm' | 'public';
  queue: string;
  folder: string;
  contact: { id: string; screenName: string | null; name: string | null } | null;
  subject: string;
  createdAt: string;
  updatedAt: string;
  lastActivityAt: string;
  sla: { firstResponseDueAt: string | null; resolutionDueAt: string | null };
}

export interface ActivityJson {
  id: string;
  kind: string;
  direction: 'inbound' | 'outbound' | 'event';
  text: string | null;
  platformEventId: string | null;
  occurredAt: string;
  deleted: boolean;
}

const iso = (date: Date | null) => (date ? date.toISOString() : null);

export function ticketJson(row: TicketRow): TicketJson {
  return {
    id: row.id,
    accountId: row.account_id,
    status: row.status,
    channel: row.channel,
    queue: row.queue,
    folder: row.folder,
    contact: row.contact_id ? { id: row.contact_id, screenName: row.contact_screen_name, name: row.contact_name } : null,
    subject: row.subject,
    createdAt: row.created_at.toISOString(),
    updatedAt: row.updated_at.toISOString(),
    lastActivityAt: row.last_activity_at.toISOString(),
    sla: { firstResponseDueAt: iso(row.first_response_due_at), resolutionDueAt: iso(row.resolution_due_at) },
  };
}

export function activityJson(row: ActivityRow): ActivityJson {
  return {
    id: row.id,
    kind: row.kind,
    direction: row.direction,
    text: row.text,
    platformEventId: row.platform_event_id,
    occurredAt: row.occurred_at.toISOString(),
    deleted: row.deleted,
  };
}
