import type { Logger } from '@crm/logging';
import { provideSimulators } from '@crm/testing/src/simulators';

/**
 * Hands the simulators to test support before each test file (jest `setupFiles`): see libs/testing's simulators.ts.
 * Every test file runs this, most start no simulator: their modules (express apps, the platform's
 * schemas) load on the first start, not with every file.
 */
async function started(app: Parameters<typeof import('@crm/http').listen>[0]) {
  const { closeServer, listen, portOf } = await import('@crm/http');
  const server = await listen(app, 0, '127.0.0.1');
  return { url: `http://127.0.0.1:${portOf(server)}`, close: () => closeServer(server) };
}

provideSimulators({
  async socialPlatform(env: Record<string, string>, logger: Logger) {
    const [{ createSimulatorApp }, { loadSimulatorConfig }] = await Promise.all([import('@crm/social-platform-simulator/src/app'), import('@crm/social-platform-simulator/src/config')]);
    return started(createSimulatorApp({ config: loadSimulatorConfig(env), logger }));
  },
  async trackingProvider(env: Record<string, string>, logger: Logger) {
    const [{ createTrackingSimulatorApp }, { loadSimulatorConfig }] = await Promise.all([import('@crm/tracking-provider-simulator/src/app'), import('@crm/tracking-provider-simulator/src/config')]);
    return started(createTrackingSimulatorApp({ config: loadSimulatorConfig(env), logger }));
  },
});
