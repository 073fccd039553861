/** The composer's drafts and their idempotency keys (draftStore.ts keeps them across reloads). */

export type DraftMode = 'reply' | 'note';

export interface Draft {
  mode: DraftMode;
  text: string;
  /** One per composed reply, kept across retries and reloads: ticketing sends it once however often it is posted. */
  idempotencyKey: string;
  /** Posted at least once: an edit after that makes another message, with a key of its own. */
  tried?: boolean;
}

/** A random key (getRandomValues: unlike randomUUID, available on a page served over plain http too). */
export function newIdempotencyKey(): string {
  return Array.from(crypto.getRandomValues(new Uint8Array(16)), (byte) => byte.toString(16).padStart(2, '0')).join('');
}

export const emptyDraft = (mode: DraftMode = 'reply'): Draft => ({ mode, text: '', idempotencyKey: newIdempotencyKey() });

/** The draft with new text: once it was posted, edited text is another message and gets a key of its own. */
export const editDraft = (draft: Draft, text: string): Draft => (draft.tried && text !== draft.text ? { ...draft, text, idempotencyKey: newIdempotencyKey(), tried: false } : { ...draft, text });

/** The draft once its image changed: once it was posted, that is another message, with a key of its own. */
export const imageChanged = (draft: Draft): Draft => (draft.tried ? { ...draft, idempotencyKey: newIdempotencyKey(), tried: false } : draft);
