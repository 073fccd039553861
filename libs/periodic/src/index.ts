export { PeriodicJob, type PeriodicJobOptions } from './periodic-job';
