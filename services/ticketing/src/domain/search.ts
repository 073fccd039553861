import type { SocialEvent } from './social-events';
import { interpretActivity } from './activity';
import { isRecord } from './platform-values';

/**
 * What a search query's results become: the same typed events a webhook delivery of those
 * posts gives (a post by someone else is a mention, a reply to the account's post a reply,
 * ...), so a post found by search and delivered by webhook is one activity (its key is the
 * account and the post id). Pure: no I/O, no clock.
 */

export interface SearchMatches {
  events: SocialEvent[];
  /** The newest post id among the results, skipped ones included: the next run starts after it. */
  newestId: string | null;
  skipped: { postId: string | null; reason: string }[];
}

const idOf = (tweet: Record<string, unknown>): string | null => (typeof tweet.id_str === 'string' && /^[0-9]{1,20}$/.test(tweet.id_str) ? tweet.id_str : null);
const newer = (a: string | null, b: string | null): string | null => (a === null ? b : b === null ? a : BigInt(a) >= BigInt(b) ? a : b);

function authorOf(tweet: Record<string, unknown>): string | null {
  const user = isRecord(tweet.user) ? tweet.user : null;
  return typeof user?.id_str === 'string' ? user.id_str : null;
}

/** One result as events; a repost (when reposts count) is read as a post of its own, not as the post it repeats. */
function eventsOf(accountId: string, tweet: Record<string, unknown>): { events: SocialEvent[]; ignored: string[] } {
  const { retweeted_status: _repeated, ...post } = tweet;
  const interpretation = interpretActivity({
    envName: 'search',
    kind: 'tweet_create_events',
    forUserId: accountId,
    receivedAt: new Date(0).toISOString(),
    bodySha256: '0'.repeat(64),
    delivery: { for_user_id: accountId, tweet_create_events: [post] },
  });
  return { events: interpretation.events, ignored: interpretation.ignored.map((item) => item.reason) };
}

export function searchMatches(accountId: string, tweets: Record<string, unknown>[], options: { includeReposts: boolean }): SearchMatches {
  const matches: SearchMatches = { events: [], newestId: null, skipped: [] };
  for (const tweet of tweets) {
    const postId = idOf(tweet);
    matches.newestId = newer(matches.newestId, postId);
    if (authorOf(tweet) === accountId) {
      matches.skipped.push({ postId, reason: "the account's own post" });
      continue;
    }
    if (isRecord(tweet.retweeted_status) && !options.includeReposts) {
      matches.skipped.push({ postId, reason: 'a repost (the query does not include reposts)' });
      continue;
    }
    try {
      const { events, ignored } = eventsOf(accountId, tweet);
      matches.events.push(...events);
      for (const reason of ignored) matches.skipped.push({ postId, reason });
    } catch (error) {
      matches.skipped.push({ postId, reason: `unusable post: ${(error as Error).message}` });
    }
  }
  return matches;
}
