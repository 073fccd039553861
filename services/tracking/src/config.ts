import { commonSpecs, loadConfig, url } from '@crm/config';

export function readConfig(env: NodeJS.ProcessEnv = process.env) {
  return loadConfig(
    'tracking',
    {
      ...commonSpecs('tracking', 3004),
      TRACKING_API_URL: url({ devDefault: 'http://127.0.0.1:3102' }),
      ROUTING_URL: url({ default: undefined }),
    },
    env,
  );
}

export type TrackingConfig = ReturnType<typeof readConfig>;
