// Bundles a service (run from its folder) into dist/main.js: one file with its libs and
// dependencies, so the production image needs no node_modules and no TypeScript. The
// service's migrations/ folder ships beside dist/, where the bundle looks for it. A service
// with migrations also gets dist/migrate.js, which applies them and exits (a deployment's
// migration Job runs it as the role that owns the database).
import { build } from 'esbuild';
import { existsSync, rmSync } from 'node:fs';
import { fileURLToPath, URL } from 'node:url';

const migrateEntry = fileURLToPath(new URL('../../libs/db/src/migrate-main.ts', import.meta.url));

rmSync('dist', { recursive: true, force: true });
await build({
  entryPoints: { main: 'src/main.ts', ...(existsSync('migrations') ? { migrate: migrateEntry } : {}) },
  outdir: 'dist',
  bundle: true,
  platform: 'node',
  target: 'node20',
  format: 'cjs',
  sourcemap: true,
  minify: false,
  // Optional native bindings that pg and amqplib only load when present.
  external: ['pg-native', 'cloudflare:sockets'],
  logLevel: 'warning',
});
