// An esbuild plugin for the services' production bundles. A bundled module is never loaded
// through require, so OpenTelemetry's require hooks cannot patch it: for each package listed,
// the bundle hands the exports of its main module, once loaded, to the instrumentations that
// startTelemetry started (src/bundled.ts registers the hook; without it the exports stay as they are).
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, sep } from 'node:path';

/** The packages @crm/telemetry instruments besides Node's own http (which the bundle still requires). */
export const INSTRUMENTED_PACKAGES = ['express', 'pg', 'pg-pool'];

const require = createRequire(import.meta.url);

/** The package folder of `path` when it is a file of package `name`, else null. */
function packageRoot(path, name) {
  const marker = `${sep}node_modules${sep}${name}${sep}`;
  const at = path.lastIndexOf(marker);
  return at === -1 ? null : path.slice(0, at + marker.length - 1);
}

export function instrumentedPackages(packages = INSTRUMENTED_PACKAGES) {
  const escaped = packages.map((name) => name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'));
  return {
    name: 'crm-telemetry-instrumented-packages',
    setup(build) {
      build.onLoad({ filter: new RegExp(`[\\\\/]node_modules[\\\\/](${escaped.join('|')})[\\\\/].*\\.js$`) }, (args) => {
        for (const name of packages) {
          const root = packageRoot(args.path, name);
          // The main module only (what require('name') would load): the instrumentations patch its exports.
          if (!root || require.resolve(root) !== args.path) continue;
          const { version } = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
          const hand = `(globalThis[Symbol.for('crm.telemetry.patchBundled')] || ((name, version, exports) => exports))`;
          const contents = `${readFileSync(args.path, 'utf8')}\n;module.exports = ${hand}(${JSON.stringify(name)}, ${JSON.stringify(version)}, module.exports);\n`;
          return { contents, loader: 'js', resolveDir: dirname(args.path) };
        }
        return undefined;
      });
    },
  };
}
