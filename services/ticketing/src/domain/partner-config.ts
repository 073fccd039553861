import { ajv, describeErrors, TICKET_PRIORITIES, type TicketPriority } from '@crm/contracts';
import { checkBusinessHours, type BusinessHours } from './business-hours';
import type { SlaMinutes, SlaPolicy } from './sla';
import { SOCIAL_EVENT_KINDS, type SocialEventKind } from './social-events';
import { checkReferences, ordersInputSchema, ordersWithDefaults, type OrdersConfig, type OrdersConfigInput } from './order-references';

/**
 * The partner configuration of a connected account (docs/architecture.md, "CRM-facing HTTP"): where its
 * tickets go, how fast they are due, and what each kind of activity does.
 */

/** What an activity kind does: open (or join) a ticket, go on the contact's timeline, or nothing. */
const DISPOSITIONS = ['ticket', 'timeline', 'ignore'] as const;
export type Disposition = (typeof DISPOSITIONS)[number];

/** The policy toggles and the kinds they govern. */
const POLICY_KINDS = {
  dmReceived: 'dm_received',
  mention: 'mention',
  quoteOfAccount: 'quote_of_account',
  replyToAccount: 'reply_to_account',
  repostOfAccount: 'repost_of_account',
  likeOfAccount: 'like_of_account',
  followOfAccount: 'follow_of_account',
  unfollowOfAccount: 'unfollow_of_account',
} as const satisfies Record<string, SocialEventKind>;

export type PolicyToggle = keyof typeof POLICY_KINDS;
export type RoutableKind = (typeof POLICY_KINDS)[PolicyToggle];
const ROUTABLE_KINDS = Object.values(POLICY_KINDS) as RoutableKind[];

/** Defaults of the issue: messages to the account open tickets, reactions go on the contact's timeline. */
export const DEFAULT_POLICY: Record<PolicyToggle, Disposition> = {
  dmReceived: 'ticket',
  mention: 'ticket',
  quoteOfAccount: 'ticket',
  replyToAccount: 'ticket',
  repostOfAccount: 'timeline',
  likeOfAccount: 'timeline',
  followOfAccount: 'timeline',
  unfollowOfAccount: 'timeline',
};

/** A resolved ticket takes new messages of its conversation for this long (7 days), then a new ticket starts. */
const DEFAULT_REOPEN_WINDOW_MINUTES = 7 * 24 * 60;

export interface RoutingRule {
  name: string;
  when: { kinds?: RoutableKind[]; keywords?: string[]; senders?: string[]; languages?: string[] };
  queue: string;
  folder: string;
}

/** A search query as configured: a plain string, or with its own interval and whether reposts count. */
export type SearchQueryInput = string | { query: string; intervalSeconds?: number; includeReposts?: boolean };

/** A search query with its defaults filled in. */
export interface SearchQuery {
  query: string;
  intervalSeconds: number;
  includeReposts: boolean;
}

export const DEFAULT_SEARCH_INTERVAL_SECONDS = 300;

/** The SLA part of a configuration; the optional parts are absent in configurations stored before they existed. */
export interface SlaConfig extends SlaMinutes {
  businessHours?: BusinessHours | null;
  atRiskPercent?: number | null;
  byPriority?: Partial<Record<TicketPriority, Partial<SlaMinutes>>>;
}

export interface PartnerConfig {
  pageId: string;
  pageName: string | null;
  sla: SlaConfig;
  routing: { defaultQueue: string; defaultFolder: string; rules: RoutingRule[] };
  policy: Record<PolicyToggle, Disposition> & { reopenWindowMinutes: number };
  searchQueries: SearchQueryInput[];
  merge: { enabled: boolean; windowMinutes: number };
  /** Orders found in messages and followed; null (absent in configurations stored before it existed) turns it off. */
  orders?: OrdersConfig | null;
}

/** Where the service's settings put tickets when a configuration leaves it open. */
export interface ConfigDefaults {
  queue: string;
  folder: string;
  firstResponseMinutes: number;
  resolutionMinutes: number;
}

/** The body of `PUT /v1/partner-configs/:pageId`: everything optional but the rules' parts. */
export type PartnerConfigInput = {
  pageId?: string;
  pageName?: string | null;
  consumerKey?: string | null;
  accessToken?: string | null;
  sla?: Partial<SlaConfig>;
  routing?: { defaultQueue?: string; defaultFolder?: string; rules?: RoutingRule[] };
  policy?: Partial<PartnerConfig['policy']>;
  searchQueries?: SearchQueryInput[];
  merge?: Partial<PartnerConfig['merge']>;
  orders?: OrdersConfigInput | null;
};

const name = { type: 'string', minLength: 1, maxLength: 100, pattern: '\\S' } as const;
const disposition = { type: 'string', enum: [...DISPOSITIONS] } as const;
const slaMinutes = {
  firstResponseMinutes: { type: 'integer', minimum: 1, maximum: 525_600 },
  resolutionMinutes: { type: 'integer', minimum: 1, maximum: 5_256_000 },
} as const;
const queryText = { type: 'string', minLength: 1, maxLength: 500, pattern: '\\S' } as const;
const list = (items: Record<string, unknown>) => ({ type: 'array', minItems: 1, maxItems: 100, uniqueItems: true, items });

const inputSchema = {
  type: 'object',
  additionalProperties: false,
  properties: {
    pageId: { type: 'string', pattern: '^[0-9]{1,30}$' },
    pageName: { type: ['string', 'null'], maxLength: 200 },
    // Read-only parts of a GET answer (auth's masked credentials, ...): accepted, so a GET body can be PUT back, and ignored.
    consumerKey: { type: ['string', 'null'], maxLength: 200 },
    accessToken: { type: ['string', 'null'], maxLength: 200 },
    accountStatus: { type: ['string', 'null'], maxLength: 50 },
    createdAt: { type: 'string', maxLength: 50 },
    updatedAt: { type: 'string', maxLength: 50 },
    sla: {
      type: 'object',
      additionalProperties: false,
      properties: {
        ...slaMinutes,
        // checked by checkBusinessHours, whose messages name the day and interval
        businessHours: { type: ['object', 'null'] },
        atRiskPercent: { type: ['integer', 'null'], minimum: 1, maximum: 99 },
        byPriority: {
          type: 'object',
          additionalProperties: false,
          properties: Object.fromEntries(TICKET_PRIORITIES.map((priority) => [priority, { type: 'object', additionalProperties: false, properties: slaMinutes }])),
        },
      },
    },
    routing: {
      type: 'object',
      additionalProperties: false,
      properties: {
        defaultQueue: name,
        defaultFolder: name,
        rules: {
          type: 'array',
          maxItems: 200,
          items: {
            type: 'object',
            required: ['name', 'queue', 'folder'],
            additionalProperties: false,
            properties: {
              name,
              when: {
                type: 'object',
                additionalProperties: false,
                properties: {
                  kinds: list({ type: 'string', enum: ROUTABLE_KINDS }),
                  keywords: list({ type: 'string', minLength: 1, maxLength: 100, pattern: '\\S' }),
                  senders: list({ type: 'string', pattern: '^(@[A-Za-z0-9_]{1,15}|[0-9]{1,30})$' }),
                  languages: list({ type: 'string', pattern: '^[a-z]{2,3}(-[A-Za-z0-9]{1,8})*$' }),
                },
              },
              queue: name,
              folder: name,
            },
          },
        },
      },
    },
    policy: {
      type: 'object',
      additionalProperties: false,
      properties: {
        ...Object.fromEntries(Object.keys(DEFAULT_POLICY).map((toggle) => [toggle, disposition])),
        reopenWindowMinutes: { type: 'integer', minimum: 0, maximum: 525_600 },
      },
    },
    searchQueries: {
      type: 'array',
      maxItems: 50,
      items: {
        ...queryText,
        type: ['string', 'object'],
        required: ['query'],
        additionalProperties: false,
        properties: { query: queryText, intervalSeconds: { type: 'integer', minimum: 10, maximum: 86_400 }, includeReposts: { type: 'boolean' } },
      },
    },
    merge: {
      type: 'object',
      additionalProperties: false,
      properties: { enabled: { type: 'boolean' }, windowMinutes: { type: 'integer', minimum: 1, maximum: 525_600 } },
    },
    orders: ordersInputSchema,
  },
} as const;

const validateInput = ajv.compile<PartnerConfigInput>(inputSchema);

/** The problems of a PUT body, each naming its field (`/routing/rules/0/queue must be string`); empty when valid. */
export function checkPartnerConfig(body: unknown): string[] {
  if (!validateInput(body)) return describeErrors(validateInput.errors);
  const hours = body.sla?.businessHours;
  const problems = hours ? checkBusinessHours(hours, '/sla/businessHours') : [];
  const queries = searchQueriesOf(body.searchQueries ?? []).map((query) => query.query.trim().toLowerCase());
  queries.forEach((query, index) => {
    if (queries.indexOf(query) !== index) problems.push(`/searchQueries/${index} repeats the query "${query}"`);
  });
  problems.push(...checkReferences(body.orders?.references ?? []));
  return problems;
}

/** The configured search queries with their defaults. */
export function searchQueriesOf(inputs: SearchQueryInput[]): SearchQuery[] {
  return inputs.map((input) =>
    typeof input === 'string'
      ? { query: input, intervalSeconds: DEFAULT_SEARCH_INTERVAL_SECONDS, includeReposts: false }
      : { query: input.query, intervalSeconds: input.intervalSeconds ?? DEFAULT_SEARCH_INTERVAL_SECONDS, includeReposts: input.includeReposts ?? false },
  );
}

/** The SLA policy of a configuration, its optional parts filled in. */
export function slaPolicyOf(config: Pick<PartnerConfig, 'sla'>): SlaPolicy {
  const { sla } = config;
  return {
    firstResponseMinutes: sla.firstResponseMinutes,
    resolutionMinutes: sla.resolutionMinutes,
    businessHours: sla.businessHours ?? null,
    atRiskPercent: sla.atRiskPercent ?? null,
    byPriority: sla.byPriority ?? {},
  };
}

/** A valid input with every missing part filled in: what PUT stores (it replaces the whole configuration). */
export function withDefaults(pageId: string, input: PartnerConfigInput, defaults: ConfigDefaults): PartnerConfig {
  return {
    pageId,
    pageName: input.pageName ?? null,
    sla: {
      firstResponseMinutes: input.sla?.firstResponseMinutes ?? defaults.firstResponseMinutes,
      resolutionMinutes: input.sla?.resolutionMinutes ?? defaults.resolutionMinutes,
      businessHours: input.sla?.businessHours ?? null,
      atRiskPercent: input.sla?.atRiskPercent ?? null,
      byPriority: input.sla?.byPriority ?? {},
    },
    routing: {
      defaultQueue: input.routing?.defaultQueue ?? defaults.queue,
      defaultFolder: input.routing?.defaultFolder ?? defaults.folder,
      rules: (input.routing?.rules ?? []).map((rule) => ({ name: rule.name, when: rule.when ?? {}, queue: rule.queue, folder: rule.folder })),
    },
    policy: { ...DEFAULT_POLICY, reopenWindowMinutes: DEFAULT_REOPEN_WINDOW_MINUTES, ...input.policy },
    searchQueries: input.searchQueries ?? [],
    merge: { enabled: false, windowMinutes: 60, ...input.merge },
    orders: ordersWithDefaults(input.orders),
  };
}

/** What the configuration says an activity kind does; kinds without a toggle have fixed behaviour. */
export function dispositionOf(kind: SocialEventKind, config: PartnerConfig): Disposition | null {
  const toggle = (Object.keys(POLICY_KINDS) as PolicyToggle[]).find((key) => POLICY_KINDS[key] === kind);
  return toggle ? config.policy[toggle] : null;
}

/** What routing looks at in the activity that opens a ticket. */
export interface RoutingSubject {
  kind: SocialEventKind;
  text: string | null;
  senderId: string | null;
  senderScreenName: string | null;
  lang: string | null;
}

export interface RoutingDecision {
  queue: string;
  folder: string;
  /** The rule that matched; null for the defaults. */
  rule: string | null;
}

const escape = (value: string) => value.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** A keyword matches as a whole word or phrase, case-insensitively, in any script. */
function containsKeyword(text: string, keyword: string): boolean {
  return new RegExp(`(^|[^\\p{L}\\p{N}_])${escape(keyword.trim())}($|[^\\p{L}\\p{N}_])`, 'iu').test(text);
}

function senderMatches(sender: string, subject: RoutingSubject): boolean {
  if (sender.startsWith('@')) return subject.senderScreenName?.toLowerCase() === sender.slice(1).toLowerCase();
  return subject.senderId === sender;
}

/** `en` matches `en` and `en-GB`; an activity without a language (DMs carry none) matches no language condition. */
function languageMatches(language: string, lang: string | null): boolean {
  if (!lang) return false;
  const given = lang.toLowerCase();
  return given === language.toLowerCase() || given.startsWith(`${language.toLowerCase()}-`);
}

function ruleMatches(rule: RoutingRule, subject: RoutingSubject): boolean {
  const { kinds, keywords, senders, languages } = rule.when;
  if (kinds && !kinds.some((kind) => kind === subject.kind)) return false;
  if (keywords && !keywords.some((keyword) => subject.text !== null && containsKeyword(subject.text, keyword))) return false;
  if (senders && !senders.some((sender) => senderMatches(sender, subject))) return false;
  if (languages && !languages.some((language) => languageMatches(language, subject.lang))) return false;
  return true;
}

/** The queue and folder of a new ticket: the first rule whose every condition holds, else the defaults. */
export function route(subject: RoutingSubject, config: PartnerConfig): RoutingDecision {
  const rule = config.routing.rules.find((candidate) => ruleMatches(candidate, subject));
  return rule
    ? { queue: rule.queue, folder: rule.folder, rule: rule.name }
    : { queue: config.routing.defaultQueue, folder: config.routing.defaultFolder, rule: null };
}

/** Reads the rule tester's body `{kind, text?, sender?, lang?}` into what routing looks at, or its problems. */
export function readRoutingSubject(body: unknown): { subject: RoutingSubject } | { problems: string[] } {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) return { problems: ['send {"kind", "text", "sender", "lang"} as a JSON object'] };
  const { kind, text, sender, lang, ...extra } = body as Record<string, unknown>;
  const problems: string[] = [];
  if (Object.keys(extra).length > 0) problems.push(`unknown field(s) ${Object.keys(extra).map((key) => `/${key}`).join(', ')}`);
  if (!(SOCIAL_EVENT_KINDS as readonly unknown[]).includes(kind)) problems.push(`/kind must be one of ${SOCIAL_EVENT_KINDS.join(', ')}`);
  if (text !== undefined && text !== null && (typeof text !== 'string' || text.length > 10_000)) problems.push('/text must be a string of at most 10000 characters');
  if (sender !== undefined && sender !== null && (typeof sender !== 'string' || !/^(@[A-Za-z0-9_]{1,15}|[0-9]{1,30})$/.test(sender))) problems.push('/sender must be @screen_name or a platform user id');
  if (lang !== undefined && lang !== null && (typeof lang !== 'string' || !/^[A-Za-z]{2,3}(-[A-Za-z0-9]{1,8})*$/.test(lang))) problems.push('/lang must be a language tag (en, en-GB)');
  if (problems.length > 0) return { problems };
  const who = typeof sender === 'string' ? sender : null;
  return {
    subject: {
      kind: kind as SocialEventKind,
      text: typeof text === 'string' ? text : null,
      senderId: who && !who.startsWith('@') ? who : null,
      senderScreenName: who?.startsWith('@') ? who.slice(1) : null,
      // As recording does: DMs carry no language, whatever the tester says.
      lang: typeof lang === 'string' && !String(kind).startsWith('dm_') ? lang : null,
    },
  };
}
