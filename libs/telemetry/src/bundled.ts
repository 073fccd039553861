import type { InstrumentationBase } from '@opentelemetry/instrumentation';
import { satisfies } from 'semver';

/** Where the bundle's wrapped modules (esbuild-plugin.mjs) find the instrumentations. */
const PATCH_BUNDLED = Symbol.for('crm.telemetry.patchBundled');

type PatchBundled = (name: string, version: string, exports: unknown) => unknown;

/**
 * Lets a production bundle hand the modules it carries to the instrumentations, as the require
 * hooks do for modules loaded from node_modules: each definition for the package whose version
 * range holds patches the exports. Only the public module definitions are used.
 */
export function patchBundledModules(instrumentations: InstrumentationBase[]): void {
  const patch: PatchBundled = (name, version, exports) => {
    let patched = exports;
    for (const instrumentation of instrumentations) {
      for (const definition of instrumentation.getModuleDefinitions()) {
        if (definition.name !== name || !definition.patch) continue;
        const supported = definition.supportedVersions.some((range) => range === '*' || satisfies(version, range, { includePrerelease: definition.includePrerelease }));
        if (!supported) continue;
        definition.moduleExports = patched;
        definition.moduleVersion = version;
        patched = definition.patch(patched, version) ?? patched;
      }
    }
    return patched;
  };
  (globalThis as { [PATCH_BUNDLED]?: PatchBundled })[PATCH_BUNDLED] = patch;
}
