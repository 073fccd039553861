// Bundles a service (run from its folder) into dist/main.js: one file with its libs and
// dependencies, so the production image needs no node_modules and no TypeScript. The
// service's migrations/ folder ships beside dist/, where the bundle looks for it.
import { build } from 'esbuild';
import { rmSync } from 'node:fs';

rmSync('dist', { recursive: true, force: true });
await build({
  entryPoints: ['src/main.ts'],
  outfile: 'dist/main.js',
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
