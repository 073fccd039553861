import { forwardRef, useEffect, useImperativeHandle, useRef, useState, type Dispatch, type SetStateAction } from 'react';
import { Alert, Button, Group, Menu, SegmentedControl, Stack, Text, Textarea } from '@mantine/core';
import { CANNED_REPLIES, fillCanned, textLength, textLimit, type CannedContext } from '../canned';
import { editDraft, emptyDraft, imageChanged, type Draft, type DraftMode } from '../drafts';
import { ReplyImage, type ReplyImageValue } from './ReplyImage';
import { loadDraft, saveDraft } from '../draftStore';
import { useAction } from '../useAction';
import type { TicketDetail as Ticket } from '../types';

function CannedMenu({ onPick }: { onPick: (template: string) => void }) {
  return (
    <Menu position="bottom-end">
      <Menu.Target>
        <Button variant="subtle" size="compact-sm">Canned replies</Button>
      </Menu.Target>
      <Menu.Dropdown>
        {CANNED_REPLIES.map((reply) => (
          <Menu.Item key={reply.label} onClick={() => onPick(reply.text)}>
            {reply.label}
          </Menu.Item>
        ))}
      </Menu.Dropdown>
    </Menu>
  );
}

function ModeBar({ mode, channelWords, onMode, onPick }: { mode: DraftMode; channelWords: string; onMode: (mode: DraftMode) => void; onPick: (template: string) => void }) {
  return (
    <Group justify="space-between">
      <SegmentedControl
        aria-label="Compose a reply or a note"
        value={mode}
        onChange={(value) => onMode(value as DraftMode)}
        data={[
          { value: 'reply', label: `Reply (${channelWords})` },
          { value: 'note', label: 'Internal note' },
        ]}
      />
      <CannedMenu onPick={onPick} />
    </Group>
  );
}

/** The ticket's draft, saved as it changes. */
function useDraft(ticketId: string) {
  const [draft, setDraft] = useState(() => loadDraft(ticketId));
  useEffect(() => saveDraft(ticketId, draft), [ticketId, draft]);
  return [draft, setDraft] as const;
}

/** The image of the reply being written on a ticket (a DM's): a new ticket starts without one. */
function useReplyImage(ticketId: string, setDraft: Dispatch<SetStateAction<Draft>>) {
  const [image, setImage] = useState<ReplyImageValue | null>(null);
  const [uploading, setUploading] = useState(false);
  useEffect(() => setImage(null), [ticketId]);
  const changeImage = (next: ReplyImageValue | null) => {
    setImage(next);
    setDraft((current) => imageChanged(current));
  };
  return { image, uploading, setUploading, changeImage };
}

function SendButton({ isReply, disabled, busy, onSend }: { isReply: boolean; disabled: boolean; busy: boolean; onSend: () => void }) {
  return (
    <Button onClick={onSend} disabled={disabled} loading={busy}>
      {isReply ? 'Send reply' : 'Add note'}
    </Button>
  );
}

/** A reply's body: its text, its image, or both. */
const replyBody = (text: string, image: ReplyImageValue | null) => ({ ...(text.trim() ? { text } : {}), ...(image ? { attachment: { mediaId: image.mediaId } } : {}) });

export interface ComposerHandle {
  /** Switches to reply or note and puts the cursor in the text (the r and n keys). */
  focus: (mode: DraftMode) => void;
}

/**
 * Replies and internal notes. One send per draft: the draft's idempotency key goes with every
 * try of it (ticketing answers a repeat with the first answer, and auth's command id is the
 * activity's, so the platform gets one DM), the button is busy while its request runs, and
 * the draft and its key survive a reload.
 */
export const Composer = forwardRef<ComposerHandle, { ticket: Ticket; canned: CannedContext; onSent: () => void }>(function Composer({ ticket, canned, onSent }, ref) {
  const [draft, setDraft] = useDraft(ticket.id);
  const text = useRef<HTMLTextAreaElement>(null);
  const { problem, busy, run } = useAction(onSent);
  useImperativeHandle(ref, () => ({
    focus: (mode) => {
      setDraft((current) => ({ ...current, mode }));
      setTimeout(() => text.current?.focus(), 0);
    },
  }));
  const { image, uploading, setUploading, changeImage } = useReplyImage(ticket.id, setDraft);
  const isReply = draft.mode === 'reply';
  const withImage = isReply && ticket.channel === 'dm';
  const attached = withImage ? image : null;
  const limit = textLimit(ticket.channel);
  const length = textLength(draft.text);
  const over = isReply && length > limit;
  const sendable = (Boolean(draft.text.trim()) || attached !== null) && !over && !uploading;
  const send = async () => {
    if (isReply) setDraft((current) => ({ ...current, tried: true }));
    const sent = isReply
      ? await run('reply', 'POST', `/api/tickets/${ticket.id}/replies`, replyBody(draft.text, attached), { 'idempotency-key': draft.idempotencyKey })
      : await run('note', 'POST', `/api/tickets/${ticket.id}/notes`, { text: draft.text });
    if (sent) setDraft(emptyDraft(draft.mode));
    if (sent && isReply) changeImage(null);
  };
  const insert = (template: string) => {
    const filled = fillCanned(template, canned);
    setDraft((current) => editDraft(current, current.text ? `${current.text}\n${filled}` : filled));
    text.current?.focus();
  };
  const channelWords = ticket.channel === 'dm' ? 'DM' : 'public reply';
  return (
    <Stack gap="xs" data-testid="composer">
      <ModeBar mode={draft.mode} channelWords={channelWords} onMode={(mode) => setDraft({ ...draft, mode })} onPick={insert} />
      <Textarea
        ref={text}
        label={isReply ? 'Reply' : 'Internal note'}
        description={isReply ? `Sent to @${ticket.contact?.screenName ?? 'the customer'} as a ${channelWords}` : 'Seen by agents only'}
        value={draft.text}
        onChange={(e) => setDraft(editDraft(draft, e.currentTarget.value))}
        onKeyDown={(e) => {
          if (e.key === 'Enter' && (e.metaKey || e.ctrlKey) && sendable) void send();
        }}
        autosize
        minRows={3}
        maxRows={12}
        error={over ? `Too long for a ${channelWords}: ${length - limit} characters over the platform's ${limit.toLocaleString()}` : undefined}
      />
      {withImage && <ReplyImage ticketId={ticket.id} value={image} onChange={changeImage} onBusy={setUploading} />}
      <Group justify="space-between">
        <Text size="xs" c={over ? 'red.9' : 'dimmed'} data-testid="length-count" aria-live="polite">
          {isReply ? `${length.toLocaleString()} / ${limit.toLocaleString()}` : `${length.toLocaleString()} characters`}
        </Text>
        <SendButton isReply={isReply} disabled={!sendable} busy={busy !== null} onSend={() => void send()} />
      </Group>
      {problem && <Alert color="red" role="alert">{`${problem}${isReply ? '. The draft is kept: sending it again cannot send it twice.' : ''}`}</Alert>}
    </Stack>
  );
});
