import { readFileSync } from 'node:fs';
import path from 'node:path';
import { checkRepository } from './check';
import { checkComposeText, interpolate, references } from './compose';
import { digestConflicts, pinnedReferences } from './digests';
import { lintDockerfile } from './dockerfile-rules';
import { REPOSITORY_ROOT } from './files';

const NODE = `node:22-bookworm-slim@sha256:${'a'.repeat(64)}`;
const rules = (text: string) => [...new Set(lintDockerfile(text).map((finding) => finding.rule))].sort();

it('finds nothing wrong in the repository: every Dockerfile, docker-compose.yml, the digests', () => {
  const reports = checkRepository();
  expect(reports.map((report) => report.file)).toEqual(expect.arrayContaining(['services/auth/Dockerfile', 'services/console/Dockerfile', 'infra/simulators/social-platform/Dockerfile', 'docker-compose.yml', 'image digests']));
  expect(reports.length).toBe(7 + 2);
  for (const report of reports) expect(report).toEqual({ file: report.file, problems: [] });
});

describe('Dockerfiles', () => {
  it('refuses a bad Dockerfile, naming each rule it breaks', () => {
    const bad = [
      'FROM node:latest AS build',
      'MAINTAINER someone',
      'WORKDIR app',
      'RUN apt-get update && apt-get install -y curl',
      'RUN curl -fsSL https://example.com/install.sh | sh',
      'RUN npm install -g pnpm && cd /tmp && sudo true',
      'ADD . /app',
      'FROM ubuntu',
      'COPY --from=build /app /app',
      'USER root',
      'CMD node main.js',
    ].join('\n');
    expect(rules(bad)).toEqual(['DL3000', 'DL3002', 'DL3003', 'DL3004', 'DL3006', 'DL3007', 'DL3008', 'DL3009', 'DL3015', 'DL3016', 'DL3020', 'DL3025', 'DL3057', 'DL3059', 'DL4000', 'DL4006', 'copy-chown', 'pinned-digest', 'syntax']);
    const findings = lintDockerfile(bad);
    expect(findings.find((finding) => finding.rule === 'DL3008')).toMatchObject({ line: 4, message: expect.stringContaining('curl') });
    expect(findings.find((finding) => finding.rule === 'DL3002')).toMatchObject({ line: 10 });
  });

  it('passes a multi-stage build pinned by digest, with pinned packages, pipefail, a non-root user and a health check', () => {
    const good = [
      `FROM ${NODE} AS build`,
      'SHELL ["/bin/bash", "-o", "pipefail", "-c"]',
      'RUN apt-get update && apt-get install -y --no-install-recommends curl=7.88.1-10 && rm -rf /var/lib/apt/lists/* && npm install --global pnpm@10.34.8 @scope/tool@1.2.3 | cat',
      'WORKDIR /workspace',
      `FROM ${NODE} AS runtime`,
      'COPY --from=build --chown=node:node /workspace/dist ./dist',
      'USER node',
      'HEALTHCHECK CMD ["node", "-e", "process.exit(0)"]',
      'CMD ["node", "dist/main.js"]',
    ].join('\n');
    expect(lintDockerfile(good)).toEqual([]);
  });

  it('refuses what Docker would not build: an unknown instruction or flag, a bad port', () => {
    const text = `FROM ${NODE}\nCOPPY a b\nEXPOSE http\nUSER node\nHEALTHCHECK --intervl=5s CMD ["true"]\nCMD ["node"]`;
    expect(lintDockerfile(text).filter((finding) => finding.rule === 'syntax')).toEqual([
      { rule: 'syntax', line: 2, message: 'Unknown instruction: COPPY' },
      { rule: 'syntax', line: 3, message: 'Invalid containerPort: http' },
      { rule: 'syntax', line: 5, message: 'Unknown flag: intervl' },
    ]);
  });

  it('asks for a non-root user when the final stage sets none, and takes a numeric root as root', () => {
    expect(rules(`FROM ${NODE}\nHEALTHCHECK CMD ["true"]\nCMD ["node"]`)).toEqual(['non-root-user']);
    expect(rules(`FROM ${NODE}\nUSER 0:0\nHEALTHCHECK CMD ["true"]\nCMD ["node"]`)).toEqual(['DL3002']);
    expect(rules(`FROM ${NODE}\nUSER node\nUSER root\nHEALTHCHECK CMD ["true"]\nCMD ["node"]`)).toEqual(['DL3002']);
  });
});

describe('docker-compose.yml', () => {
  const compose = readFileSync(path.join(REPOSITORY_ROOT, 'docker-compose.yml'), 'utf8');
  const example = readFileSync(path.join(REPOSITORY_ROOT, '.env.example'), 'utf8');
  const check = (text: string, env = example) => checkComposeText(text, env, REPOSITORY_ROOT).map((finding) => `${finding.rule}: ${finding.message}`);

  it('passes as it is', () => {
    expect(check(compose)).toEqual([]);
  });

  it('refuses a misspelt key, a value of the wrong type and a service that does not exist, as compose config would', () => {
    const broken = compose.replace('    environment:\n      POSTGRES_HOST_AUTH_METHOD', '    enviroment:\n      POSTGRES_HOST_AUTH_METHOD').replace('      retries: 20', '      retries: many').replace('      auth: { condition: service_healthy }\n\n  tracking', '      authh: { condition: service_healthy }\n\n  tracking');
    const problems = check(broken);
    expect(problems).toEqual(expect.arrayContaining([expect.stringMatching(/^schema: \/services\/postgres must NOT have additional properties \(enviroment\)/), expect.stringMatching(/^schema: \/services\/rabbitmq\/healthcheck\/retries must be number/), 'depends-on: webhook-ingest depends on authh, which is not a service']));
  });

  it('refuses a required variable that .env.example does not list, and a malformed reference', () => {
    const broken = compose.replace('LOG_LEVEL: ${LOG_LEVEL:-info}', 'LOG_LEVEL: ${LOG_LEVEL:-info}\n  NEW_KEY: ${NEW_KEY:?set NEW_KEY}\n  BROKEN: ${BROKEN');
    expect(check(broken)).toEqual(expect.arrayContaining(['env-example: NEW_KEY is required (${NEW_KEY:?...}) but .env.example does not list it', expect.stringMatching(/^interpolation: \$\{BROKEN/)]));
    expect(check(compose, example.replace(/^CREDENTIALS_KEY=\n/m, ''))).toEqual(['env-example: CREDENTIALS_KEY is required (${CREDENTIALS_KEY:?...}) but .env.example does not list it']);
  });

  it('refuses an image without a digest and a Dockerfile that does not exist', () => {
    const broken = compose.replace(/image: postgres:15@sha256:[0-9a-f]+/, 'image: postgres:15').replace('services/console/Dockerfile', 'services/console/Dockerfile.missing');
    expect(check(broken)).toEqual(['pinned-digest: postgres: image postgres:15 is not pinned by digest', 'build: console: services/console/Dockerfile.missing does not exist']);
  });

  it('interpolates as compose does: defaults, alternatives, placeholders for required values, $$ left as $', () => {
    expect(interpolate('a: ${A:-x} b: ${B:?set B} c: ${C:+y} d: $$HOME')).toBe('a: x b: placeholder-b c: y d: $HOME');
    expect(references('${A:-x} ${1BAD} ${OK}')).toEqual({ references: [{ name: 'A', operator: ':-', value: 'x' }, { name: 'OK', operator: '', value: '' }], malformed: ['${1BAD}'] });
  });
});

it('refuses one image tag pinned to two digests', () => {
  const one = pinnedReferences('Dockerfile', `FROM ${NODE}`);
  const other = pinnedReferences('k8s.yaml', `image: node:22-bookworm-slim@sha256:${'b'.repeat(64)}`);
  expect(digestConflicts([...one, ...one])).toEqual([]);
  expect(digestConflicts([...one, ...other])).toEqual([expect.stringMatching(/^node:22-bookworm-slim is pinned to different digests: Dockerfile sha256:a+\.\.\., k8s\.yaml sha256:b+\.\.\./)]);
});
