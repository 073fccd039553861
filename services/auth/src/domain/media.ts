import { DM_IMAGE_MAX_BYTES } from '@crm/contracts';

/** The kinds of image the platform takes in a DM, by their first bytes. */
const IMAGE_SIGNATURES: { type: string; matches: (head: Buffer) => boolean }[] = [
  { type: 'image/jpeg', matches: (head) => head[0] === 0xff && head[1] === 0xd8 && head[2] === 0xff },
  { type: 'image/png', matches: (head) => head.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) },
  { type: 'image/gif', matches: (head) => head.subarray(0, 4).toString('latin1') === 'GIF8' },
  { type: 'image/webp', matches: (head) => head.subarray(0, 4).toString('latin1') === 'RIFF' && head.subarray(8, 12).toString('latin1') === 'WEBP' },
];

/**
 * Whether `text` is base64 (the standard alphabet, padding only at the end), in one linear pass:
 * a pattern such as ^[A-Za-z0-9+/]+={0,2}$ backtracks over every character and can exhaust the regexp stack on megabytes.
 */
export function isBase64(text: string): boolean {
  const padding = text.endsWith('==') ? 2 : text.endsWith('=') ? 1 : 0;
  return text.length > padding && !/[^A-Za-z0-9+/]/.test(text.slice(0, text.length - padding));
}

export type ImageProblem = { kind: 'too_large' | 'unsupported_media_type'; message: string } | null;

const megabytes = (bytes: number) => `${(bytes / (1024 * 1024)).toFixed(1)} MB`;

/**
 * Why an image cannot go in a DM, in words for the person who chose it, or null when it can.
 * The bytes decide the type (a name or a declared type can lie), as on the platform.
 */
export function dmImageProblem(image: Buffer): ImageProblem {
  const head = image.subarray(0, 12);
  if (!IMAGE_SIGNATURES.some((signature) => signature.matches(head))) {
    return { kind: 'unsupported_media_type', message: 'This file is not an image a DM can carry: choose a JPEG, PNG, WEBP or GIF image.' };
  }
  if (image.length > DM_IMAGE_MAX_BYTES) {
    return { kind: 'too_large', message: `This image is ${megabytes(image.length)}; a DM can carry images of at most ${megabytes(DM_IMAGE_MAX_BYTES)}: make it smaller and attach it again.` };
  }
  return null;
}
