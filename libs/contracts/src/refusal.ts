/**
 * What kind of "no" a refusal is, whatever the service and whatever the transport: a use case or
 * an adapter throws a Refusal with a kind and a machine code, and libs/http's error middleware
 * turns the kind into an HTTP status in one table. Nothing else picks a status for an error.
 */
export const REFUSAL_KINDS = [
  'invalid',
  'unauthorized',
  'forbidden',
  'not_found',
  'method_not_allowed',
  /** The answer cannot be given in a media type the request accepts. */
  'not_acceptable',
  'conflict',
  'too_large',
  'unsupported_media_type',
  /** Well-formed, but what it names does not exist where it must (another service knows no such thing). */
  'unprocessable',
  'upstream_rejected',
  'rate_limited',
  'not_implemented',
  'upstream_failed',
  'unavailable',
  'upstream_timeout',
] as const;

export type RefusalKind = (typeof REFUSAL_KINDS)[number];

export interface RefusalDetails {
  /** Headers the answer carries (retry-after, www-authenticate). */
  headers?: Record<string, string>;
  /** Per-field problems, listed beside the message. */
  fields?: unknown[];
}

/** A request refused: `kind` says which, `code` is the machine code, the message is for a person. */
export class Refusal extends Error {
  override name = 'Refusal';
  constructor(
    readonly kind: RefusalKind,
    readonly code: string,
    message: string,
    readonly details: RefusalDetails = {},
  ) {
    super(message);
  }
}
