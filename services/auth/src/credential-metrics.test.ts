/**
 * The two gauges the on-call's credential alerts read from auth's /metrics: when the earliest
 * OAuth 2.0 access token of a connected account expires (CredentialNearExpiry), and whether auth
 * holds every command after the platform refused the app (PlatformRefusing stays on through a
 * long usage cap, when no call is made and the refusal counter stands still).
 */
import { testPool } from '@crm/testing';
import { startHarness, type Harness } from './testing/harness';

let h: Harness;

beforeAll(async () => {
  h = await startHarness({ prefix: 'auth_credential_metrics' });
});

afterAll(async () => {
  await h?.sim.delete('/control/platform/app-refusal');
  await h?.stop();
});

/** The sample of `metric` with these labels, as /metrics prints it. */
async function sample(metric: string, labels = ''): Promise<string | undefined> {
  const text = await (await fetch(`${h.authUrl}/metrics`)).text();
  const escaped = `${metric}${labels}`.replace(/[{}"]/g, (c) => `\\${c}`);
  return new RegExp(`^${escaped} (\\S+)$`, 'm').exec(text)?.[1];
}

it('reads +Inf with no OAuth 2.0 account, then the expiry of the earliest access token', async () => {
  await h.connect('@acme_o1only');
  expect(await sample('oauth2_access_token_earliest_expiry_timestamp_seconds')).toBe('+Inf');

  const accountId = await h.connectOAuth2('@acme_o2expiry');
  const pool = testPool(h.db.url, { applicationName: 'credential-metrics-test' });
  try {
    const { rows } = await pool.query<{ expires: Date }>('SELECT access_token_expires_at AS expires FROM accounts WHERE account_id = $1', [accountId]);
    expect(Number(await sample('oauth2_access_token_earliest_expiry_timestamp_seconds'))).toBeCloseTo(rows[0]!.expires.getTime() / 1000, 0);
  } finally {
    await pool.end();
  }
});

it('reads 1 for usage_capped while auth holds commands until the cap resets; the app is not out of credit', async () => {
  const accountId = await h.connect('@acme_capped');
  expect(await sample('platform_refusal_in_force', '{reason="usage_capped"}')).toBe('0');

  await h.sim.post('/control/platform/app-refusal', { kind: 'usage-capped', resetInSeconds: 3600 });
  expect((await h.crm.get(`/v1/accounts/${accountId}/profile`)).status).toBe(429);
  // The platform would answer now; auth holds until the reset it was given, and says so.
  await h.sim.delete('/control/platform/app-refusal');
  expect(await sample('platform_refusal_in_force', '{reason="usage_capped"}')).toBe('1');
  expect(await sample('platform_out_of_credit')).toBe('0');
});
