import type { Queryable } from './queryable';

type Party = 'contact' | 'account';

/** The current state of DM conversations (typing, read receipts): state, not history. */
export class DmConversationRepository {
  constructor(private readonly db: Queryable) {}

  /** Someone is typing in a DM conversation: only the latest moment is kept (state, not history). */
  async noteTyping(accountId: string, counterpartId: string, party: Party, at: Date): Promise<void> {
    const column = `${party}_typing_at`;
    await this.db.query(
      `INSERT INTO dm_conversations (account_id, counterpart_id, ${column}) VALUES ($1, $2, $3)
       ON CONFLICT (account_id, counterpart_id) DO UPDATE SET ${column} = GREATEST(dm_conversations.${column}, EXCLUDED.${column})`,
      [accountId, counterpartId, at],
    );
  }

  /** Someone read a DM conversation up to an event: the newest receipt wins, whatever the arrival order. */
  async noteRead(accountId: string, counterpartId: string, party: Party, read: { eventId: string; at: Date }): Promise<void> {
    const [eventColumn, atColumn] = [`${party}_read_event_id`, `${party}_read_at`];
    await this.db.query(
      `INSERT INTO dm_conversations (account_id, counterpart_id, ${eventColumn}, ${atColumn}) VALUES ($1, $2, $3, $4)
       ON CONFLICT (account_id, counterpart_id) DO UPDATE SET
         ${eventColumn} = CASE WHEN dm_conversations.${atColumn} IS NULL OR (EXCLUDED.${atColumn}, EXCLUDED.${eventColumn}) > (dm_conversations.${atColumn}, dm_conversations.${eventColumn})
                               THEN EXCLUDED.${eventColumn} ELSE dm_conversations.${eventColumn} END,
         ${atColumn} = GREATEST(dm_conversations.${atColumn}, EXCLUDED.${atColumn})`,
      [accountId, counterpartId, read.eventId, read.at],
    );
  }
}
