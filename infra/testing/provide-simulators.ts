import { closeServer, listen, portOf } from '@crm/http';
import { createSimulatorApp } from '@crm/social-platform-simulator/src/app';
import { loadSimulatorConfig as loadPlatformConfig } from '@crm/social-platform-simulator/src/config';
import { provideSimulators } from '@crm/testing';
import { createTrackingSimulatorApp } from '@crm/tracking-provider-simulator/src/app';
import { loadSimulatorConfig as loadTrackingConfig } from '@crm/tracking-provider-simulator/src/config';

/** Hands the simulators to test support before each test file (jest `setupFiles`): see libs/testing's simulators.ts. */
async function started(app: Parameters<typeof listen>[0]) {
  const server = await listen(app, 0, '127.0.0.1');
  return { url: `http://127.0.0.1:${portOf(server)}`, close: () => closeServer(server) };
}

provideSimulators({
  socialPlatform: (env, logger) => started(createSimulatorApp({ config: loadPlatformConfig(env), logger })),
  trackingProvider: (env, logger) => started(createTrackingSimulatorApp({ config: loadTrackingConfig(env), logger })),
});
