import { runCli } from './cli-commands';

/** Thin entry point: all logic lives in cli-commands.ts so tests can run it in-process. */
runCli(process.argv.slice(2), {
  simulatorUrl: process.env.SIMULATOR_URL,
  io: { out: (line) => console.log(line), err: (line) => console.error(line) },
}).then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.error(error);
    process.exit(1);
  },
);
