// The first import of main.ts: tracing starts before express, pg and http are loaded, so that
// their instrumentations patch them (see @crm/telemetry).
import { startTelemetry } from '@crm/telemetry/src/start';

startTelemetry('auth');
