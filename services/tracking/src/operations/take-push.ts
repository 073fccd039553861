import { TRACKING_TASK_ID_PATTERN } from '@crm/contracts';
import { Refusal } from '@crm/http';
import type { Logger } from '@crm/logging';
import type { ClientsStore } from '../adapters/clients-store';
import { verifyPush } from '../domain/push-signature';
import type { Observed, TaskWatch } from './watch-tasks';

const TASK_ID = new RegExp(TRACKING_TASK_ID_PATTERN);

/**
 * A task record the provider pushed: its signature checked with the client's push secret, then
 * compared as a poll's record is (one event per change, whichever sees it first). A task not
 * followed is ignored.
 */
export async function takePush(
  deps: { clients: ClientsStore; watch: TaskWatch; logger: Logger },
  push: { clientId: string; rawBody: Buffer | undefined; body: unknown; signature: string | undefined },
): Promise<Observed> {
  const secret = await deps.clients.pushSecret(push.clientId);
  if (!secret || !push.rawBody || !verifyPush(secret, push.rawBody, push.signature)) {
    deps.logger.warn('task push refused: bad signature, or no push secret for the client', { clientId: push.clientId });
    throw new Refusal('unauthorized', 'invalid_signature', 'the signature does not match the body: sign the raw body with HMAC-SHA256 and the push secret set for this client, as x-provider-signature: sha256=<hex>');
  }
  const record = push.body as Record<string, unknown>;
  const taskId = record.taskId;
  if (typeof taskId !== 'string' || !TASK_ID.test(taskId)) throw new Refusal('invalid', 'invalid_task', 'the pushed record needs its taskId (1-128 of A-Z a-z 0-9 . _ : -)');
  if (record.clientId !== undefined && record.clientId !== push.clientId) throw new Refusal('invalid', 'invalid_task', `the pushed record is of client '${String(record.clientId)}', not '${push.clientId}'`);
  return deps.watch.observe(push.clientId, taskId, record, new Date());
}
