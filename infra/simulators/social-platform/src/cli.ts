import { runCli } from './cli-commands';

/**
 * Thin entry point: all logic lives in cli-commands.ts so tests can run it in-process. The
 * simulator is found at SIMULATOR_URL, else on SOCIAL_SIMULATOR_PORT (the variable `pnpm start`
 * reads), else on :3101.
 */
const port = process.env.SOCIAL_SIMULATOR_PORT;
runCli(process.argv.slice(2), {
  simulatorUrl: process.env.SIMULATOR_URL ?? (port ? `http://127.0.0.1:${port}` : undefined),
  io: { out: (line) => console.log(line), err: (line) => console.error(line) },
}).then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.error(error);
    process.exit(1);
  },
);
