import { PUBLISHED_RATE_CARD } from '@crm/contracts';
import type { Request, RequestHandler, Response } from 'express';

/**
 * The platform's pay-per-use bill: a rate card (a price per resource read, per request
 * written), a prepaid balance, and a charge for every successful answer with data. A resource
 * read twice by the app in one UTC day is charged once. Once the balance is spent (it may go
 * slightly negative, as the platform's does), every request is refused with 402
 * `credits-depleted` until credits are added.
 */

/** The card's lines the simulator charges: the platform's published prices. */
export const RATE_CARD = PUBLISHED_RATE_CARD;

export type ChargeKind = keyof typeof RATE_CARD;

export interface Charge {
  at: string;
  /** The user whose token made the call; null for the app's own token. */
  userId: string | null;
  method: string;
  path: string;
  kind: ChargeKind;
  units: number;
  /** Dollars. */
  amount: number;
}

type Reader = 'data' | 'v1';

/** How a route is charged: a read per resource it answers (found by `reader`), or a write per request. */
interface Line {
  method: string;
  path: RegExp;
  kind: ChargeKind | ((req: Request, res: Response) => ChargeKind);
  reader?: Reader;
}

const URL_IN_TEXT = /https?:\/\/\S/i;

/** A post with a link costs more ("Post: Create (with URL)"). */
const postKind = (text: unknown): ChargeKind => (typeof text === 'string' && URL_IN_TEXT.test(text) ? 'post_create_with_url' : 'post_create');

const formOf = (res: Response) => ((res.locals as { form?: Record<string, string> }).form ?? {});

const LINES: Line[] = [
  // Reads (v2): per resource in `data`.
  { method: 'GET', path: /^\/2\/users\/me$/, kind: 'users_read', reader: 'data' },
  { method: 'GET', path: /^\/2\/users\/by\/username\/[^/]+$/, kind: 'users_read', reader: 'data' },
  { method: 'GET', path: /^\/2\/users\/\d+$/, kind: 'users_read', reader: 'data' },
  { method: 'GET', path: /^\/2\/users\/\d+\/following$/, kind: 'follows_read', reader: 'data' },
  { method: 'GET', path: /^\/2\/users\/\d+\/(tweets|timelines\/reverse_chronological)$/, kind: 'posts_read', reader: 'data' },
  { method: 'GET', path: /^\/2\/lists\/\d+\/tweets$/, kind: 'posts_read', reader: 'data' },
  { method: 'GET', path: /^\/2\/tweets\/search\/recent$/, kind: 'posts_read', reader: 'data' },
  { method: 'GET', path: /^\/2\/users\/\d+\/(owned_lists|followed_lists)$/, kind: 'lists_read', reader: 'data' },
  { method: 'GET', path: /^\/2\/dm_events(\/\d+)?$/, kind: 'dm_events_read', reader: 'data' },
  // Reads (v1.1): per status, user, list or event in the answer.
  { method: 'GET', path: /^\/1\.1\/search\/tweets\.json$/, kind: 'posts_read', reader: 'v1' },
  { method: 'GET', path: /^\/1\.1\/statuses\/(home_timeline|user_timeline)\.json$/, kind: 'posts_read', reader: 'v1' },
  { method: 'GET', path: /^\/1\.1\/lists\/statuses\.json$/, kind: 'posts_read', reader: 'v1' },
  { method: 'GET', path: /^\/1\.1\/(users\/show|account\/verify_credentials)\.json$/, kind: 'users_read', reader: 'v1' },
  { method: 'GET', path: /^\/1\.1\/friends\/list\.json$/, kind: 'follows_read', reader: 'v1' },
  { method: 'GET', path: /^\/1\.1\/lists\/(list|subscriptions)\.json$/, kind: 'lists_read', reader: 'v1' },
  { method: 'GET', path: /^\/1\.1\/direct_messages\/events\/(list|show)\.json$/, kind: 'dm_events_read', reader: 'v1' },
  // Writes (v2): per request.
  { method: 'POST', path: /^\/2\/tweets$/, kind: (req) => postKind((req.body as { text?: unknown } | undefined)?.text) },
  { method: 'DELETE', path: /^\/2\/tweets\/\d+$/, kind: 'interaction_delete' },
  { method: 'POST', path: /^\/2\/users\/\d+\/(likes|retweets|following|blocking|muting)$/, kind: 'user_interaction_create' },
  { method: 'DELETE', path: /^\/2\/users\/\d+\/muting\/\d+$/, kind: 'mute_delete' },
  { method: 'DELETE', path: /^\/2\/users\/\d+\/(likes|retweets|following|blocking)\/\d+$/, kind: 'interaction_delete' },
  { method: 'POST', path: /^\/2\/dm_conversations\/.+\/messages$/, kind: 'dm_interaction_create' },
  { method: 'DELETE', path: /^\/2\/dm_events\/\d+$/, kind: 'interaction_delete' },
  { method: 'POST', path: /^\/2\/lists$/, kind: 'list_create' },
  { method: 'PUT', path: /^\/2\/lists\/\d+$/, kind: 'list_manage' },
  { method: 'DELETE', path: /^\/2\/lists\/\d+$/, kind: 'list_manage' },
  { method: 'POST', path: /^\/2\/lists\/\d+\/members$/, kind: 'list_manage' },
  { method: 'DELETE', path: /^\/2\/lists\/\d+\/members\/\d+$/, kind: 'list_manage' },
  { method: 'POST', path: /^\/2\/users\/\d+\/followed_lists$/, kind: 'list_manage' },
  { method: 'DELETE', path: /^\/2\/users\/\d+\/followed_lists\/\d+$/, kind: 'list_manage' },
  // Writes (v1.1).
  { method: 'POST', path: /^\/1\.1\/statuses\/update\.json$/, kind: (_req, res) => postKind(formOf(res).status) },
  { method: 'POST', path: /^\/1\.1\/(favorites\/create|statuses\/retweet\/\d+|friendships\/create|blocks\/create|mutes\/users\/create)\.json$/, kind: 'user_interaction_create' },
  { method: 'POST', path: /^\/1\.1\/direct_messages\/events\/new\.json$/, kind: 'dm_interaction_create' },
  { method: 'POST', path: /^\/1\.1\/(users\/report_spam|collections\/.+)\.json$/, kind: 'content_manage' },
  { method: 'POST', path: /^\/1\.1\/account\/settings\.json$/, kind: 'privacy_update' },
];

const idOf = (item: unknown): string | null => {
  if (typeof item !== 'object' || item === null) return null;
  const { id_str: idStr, id } = item as { id_str?: unknown; id?: unknown };
  const value = idStr ?? id;
  return typeof value === 'string' || typeof value === 'number' ? String(value) : null;
};

const idsOf = (items: unknown): string[] => (Array.isArray(items) ? items : items === undefined || items === null ? [] : [items]).map(idOf).filter((id): id is string => id !== null);

/** The resources a read answered: v2's `data` (one object or a list), v1.1's list or its statuses, users, lists or events. */
function resourcesOf(reader: Reader, body: unknown): string[] {
  if (typeof body !== 'object' || body === null) return [];
  if (reader === 'data') return idsOf((body as { data?: unknown }).data);
  if (Array.isArray(body)) return idsOf(body);
  const record = body as Record<string, unknown>;
  for (const key of ['statuses', 'users', 'lists', 'events']) if (Array.isArray(record[key])) return idsOf(record[key]);
  if (record.event !== undefined) return idsOf(record.event);
  return idsOf(record);
}

const MICROS = 1_000_000;
const toMicros = (dollars: number) => Math.round(dollars * MICROS);
const utcDay = (at: Date) => at.toISOString().slice(0, 10);

/** The app's balance and its charges, in memory. */
export class Billing {
  private balanceMicros: number;
  private readonly charges: Charge[] = [];
  /** Resources charged today: `day|kind|id`. */
  private readonly seen = new Set<string>();
  private seenDay = '';

  constructor(
    balance: number,
    private readonly capacity = 20_000,
  ) {
    this.balanceMicros = toMicros(balance);
  }

  get balance(): number {
    return this.balanceMicros / MICROS;
  }

  /** Spent: requests are refused until credits are added. */
  get depleted(): boolean {
    return this.balanceMicros <= 0;
  }

  setBalance(dollars: number): void {
    this.balanceMicros = toMicros(dollars);
  }

  topUp(dollars: number): void {
    this.balanceMicros += toMicros(dollars);
  }

  list(filter: { userId?: string; from?: Date; to?: Date } = {}): Charge[] {
    return this.charges.filter((c) => (!filter.userId || c.userId === filter.userId) && (!filter.from || c.at >= filter.from.toISOString()) && (!filter.to || c.at < filter.to.toISOString()));
  }

  /** Charges one answered call, when the card has a line for it; reads count only the resources not yet charged today. */
  charge(req: Request, res: Response, body: unknown, userId: string | null, now = new Date()): Charge | null {
    const path = req.originalUrl.split('?')[0]!;
    const line = LINES.find((l) => l.method === req.method && l.path.test(path));
    if (!line) return null;
    const kind = typeof line.kind === 'function' ? line.kind(req, res) : line.kind;
    const units = line.reader ? this.newResources(kind, resourcesOf(line.reader, body), now) : 1;
    if (units === 0) return null;
    const micros = toMicros(RATE_CARD[kind]) * units;
    this.balanceMicros -= micros;
    const charge: Charge = { at: now.toISOString(), userId, method: req.method, path, kind, units, amount: micros / MICROS };
    this.charges.push(charge);
    if (this.charges.length > this.capacity) this.charges.splice(0, this.charges.length - this.capacity);
    return charge;
  }

  private newResources(kind: ChargeKind, ids: string[], now: Date): number {
    const day = utcDay(now);
    if (day !== this.seenDay) {
      this.seen.clear();
      this.seenDay = day;
    }
    let fresh = 0;
    for (const id of new Set(ids)) {
      const key = `${kind}|${id}`;
      if (this.seen.has(key)) continue;
      this.seen.add(key);
      fresh += 1;
    }
    return fresh;
  }

  /** Charges every successful answer of the platform API as it is sent (a read by the resources of its JSON answer). */
  middleware(): RequestHandler {
    return (req, res, next) => {
      let body: unknown = null;
      let charged = false;
      const json = res.json.bind(res);
      res.json = (value: unknown) => {
        body = value;
        return json(value);
      };
      const end = res.end.bind(res) as (...args: unknown[]) => Response;
      res.end = ((...args: unknown[]) => {
        const caller = (res.locals as { caller?: { kind: string; userId?: string } }).caller;
        if (!charged && caller && res.statusCode >= 200 && res.statusCode < 300) {
          charged = true;
          this.charge(req, res, body, caller.userId ?? null);
        }
        return end(...args);
      }) as Response['end'];
      next();
    };
  }
}
