import type { PoolClient } from '@crm/db';

export interface NewActivity {
  accountId: string;
  ticketId: string | null;
  kind: string;
  direction: 'inbound' | 'outbound' | 'event';
  text: string | null;
  platformEventId: string;
  occurredAt: Date;
  authorContactId: string | null;
  sourceEnvelopeId: string;
  raw: Record<string, unknown>;
}

export async function activityExists(client: PoolClient, accountId: string, platformEventId: string): Promise<boolean> {
  const { rowCount } = await client.query('SELECT 1 FROM activities WHERE account_id = $1 AND platform_event_id = $2', [accountId, platformEventId]);
  return (rowCount ?? 0) > 0;
}

/** Inserts an activity; returns its id, or null when the platform event is already recorded. */
export async function insertActivity(client: PoolClient, activity: NewActivity): Promise<string | null> {
  const { rows } = await client.query<{ id: string }>(
    `INSERT INTO activities (account_id, ticket_id, kind, direction, text, platform_event_id, occurred_at,
                             author_contact_id, source_envelope_id, raw)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10::jsonb)
     ON CONFLICT (account_id, platform_event_id) DO NOTHING
     RETURNING id`,
    [
      activity.accountId,
      activity.ticketId,
      activity.kind,
      activity.direction,
      activity.text,
      activity.platformEventId,
      activity.occurredAt,
      activity.authorContactId,
      activity.sourceEnvelopeId,
      activity.raw,
    ],
  );
  return rows[0]?.id ?? null;
}
