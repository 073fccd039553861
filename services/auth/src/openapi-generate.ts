import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { withActionOperations } from './http/openapi-actions';

/** Writes the generated part of openapi.yaml (the action operations and their input schemas) again. */
const file = join(__dirname, '..', 'openapi.yaml');
const before = readFileSync(file, 'utf8');
const after = withActionOperations(before);
writeFileSync(file, after);
process.stdout.write(before === after ? `${file} was up to date\n` : `${file} regenerated\n`);
