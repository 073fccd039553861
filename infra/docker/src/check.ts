/**
 * `pnpm check:docker`, as a function: lints every Dockerfile (dockerfile-rules.ts), checks
 * docker-compose.yml (compose.ts) and that each image tag has one digest across the
 * Dockerfiles, compose and the Kubernetes manifests (digests.ts).
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { checkComposeFile } from './compose';
import { digestConflicts, pinnedReferences } from './digests';
import { lintDockerfile } from './dockerfile-rules';
import { dockerfiles, REPOSITORY_ROOT, yamlFiles } from './files';

export interface FileReport {
  file: string;
  problems: string[];
}

export function checkRepository(root = REPOSITORY_ROOT): FileReport[] {
  const relative = (file: string) => path.relative(root, file);
  const reports: FileReport[] = dockerfiles(root).map((file) => ({
    file: relative(file),
    problems: lintDockerfile(readFileSync(file, 'utf8')).map((finding) => `line ${finding.line}: ${finding.rule} ${finding.message}`),
  }));
  const compose = path.join(root, 'docker-compose.yml');
  reports.push({ file: relative(compose), problems: checkComposeFile(compose).map((finding) => `${finding.rule}: ${finding.message}`) });
  const pinned = [...dockerfiles(root), compose, ...yamlFiles(path.join(root, 'infra', 'k8s'))].flatMap((file) => pinnedReferences(relative(file), readFileSync(file, 'utf8')));
  reports.push({ file: 'image digests', problems: digestConflicts(pinned) });
  return reports;
}
