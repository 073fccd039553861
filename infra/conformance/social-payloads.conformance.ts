import { readFileSync } from 'node:fs';
import { checkDelivery, RawActivity, validateEnvelope, type RawActivityPayload } from '../../libs/contracts/src';
import { interpretActivity } from '../../services/ticketing/src/domain/activity';
import { inspectDelivery } from '../../services/webhook-ingest/src/domain/delivery';
import { readSocial, socialFile, socialFiles } from './fixtures';

/**
 * Every published Account Activity example, taken the way a delivery travels: its bytes
 * through webhook-ingest's inspection and the delivery contract, the raw activity message
 * through its envelope contract, and the payload through ticketing's interpretation, which
 * must either read each event or name why it ignores it, never refuse the delivery.
 */

/** Templates published with a JSON error of their own (a misplaced `]`), which filling cannot mend. */
const MALFORMED_AS_PUBLISHED = ['follow_events.follow.official-template.txt', 'follow_events.unfollow.official-template.txt'];

/** A post object inside `tweet_create_events[]` is not a delivery: it is delivered for its author. */
const POST_OBJECT_SUFFIX = '.tweet_object_only.official.json';

function userObject(id: string, screenName: string) {
  return { id, id_str: id, screen_name: screenName, name: screenName, followers_count: 3, verified: false, protected: false };
}

/** A post by `authorId`, from the published post object (any is fine: its author is replaced). */
function postBy(authorId: string): Record<string, unknown> {
  const [name] = socialFiles(POST_OBJECT_SUFFIX);
  const post = JSON.parse(readSocial(name!)) as Record<string, unknown>;
  return { ...post, user: { ...(post.user as object), id: Number(authorId), id_str: authorId } };
}

/**
 * A template with its placeholders filled the way the platform fills them: `source` is the
 * account (it reports only the account's own blocks and mutes), `target` and `user` someone
 * else, the post the account's own.
 */
function fillTemplate(text: string): string {
  const account = /"for_user_id"\s*:\s*"?([0-9]+)/.exec(text)?.[1] ?? '1';
  return text
    .replace(/"source"\s*:\s*\{\s*<\s*User Object\s*>\s*\}/g, `"source": ${JSON.stringify(userObject(account, 'account'))}`)
    .replace(/\{\s*<\s*User Object\s*>\s*\}/g, JSON.stringify(userObject('777000111', 'customer')))
    .replace(/\{\s*<\s*Tweet Object\s*>\s*\}/g, JSON.stringify(postBy(account)));
}

interface Example {
  name: string;
  bytes: Buffer;
}

function examples(): Example[] {
  const deliveries = [...socialFiles('.official.json'), ...socialFiles('.SYNTHESIZED.json')]
    .filter((name) => !name.endsWith(POST_OBJECT_SUFFIX))
    .map((name) => ({ name, bytes: readFileSync(socialFile(name)) }));
  const posts = socialFiles(POST_OBJECT_SUFFIX).map((name) => {
    const post = JSON.parse(readSocial(name)) as { user: { id_str: string } };
    return { name, bytes: Buffer.from(JSON.stringify({ for_user_id: post.user.id_str, tweet_create_events: [post] })) };
  });
  const templates = socialFiles('.official-template.txt')
    .filter((name) => !MALFORMED_AS_PUBLISHED.includes(name))
    .map((name) => ({ name, bytes: Buffer.from(fillTemplate(readSocial(name))) }));
  return [...deliveries, ...posts, ...templates];
}

const ALL = examples();
const counts = { examples: ALL.length, events: 0, ignored: 0 };

afterAll(() => {
  console.log(`conformance: ${counts.examples} published social examples, ${counts.events} events read by ticketing, ${counts.ignored} ignored with a reason`);
});

describe('the published social examples', () => {
  it('are all here: deliveries, a post object and templates', () => {
    expect(socialFiles('.official.json').length).toBeGreaterThan(0);
    expect(socialFiles(POST_OBJECT_SUFFIX).length).toBeGreaterThan(0);
    expect(socialFiles('.official-template.txt').length).toBeGreaterThan(0);
  });

  it('templates fail to parse only where they are known to be malformed as published', () => {
    const unparsable = socialFiles('.official-template.txt').filter((name) => {
      try {
        JSON.parse(fillTemplate(readSocial(name)));
        return false;
      } catch {
        return true;
      }
    });
    expect(unparsable).toEqual(MALFORMED_AS_PUBLISHED.filter((name) => socialFiles('.official-template.txt').includes(name)));
  });

  it.each(ALL.map((example) => [example.name, example] as const))('%s: passes the delivery contract and ticketing reads it', (_name, { bytes }) => {
    const body = JSON.parse(bytes.toString('utf8')) as unknown;
    const check = checkDelivery(body);
    expect(check).toMatchObject({ ok: true });

    const inspected = inspectDelivery(bytes);
    if (!inspected.ok) throw new Error(inspected.message);
    const payload: RawActivityPayload = {
      envName: 'conformance',
      kind: inspected.kind,
      forUserId: inspected.forUserId,
      receivedAt: new Date().toISOString(),
      bodySha256: inspected.bodySha256,
      delivery: inspected.delivery,
    };
    const envelope = validateEnvelope(
      { id: `delivery-${inspected.bodySha256}`, type: RawActivity.type, occurredAt: payload.receivedAt, producer: 'webhook-ingest', correlationId: 'conformance', payload },
      RawActivity,
    );

    const result = interpretActivity(envelope.payload);
    expect(result.events.length + result.ignored.length).toBeGreaterThan(0);
    for (const ignored of result.ignored) expect(ignored.reason).toMatch(/\S/);
    counts.events += result.events.length;
    counts.ignored += result.ignored.length;
  });
});
