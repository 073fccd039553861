import './telemetry';
import { runService } from '@crm/http';
import { readConfig } from './config';
import { startTracking } from './service';

void runService({ name: 'tracking', readConfig, start: startTracking });
