import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';

const consoleDir = join(__dirname, '..');
const webSource = join(consoleDir, 'web');
export const WEB_DIR = join(consoleDir, 'dist', 'web');

function newestChange(dir: string): number {
  let newest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    newest = Math.max(newest, entry.isDirectory() ? newestChange(path) : statSync(path).mtimeMs);
  }
  return newest;
}

/**
 * Builds the web application with Vite unless dist/web is newer than every source file, so
 * tests and `pnpm start` from a fresh clone serve what the sources say, and later runs skip
 * the build (about 5 s).
 */
export function buildWebOnce(): string {
  const index = join(WEB_DIR, 'index.html');
  if (existsSync(index) && statSync(index).mtimeMs >= newestChange(webSource)) return WEB_DIR;
  execFileSync(process.execPath, [join(consoleDir, 'node_modules', 'vite', 'bin', 'vite.js'), 'build', '--config', join(webSource, 'vite.config.mts')], {
    cwd: consoleDir,
    stdio: ['ignore', 'ignore', 'inherit'],
    env: { ...process.env, NODE_ENV: 'production' },
  });
  return WEB_DIR;
}
