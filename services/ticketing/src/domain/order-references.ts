import safeRegex from 'safe-regex2';
import { TRACKING_CLIENT_ID_PATTERN, TRACKING_TASK_ID_PATTERN } from '@crm/contracts';

/**
 * Orders found in messages (services/ticketing/README.md, "Orders found in messages"): how a
 * partner configuration names its tracking client, the patterns that find an order reference
 * in a customer's text, and the rules applied to the followed order's changes.
 */

/** One way of writing an order reference: a regular expression with one capture group, and the task id it names (`$1` is the capture). */
export interface ReferencePattern {
  pattern: string;
  taskId: string;
}

export interface OrderRules {
  /** An ETA later than the first one seen by more than this raises the priority (once per ticket and order). */
  slipMinutes: number;
  raisePriorityOnSlip: boolean;
  /** A failed or cancelled delivery reopens the ticket, urgent. */
  reopenOnFailure: boolean;
  /** A delivery while the ticket waits on the customer suggests resolving it. */
  suggestResolveOnDelivery: boolean;
}

/** The `orders` part of a partner configuration; null (or no tracking client) turns the feature off. */
export interface OrdersConfig {
  trackingClientId: string | null;
  /** Empty: DEFAULT_REFERENCES. */
  references: ReferencePattern[];
  rules: OrderRules;
}

export type OrdersConfigInput = { trackingClientId?: string | null; references?: ReferencePattern[]; rules?: Partial<OrderRules> };

export const DEFAULT_ORDER_RULES: OrderRules = { slipMinutes: 30, raisePriorityOnSlip: true, reopenOnFailure: true, suggestResolveOnDelivery: true };

/**
 * What a configuration without references of its own finds: "order 4711", "order #4711",
 * "order no. 4711", "#4711" and the tracking provider's own links (`<base>/track/<clientId>/<taskId>`).
 */
export const DEFAULT_REFERENCES: readonly ReferencePattern[] = [
  { pattern: String.raw`\border\s?(?:no\.|no|number|nr\.|nr)?\s?#?\s?([0-9][0-9A-Za-z-]{0,39})\b`, taskId: '$1' },
  { pattern: String.raw`(?:^|[^\w&])#([0-9]{3,20})\b`, taskId: '$1' },
  { pattern: String.raw`https?://[A-Za-z0-9.:/_~-]{1,300}/track/[A-Za-z0-9._-]{1,64}/([A-Za-z0-9][A-Za-z0-9._:-]{0,127})`, taskId: '$1' },
];

/** Only the start of a text is read for references (bounded work per message), and only this many are checked. */
export const MAX_SCANNED_CHARS = 2_000;
export const MAX_CANDIDATES = 5;
const MAX_PATTERN_LENGTH = 200;

export const ordersInputSchema = {
  type: ['object', 'null'],
  additionalProperties: false,
  properties: {
    trackingClientId: { type: ['string', 'null'], pattern: TRACKING_CLIENT_ID_PATTERN },
    references: {
      type: 'array',
      maxItems: 20,
      items: {
        type: 'object',
        required: ['pattern', 'taskId'],
        additionalProperties: false,
        properties: { pattern: { type: 'string', minLength: 1, maxLength: MAX_PATTERN_LENGTH }, taskId: { type: 'string', minLength: 1, maxLength: 128 } },
      },
    },
    rules: {
      type: 'object',
      additionalProperties: false,
      properties: {
        slipMinutes: { type: 'integer', minimum: 1, maximum: 1_440 },
        raisePriorityOnSlip: { type: 'boolean' },
        reopenOnFailure: { type: 'boolean' },
        suggestResolveOnDelivery: { type: 'boolean' },
      },
    },
  },
} as const;

const compile = (pattern: string) => new RegExp(pattern, 'gi');

/** How many capture groups a valid pattern has: the groups of a match of its alternative with the empty string. */
const groupsOf = (pattern: string) => new RegExp(`${pattern}|`).exec('')!.length - 1;

/**
 * The problems of configured references, each naming its field: a pattern that is no regular
 * expression, has other than one capture group, or could take exponential time (nested
 * quantifiers, checked by safe-regex2); a task id template without `$1`.
 */
export function checkReferences(references: readonly ReferencePattern[], at = '/orders/references'): string[] {
  return references.flatMap(({ pattern, taskId }, index) => {
    const problems: string[] = [];
    try {
      compile(pattern);
      const groups = groupsOf(pattern);
      if (groups !== 1) problems.push(`${at}/${index}/pattern must have exactly one capture group (it has ${groups}); make other groups non-capturing with (?:...)`);
      else if (!safeRegex(pattern)) problems.push(`${at}/${index}/pattern could take very long on some texts (nested or repeated quantifiers such as (a+)+); simplify it`);
    } catch (error) {
      problems.push(`${at}/${index}/pattern is not a valid regular expression: ${(error as Error).message}`);
    }
    if (!taskId.includes('$1')) problems.push(`${at}/${index}/taskId must contain $1 (the captured reference), e.g. "$1" or "ORD-$1"`);
    return problems;
  });
}

/** An order reference found in a text: the words matched and the task they name. */
export interface FoundReference {
  reference: string;
  taskId: string;
}

const TASK_ID = new RegExp(TRACKING_TASK_ID_PATTERN);

/** The references configured, or the defaults when none are. */
export const referencesOf = (orders: Pick<OrdersConfig, 'references'>): readonly ReferencePattern[] => (orders.references.length > 0 ? orders.references : DEFAULT_REFERENCES);

/**
 * The order references in the start of a text (MAX_SCANNED_CHARS), in the order they appear,
 * one per task id, at most MAX_CANDIDATES. Patterns are assumed checked (checkReferences).
 */
export function findReferences(text: string, references: readonly ReferencePattern[]): FoundReference[] {
  const scanned = text.slice(0, MAX_SCANNED_CHARS);
  const found: (FoundReference & { at: number })[] = [];
  for (const { pattern, taskId } of references) {
    for (const match of scanned.matchAll(compile(pattern))) {
      const captured = match[1];
      if (captured === undefined) continue;
      const task = taskId.split('$1').join(captured);
      if (TASK_ID.test(task)) found.push({ reference: match[0].trim(), taskId: task, at: match.index });
    }
  }
  found.sort((a, b) => a.at - b.at);
  const seen = new Set<string>();
  return found
    .filter((candidate) => !seen.has(candidate.taskId) && seen.add(candidate.taskId))
    .slice(0, MAX_CANDIDATES)
    .map(({ reference, taskId }) => ({ reference, taskId }));
}

/** A configuration's `orders` with its defaults filled in; null when the input has none. */
export function ordersWithDefaults(input: OrdersConfigInput | null | undefined): OrdersConfig | null {
  if (!input) return null;
  return { trackingClientId: input.trackingClientId ?? null, references: input.references ?? [], rules: { ...DEFAULT_ORDER_RULES, ...input.rules } };
}

/** Whether tracking knows a task, from its availability answer: null when it cannot tell now. */
export function existsFrom(answer: { available: boolean; reason: string } | null): boolean | null {
  if (!answer) return null;
  if (answer.available) return true;
  return answer.reason === 'task_not_found' || answer.reason === 'client_not_found' ? false : null;
}

/** What the reference tester says of a found reference, in an agent's words. */
export function referenceMessage(found: FoundReference, clientId: string, exists: boolean | null): string {
  if (exists === true) return `Order ${found.taskId} is known to tracking (client '${clientId}'): a message naming it links the ticket to it.`;
  if (exists === false) return `Tracking has no order ${found.taskId} for client '${clientId}': a message naming it links nothing.`;
  return `Tracking could not say now whether order ${found.taskId} exists; a message naming it is checked again until it can.`;
}
