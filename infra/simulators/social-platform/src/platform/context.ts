import type { Logger } from '@crm/logging';
import type { SimulatorConfig } from '../config';
import type { ActivityDispatcher } from './activity';
import type { Billing } from './billing';
import type { NonceLedger } from './oauth1';
import type { RequestLog } from './request-log';
import type { PlatformState } from './state';
import type { XaaHub } from './xaa-hub';

/** What every group of platform routes works with. */
export interface PlatformContext {
  config: SimulatorConfig;
  logger: Logger;
  state: PlatformState;
  activity: ActivityDispatcher;
  nonces: NonceLedger;
  requests: RequestLog;
  xaa: XaaHub;
  /** The app's credits and what each call cost. */
  billing: Billing;
}
