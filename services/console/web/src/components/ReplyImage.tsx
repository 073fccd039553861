import { useState } from 'react';
import { Alert, Button, CloseButton, FileButton, Group, Image, Text } from '@mantine/core';
import { ApiError } from '../api';
import { consoleApi, ok } from '../client';
import { newIdempotencyKey } from '../drafts';

/** An image uploaded for the reply: the platform's media id, and what the agent sees of it. */
export interface ReplyImageValue {
  mediaId: string;
  name: string;
  preview: string;
}

const TYPES = ['image/jpeg', 'image/png', 'image/webp', 'image/gif'];
/** The platform's limit on an image in a DM. */
const MAX_BYTES = 5 * 1024 * 1024;
const megabytes = (bytes: number) => `${(bytes / (1024 * 1024)).toFixed(1)} MB`;

/** Why a file cannot go in a DM, in plain words (the server checks again, by the file's bytes), or null. */
export function imageProblem(file: File): string | null {
  if (!TYPES.includes(file.type)) return `${file.name} is not an image a DM can carry: choose a JPEG, PNG, WEBP or GIF image.`;
  if (file.size > MAX_BYTES) return `${file.name} is ${megabytes(file.size)}; a DM can carry images of at most 5 MB: make it smaller and attach it again.`;
  return null;
}

function readAsDataUrl(file: File): Promise<string> {
  return new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => resolve(String(reader.result));
    reader.onerror = () => reject(new Error(`${file.name} could not be read`));
    reader.readAsDataURL(file);
  });
}

/**
 * "Attach image" for a DM reply: the chosen file is checked, shown, and uploaded at once (to the
 * platform, through the console and auth), so the reply only names its media id. Remove takes it off.
 */
export function ReplyImage({ ticketId, value, onChange, onBusy }: { ticketId: string; value: ReplyImageValue | null; onChange: (value: ReplyImageValue | null) => void; onBusy: (busy: boolean) => void }) {
  const [busy, setBusyHere] = useState(false);
  const setBusy = (now: boolean) => {
    setBusyHere(now);
    onBusy(now);
  };
  const [problem, setProblem] = useState<string | null>(null);
  const choose = async (file: File | null) => {
    if (!file) return;
    const refused = imageProblem(file);
    setProblem(refused);
    if (refused) return;
    setBusy(true);
    try {
      const preview = await readAsDataUrl(file);
      const media = preview.slice(preview.indexOf(',') + 1);
      const { mediaId } = await ok(consoleApi.POST('/api/tickets/{ticketId}/media', { params: { path: { ticketId }, header: { 'Idempotency-Key': newIdempotencyKey() } }, body: { media } }));
      onChange({ mediaId, name: file.name, preview });
    } catch (caught) {
      setProblem(caught instanceof ApiError || caught instanceof Error ? caught.message : 'the image could not be uploaded');
    } finally {
      setBusy(false);
    }
  };
  return (
    <>
      {value ? (
        <Group gap="xs" data-testid="reply-image">
          <Image src={value.preview} alt={`Attached image ${value.name}`} h={64} w="auto" radius="sm" />
          <Text size="sm">{value.name}</Text>
          <CloseButton aria-label={`Remove image ${value.name}`} onClick={() => onChange(null)} />
        </Group>
      ) : (
        <FileButton onChange={(file) => void choose(file)} accept={TYPES.join(',')}>
          {(props) => (
            <Button {...props} variant="default" size="compact-sm" loading={busy} aria-label="Attach image">
              Attach image
            </Button>
          )}
        </FileButton>
      )}
      {problem && (
        <Alert color="red" role="alert" data-testid="image-problem">
          {problem}
        </Alert>
      )}
    </>
  );
}
