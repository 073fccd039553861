import './telemetry';
import { runService } from '@crm/http';
import { readConfig } from './config';
import { startWebhookIngest } from './service';

void runService({ name: 'webhook-ingest', readConfig, start: startWebhookIngest });
