import type { Logger } from '@crm/logging';

/** A simulator of the outside world, listening in-process on a free port. */
export interface RunningSimulator {
  url: string;
  close: () => Promise<void>;
}

/**
 * How test support starts the simulators (infra/simulators). Test support sits below them, so it
 * does not import them: the test runner provides the starters (jest's `setupFiles`,
 * infra/testing/provide-simulators.ts) and test support asks for them here.
 */
export interface SimulatorStarters {
  socialPlatform: (env: Record<string, string>, logger: Logger) => Promise<RunningSimulator>;
  trackingProvider: (env: Record<string, string>, logger: Logger) => Promise<RunningSimulator>;
}

let provided: SimulatorStarters | null = null;

export function provideSimulators(starters: SimulatorStarters): void {
  provided = starters;
}

export function simulators(): SimulatorStarters {
  if (!provided) throw new Error('no simulators provided: run the tests through jest (jest.config.cjs setupFiles provides them)');
  return provided;
}
