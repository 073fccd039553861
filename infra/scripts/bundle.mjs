// Bundles a service (run from its folder) into dist/main.js: one file with its libs and
// dependencies, so the production image needs no node_modules and no TypeScript. The
// service's migrations/ folder ships beside dist/, where the bundle looks for it. A service
// with migrations also gets dist/migrate.js, which applies them and exits (a deployment's
// migration Job runs it as the role that owns the database). The plugin hands express, pg and
// pg-pool to OpenTelemetry's instrumentations, which cannot patch bundled modules through
// require hooks (Node's http still comes through require and is patched as usual).
import { build } from 'esbuild';
import { existsSync, readFileSync, rmSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { instrumentedPackages } from '../../libs/telemetry/esbuild-plugin.mjs';

const workspaceRoot = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const migrateEntry = join(workspaceRoot, 'libs', 'db', 'src', 'migrate-main.ts');

// Files the service reads at start, carried inside the bundle as text (libs/http/src/shipped-files.ts):
// its OpenAPI document and the docs page's renderer (libs/http/src/openapi.ts names the same files).
const shipped = {};
const document = relative(workspaceRoot, join(process.cwd(), 'openapi.yaml'));
if (existsSync(join(workspaceRoot, document))) {
  const renderer = 'libs/http/node_modules/swagger-ui-dist';
  for (const path of [document, `${renderer}/swagger-ui-bundle.js`, `${renderer}/swagger-ui.css`]) {
    shipped[path] = readFileSync(join(workspaceRoot, path), 'utf8');
  }
}

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
  define: { SHIPPED_FILES: JSON.stringify(shipped) },
  // Optional native bindings that pg and amqplib only load when present.
  external: ['pg-native', 'cloudflare:sockets'],
  logLevel: 'warning',
  plugins: [instrumentedPackages()],
});
