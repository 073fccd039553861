import prometheus from 'prom-client';

/** Why the platform refused a call as a whole (not the request): its rate limit, the monthly usage cap, or spent credits. */
export type RefusalReason = 'rate_limited' | 'usage_capped' | 'credits_depleted';

/** auth's own metrics, beside the HTTP, broker and pool ones of the libs (all served on /metrics). Alert rules use this exact name. */
export const platformRefusals = new prometheus.Counter({
  name: 'platform_refusals_total',
  help: 'Answers of the platform refusing a call for the app or account as a whole: 429 rate limit (rate_limited), 429 usage-capped (usage_capped), 402 credits-depleted (credits_depleted).',
  labelNames: ['reason'] as const,
});

// Every reason shows from the first scrape (at 0), so a rule on an increase sees its first refusal.
for (const reason of ['rate_limited', 'usage_capped', 'credits_depleted'] as const) platformRefusals.labels(reason).inc(0);

type RefusalInForce = () => { reason: RefusalReason } | null;
let refusalInForce: RefusalInForce = () => null;

/**
 * 1 while auth fails every command because the platform's usage cap for the app is used up
 * (until its reset or PLATFORM_REFUSAL_HOLD_SECONDS): no call is made then, so the refusal
 * counter stays still, and only this gauge says the refusal lasts.
 */
export const platformRefusalInForce = new prometheus.Gauge({
  name: 'platform_refusal_in_force',
  help: "Whether auth fails every command now (1) because the platform's monthly usage cap for the app is used up (usage_capped), until the reset or for PLATFORM_REFUSAL_HOLD_SECONDS at a time.",
  labelNames: ['reason'] as const,
  collect() {
    this.labels('usage_capped').set(refusalInForce()?.reason === 'usage_capped' ? 1 : 0);
  },
});

type OutOfCreditNow = () => Promise<boolean>;
let outOfCreditNow: OutOfCreditNow = async () => false;

/**
 * 1 while the app is out of credit on the platform (from its first 402 credits-depleted until
 * a probe finds credit back), read from auth's database at each scrape: every replica says the
 * same. Commands are held meanwhile, so no result says so: this gauge does.
 */
export const platformOutOfCredit = new prometheus.Gauge({
  name: 'platform_out_of_credit',
  help: "Whether the app is out of credit on the platform now (1): auth holds every command and refuses reads until credit is back.",
  async collect() {
    // The database out of reach fails readiness, not /metrics: the gauge keeps its last value.
    const out = await outOfCreditNow().catch(() => undefined);
    if (out !== undefined) this.set(out ? 1 : 0);
  },
});

type EarliestTokenExpiry = () => Promise<Date | null>;
let earliestTokenExpiry: EarliestTokenExpiry = async () => null;

/**
 * When the first OAuth 2.0 access token of a connected account expires, read at each scrape.
 * auth renews tokens OAUTH2_REFRESH_MARGIN_SECONDS before that, so a time close to now means the
 * renewals are failing. +Inf when no OAuth 2.0 account is connected.
 */
export const oauth2TokenEarliestExpiry = new prometheus.Gauge({
  name: 'oauth2_access_token_earliest_expiry_timestamp_seconds',
  help: "When the earliest access token of a connected OAuth 2.0 account expires (Unix seconds; +Inf with none): auth renews tokens well before, so one close to now means renewals fail.",
  async collect() {
    // The database out of reach fails readiness, not /metrics: the gauge keeps its last value.
    const earliest = await earliestTokenExpiry().catch(() => undefined);
    if (earliest !== undefined) this.set(earliest ? earliest.getTime() / 1000 : Number.POSITIVE_INFINITY);
  },
});

/** Where the gauges above read their state, given once the service's parts exist. */
export function measureCredentialState(sources: { refusalInForce: RefusalInForce; earliestTokenExpiry: EarliestTokenExpiry; outOfCredit: OutOfCreditNow }): void {
  refusalInForce = sources.refusalInForce;
  outOfCreditNow = sources.outOfCredit;
  earliestTokenExpiry = sources.earliestTokenExpiry;
}

/**
 * What auth's platform calls cost, priced from the rate card (PLATFORM_RATE_CARD) as they are
 * made, by rate-card kind. No account label: the usage per account is `GET /v1/usage`.
 */
export const platformSpend = new prometheus.Counter({
  name: 'platform_spend_dollars_total',
  help: "Dollars auth's platform calls cost, priced from the rate card (a resource read twice by an account in one UTC day counted once), by rate-card kind.",
  labelNames: ['kind'] as const,
});

export const platformUnits = new prometheus.Counter({
  name: 'platform_units_total',
  help: "Units auth's platform calls were charged for, by rate-card kind: resources read (deduplicated per account and UTC day) or requests written.",
  labelNames: ['kind'] as const,
});
