/**
 * One digest per image tag across the repository: every `name:tag@sha256:...` in the
 * Dockerfiles, docker-compose.yml and the Kubernetes manifests names the same image for the
 * same tag, so a refresh cannot leave one place behind.
 */
export interface PinnedReference {
  file: string;
  image: string;
  digest: string;
}

const PINNED = /([a-z0-9][a-z0-9._/-]*:[A-Za-z0-9._-]+)@(sha256:[0-9a-f]{64})/g;

export const pinnedReferences = (file: string, text: string): PinnedReference[] => [...text.matchAll(PINNED)].map(([, image, digest]) => ({ file, image: image!, digest: digest! }));

/** A message per tag pinned to more than one digest. */
export function digestConflicts(references: PinnedReference[]): string[] {
  const byImage = new Map<string, PinnedReference[]>();
  for (const reference of references) byImage.set(reference.image, [...(byImage.get(reference.image) ?? []), reference]);
  return [...byImage.entries()]
    .filter(([, pins]) => new Set(pins.map((pin) => pin.digest)).size > 1)
    .map(([image, pins]) => `${image} is pinned to different digests: ${pins.map((pin) => `${pin.file} ${pin.digest.slice(0, 19)}...`).join(', ')}`);
}
