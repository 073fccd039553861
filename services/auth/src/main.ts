import './telemetry';
import { runService } from '@crm/http';
import { readConfig } from './config';
import { startAuth } from './service';

void runService({ name: 'auth', readConfig, start: startAuth });
