import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * The folder of the platform's published examples the conformance suite checks the services
 * against (`CONFORMANCE_FIXTURES`, holding `social/`). The suite runs only when it is given
 * (infra/scripts/bootstrap.sh ci, when CI has the examples): without it, it fails.
 */
export function conformanceFixtures(): string {
  const dir = process.env.CONFORMANCE_FIXTURES;
  if (!dir || !existsSync(join(dir, 'social'))) {
    throw new Error(`CONFORMANCE_FIXTURES must name a folder holding social/ (given: ${dir ?? 'nothing'})`);
  }
  return dir;
}

export const socialFile = (name: string) => join(conformanceFixtures(), 'social', name);

export const socialFiles = (suffix: string) =>
  readdirSync(join(conformanceFixtures(), 'social'))
    .filter((name) => name.endsWith(suffix))
    .sort();

export const readSocial = (name: string) => readFileSync(socialFile(name), 'utf8');

/**
 * The folder of the platform's published documentation pages (`PLATFORM_DOCS`, holding
 * `x-api_activity_event-payloads.mdx`); without it the suite fails.
 */
export function platformDocs(): string {
  const dir = process.env.PLATFORM_DOCS;
  if (!dir || !existsSync(join(dir, 'x-api_activity_event-payloads.mdx'))) {
    throw new Error(`PLATFORM_DOCS must name the folder of the platform's documentation pages (given: ${dir ?? 'nothing'})`);
  }
  return dir;
}

/** The titled JSON code blocks of a documentation page, verbatim: `{title, text}` in page order. */
export function documentedJsonBlocks(page: string): { title: string; text: string }[] {
  const text = readFileSync(join(platformDocs(), page), 'utf8');
  return [...text.matchAll(/^```json title="([^"]+)"[^\n]*\n([\s\S]*?)\n```/gm)].map((m) => ({ title: m[1]!, text: m[2]! }));
}
