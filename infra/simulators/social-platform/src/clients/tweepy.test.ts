/**
 * The simulator driven by tweepy (Debian's python3-tweepy, which bootstrap installs), unchanged:
 * tweepy_drive.py sends tweepy's connections to the simulator and trusts its test certificate.
 */
import { startTweepySimulator, type TweepySimulator } from './tweepy-run';

let tweepy: TweepySimulator;

beforeAll(async () => {
  tweepy = await startTweepySimulator();
});

afterAll(async () => {
  await tweepy.close();
});

it('tweepy connects accounts with OAuth 1.0a and OAuth 2.0 PKCE, and every v1.1 and v2 action it calls works', async () => {
  const { code, calls, stderr } = await tweepy.drive('tweepy_drive.py');
  const failed = calls.filter((call) => !call.ok);
  expect({ failed, stderr: code === 0 ? '' : stderr }).toEqual({ failed: [], stderr: '' });
  expect(code).toBe(0);
  expect(calls.map((call) => call.call)).toEqual(expect.arrayContaining(['oauth1 connect', 'send_direct_message', 'unretweet', 'get_friend_ids', 'destroy_list', 'oauth2 app-only bearer token', 'oauth2 connect', 'v2 create_direct_message']));
  expect(calls.length).toBeGreaterThanOrEqual(48);
}, 60_000);
