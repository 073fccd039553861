import { randomBytes } from 'node:crypto';
import { CRM_ALL_EVENT_TYPES, type CrmAnyEventType } from '@crm/contracts';

/** A CRM webhook endpoint as registered: where to POST, and which event types (all when empty). */
export interface EndpointInput {
  url: string;
  description: string | null;
  eventTypes: CrmAnyEventType[];
}

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

function urlProblem(value: unknown): string | null {
  if (typeof value !== 'string' || value.length > 2_000) return '/url must be an http or https URL of at most 2000 characters';
  try {
    const url = new URL(value);
    if (url.protocol !== 'https:' && url.protocol !== 'http:') return '/url must be an http or https URL';
    if (url.username || url.password) return '/url must not carry credentials (the signature authenticates the sender)';
  } catch {
    return '/url must be an http or https URL';
  }
  return null;
}

export function readEndpoint(body: unknown): { endpoint: EndpointInput } | { problems: string[] } {
  if (!isObject(body)) return { problems: ['send {"url", "description"?, "eventTypes"?} as a JSON object'] };
  const { url, description, eventTypes, ...extra } = body;
  const problems: string[] = [];
  if (Object.keys(extra).length > 0) problems.push(`unknown field(s) ${Object.keys(extra).map((key) => `/${key}`).join(', ')}`);
  const badUrl = urlProblem(url);
  if (badUrl) problems.push(badUrl);
  if (description !== undefined && description !== null && (typeof description !== 'string' || description.length > 500)) problems.push('/description must be a string of at most 500 characters');
  if (eventTypes !== undefined && (!Array.isArray(eventTypes) || !eventTypes.every((type) => (CRM_ALL_EVENT_TYPES as readonly unknown[]).includes(type)))) {
    problems.push(`/eventTypes must be an array of ${CRM_ALL_EVENT_TYPES.join(', ')} (empty or absent: all)`);
  }
  if (problems.length > 0) return { problems };
  return { endpoint: { url: url as string, description: typeof description === 'string' ? description : null, eventTypes: [...new Set((eventTypes ?? []) as CrmAnyEventType[])] } };
}

/** A Standard Webhooks signing secret: `whsec_` and 24 random bytes in base64. */
export const newSigningSecret = () => `whsec_${randomBytes(24).toString('base64')}`;

/**
 * When a failed delivery is tried again: after the delay of its attempt number (the growing
 * schedule), or never (null: dead) once every delay is used.
 */
export function retryDelay(attemptsMade: number, delaysMs: readonly number[]): number | null {
  return attemptsMade <= delaysMs.length ? delaysMs[attemptsMade - 1]! : null;
}
