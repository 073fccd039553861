/**
 * The simulator's v1.1 reads as tweepy (Debian's python3-tweepy 4.12, unchanged) makes them:
 * app-only bearer reads of users/show and statuses/user_timeline, `tweet_mode=extended`
 * (`full_text` and `display_text_range` instead of `text`), and lists/members paged by cursor
 * (tweepy's Cursor, and the cursors themselves, back and forth).
 */
import { startTweepySimulator, type CallResult, type TweepySimulator } from './tweepy-run';

const LONG = `${'Our help desk answers every message within the hour, '.repeat(4)}thanks for waiting.`;
let tweepy: TweepySimulator;
let calls: Map<string, CallResult>;

beforeAll(async () => {
  tweepy = await startTweepySimulator();
  const run = await tweepy.drive('tweepy_reads.py');
  calls = new Map(run.calls.map((call) => [call.call, call]));
  if (run.code !== 0) throw new Error(`tweepy_reads.py failed: ${JSON.stringify(run.calls.filter((call) => !call.ok))} ${run.stderr}`);
}, 60_000);

afterAll(async () => {
  await tweepy?.close();
});

const detail = (name: string) => {
  const call = calls.get(name);
  if (!call?.ok) throw new Error(`${name}: ${JSON.stringify(call)}`);
  return call.detail;
};

it('serves users/show and statuses/user_timeline to the app-only bearer token, and refuses a timeline that names no user', () => {
  expect(detail('app get_user')).toEqual({ screen_name: 'tw_reads_desk', id_str: expect.stringMatching(/^[0-9]+$/) });
  expect(detail('app user_timeline')).toEqual([{ text: LONG }]);
  expect(detail('app user_timeline unnamed')).toEqual({ status: 400, codes: [38] });
});

it('gives full_text and display_text_range instead of text with tweet_mode=extended, for the app and a user, on reposts too', () => {
  const extended = { full_text: LONG, display_text_range: [0, [...LONG].length] };
  expect(detail('app user_timeline extended')).toEqual([extended]);
  expect(detail('user home_timeline extended')).toEqual([extended]);
  const repost = `RT @tw_reads_desk: ${LONG}`;
  expect(detail('user retweet extended')).toEqual([{ full_text: repost, display_text_range: [0, [...repost].length], retweeted_status: extended }]);
});

it('pages lists/members by cursor: every member once in the order added, next and previous cursors, 0 at the ends', () => {
  expect(detail('get_list_members pages')).toEqual([
    ['tw_reads_m1', 'tw_reads_m2'],
    ['tw_reads_m3', 'tw_reads_m4'],
    ['tw_reads_m5'],
  ]);
  // [members..., [previous_cursor, next_cursor]] for cursor -1, 2, 4, then back from 4.
  expect(detail('get_list_members cursors')).toEqual([
    ['tw_reads_m1', 'tw_reads_m2', [0, 2]],
    ['tw_reads_m3', 'tw_reads_m4', [-2, 4]],
    ['tw_reads_m5', [-4, 0]],
    ['tw_reads_m3', 'tw_reads_m4', [-2, 4]],
  ]);
  expect(detail('app get_list_members by slug')).toEqual([
    ['tw_reads_m1', 'tw_reads_m2', 'tw_reads_m3'],
    ['tw_reads_m4', 'tw_reads_m5'],
  ]);
});

it("shows a private list's members to its owner only (the app gets 404 code 34)", () => {
  expect(detail('app get_list_members private')).toEqual({ status: 404, codes: [34] });
  expect(detail('owner get_list_members private')).toEqual(['tw_reads_m1']);
});
