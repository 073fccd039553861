import { createHash } from 'node:crypto';
import { ajv, TRACKING_TASK_ID_PATTERN } from '@crm/contracts';
import { fieldErrors, type FieldError } from './field-errors';

/**
 * The body of a task create, as the seed describes it. Fields beyond these (pickup and
 * drop details, ...) pass through to the provider unchanged.
 */
export interface TaskSeed {
  /** Chosen by the caller; else derived from sourceOrderId. */
  taskId?: string;
  assignedUser: { carrierClientId: string; userId: string; [key: string]: unknown };
  sourceOrderId?: string;
  orderDetail?: {
    lineItems?: {
      name: string;
      quantity?: number;
      id?: string;
      price?: { amount?: number; currency?: string; symbol?: string };
      imageUrl?: string;
    }[];
    [key: string]: unknown;
  };
  [key: string]: unknown;
}

const nonEmpty = { type: 'string', minLength: 1 } as const;

export const taskSeedSchema = {
  type: 'object',
  required: ['assignedUser'],
  properties: {
    taskId: { type: 'string', pattern: TRACKING_TASK_ID_PATTERN },
    assignedUser: {
      type: 'object',
      required: ['carrierClientId', 'userId'],
      properties: { carrierClientId: nonEmpty, userId: nonEmpty },
    },
    sourceOrderId: { type: 'string', minLength: 1, maxLength: 200 },
    orderDetail: {
      type: 'object',
      properties: {
        lineItems: {
          type: 'array',
          items: {
            type: 'object',
            required: ['name'],
            properties: {
              name: nonEmpty,
              quantity: { type: 'number' },
              id: { type: 'string' },
              price: {
                type: 'object',
                properties: { amount: { type: 'number' }, currency: { type: 'string' }, symbol: { type: 'string' } },
              },
              imageUrl: { type: 'string' },
            },
          },
        },
      },
    },
  },
} as const;

const validateSeed = ajv.compile<TaskSeed>(taskSeedSchema);

/** The provider's task ids for orders of ours: the same client and order always give the same id. */
export function derivedTaskId(clientId: string, sourceOrderId: string): string {
  return `so-${createHash('sha256').update(`${clientId}\n${sourceOrderId}`).digest('hex').slice(0, 32)}`;
}

export type SeedCheck = { ok: true; seed: TaskSeed; taskId: string } | { ok: false; errors: FieldError[] };

/**
 * Validates a create body and settles its task id: the caller's, else one derived from
 * sourceOrderId. Without either a retried create could not be recognised, so one is required.
 */
export function checkTaskSeed(clientId: string, body: unknown): SeedCheck {
  if (!validateSeed(body)) return { ok: false, errors: fieldErrors(validateSeed.errors) };
  const taskId = body.taskId ?? (body.sourceOrderId ? derivedTaskId(clientId, body.sourceOrderId) : undefined);
  if (!taskId) return { ok: false, errors: [{ field: 'taskId', message: 'is required when sourceOrderId is not given (either one makes a retried create land on the same task)' }] };
  return { ok: true, seed: body, taskId };
}
