import { readFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * Set only in a production bundle: the text of the files a service reads at start, keyed by
 * their path from the workspace root. The bundle is one file with nothing beside it
 * (infra/scripts/bundle.mjs fills this in); from the sources the files are read from disk.
 */
declare const SHIPPED_FILES: Record<string, string> | undefined;

const WORKSPACE_ROOT = join(__dirname, '..', '..', '..');

/** The text of a file the service ships, by its path from the workspace root, e.g. `services/tracking/openapi.yaml`. */
export function shippedFile(path: string): string {
  if (typeof SHIPPED_FILES !== 'undefined') {
    const text = SHIPPED_FILES[path];
    if (text === undefined) throw new Error(`${path} is not in the bundle; infra/scripts/bundle.mjs ships only the files it lists`);
    return text;
  }
  return readFileSync(join(WORKSPACE_ROOT, path), 'utf8');
}
