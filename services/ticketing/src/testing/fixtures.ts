import { readFileSync } from 'node:fs';
import { join } from 'node:path';

/** The platform payload examples of libs/testing/fixtures/social. */
const FIXTURES = join(__dirname, '../../../../libs/testing/fixtures/social');

export function fixture<T = Record<string, unknown>>(name: string): T {
  return JSON.parse(readFileSync(join(FIXTURES, name), 'utf8')) as T;
}

/**
 * A documentation template (`*.official-template.txt`) with its `<Tweet Object>` and
 * `<User Object>` placeholders filled in, parsed.
 */
export function filledTemplate(name: string, fill: { tweet?: Record<string, unknown>; user?: Record<string, unknown> }): Record<string, unknown> {
  const text = readFileSync(join(FIXTURES, name), 'utf8')
    .replace(/\{\s*<\s*Tweet Object\s*>\s*\}/g, JSON.stringify(fill.tweet ?? null))
    .replace(/\{\s*<\s*User Object\s*>\s*\}/g, JSON.stringify(fill.user ?? null));
  return JSON.parse(text) as Record<string, unknown>;
}

/** The official DM example as real deliveries come: users and apps as top-level maps. */
export function repairedOfficialDm(): Record<string, unknown> {
  const official = fixture<{ for_user_id: string; direct_message_events: unknown[]; apps: Record<string, Record<string, unknown>> }>('direct_message_events.official.json');
  const users: Record<string, unknown> = {};
  const apps: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(official.apps)) {
    if (key === 'users') continue;
    if ('screen_name' in value) users[key] = value;
    else apps[key] = value;
  }
  return { for_user_id: official.for_user_id, direct_message_events: official.direct_message_events, users, apps };
}
