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
