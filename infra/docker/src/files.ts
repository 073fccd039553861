import { existsSync, readdirSync } from 'node:fs';
import path from 'node:path';

export const REPOSITORY_ROOT = path.join(__dirname, '..', '..', '..');

const subfolders = (folder: string) => (existsSync(folder) ? readdirSync(folder, { withFileTypes: true }).filter((entry) => entry.isDirectory()).map((entry) => path.join(folder, entry.name)) : []);

/** The images built here: services/<name>/Dockerfile and infra/simulators/<name>/Dockerfile. */
export const dockerfiles = (root = REPOSITORY_ROOT) =>
  [...subfolders(path.join(root, 'services')), ...subfolders(path.join(root, 'infra', 'simulators'))].map((folder) => path.join(folder, 'Dockerfile')).filter((file) => existsSync(file));

/** Every YAML file under a folder (the Kubernetes manifests). */
export function yamlFiles(folder: string): string[] {
  if (!existsSync(folder)) return [];
  return readdirSync(folder, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(folder, entry.name);
    if (entry.isDirectory()) return entry.name === 'node_modules' ? [] : yamlFiles(full);
    return /\.ya?ml$/.test(entry.name) ? [full] : [];
  });
}
