import express, { type ErrorRequestHandler, type Request, type Response, type Router } from 'express';
import { nextEventId } from '../ids';
import { actingUser, answer, authenticate, requireScopes } from './authn';
import type { PlatformContext } from './context';
import { PlatformError } from './errors';
import { boundaryOf, parseMultipart } from './multipart';
import { mediaKeyOf } from './objects';
import type { MediaUpload, PlatformState, UserRecord } from './state';

const MB = 1024 * 1024;
/** How long an upload can be used, as the platform answers it. */
const EXPIRES_AFTER_SECS = 86_400;
const CATEGORIES = ['tweet_image', 'tweet_video', 'tweet_gif', 'dm_image', 'dm_video', 'dm_gif', 'subtitles', 'amplify_video'];

/** The platform's limits by kind of media (images 5 MB, GIFs 15 MB, videos 512 MB). */
const KINDS: { types: string[]; maxBytes: number; categories: string[] }[] = [
  { types: ['image/jpeg', 'image/png', 'image/webp'], maxBytes: 5 * MB, categories: ['tweet_image', 'dm_image'] },
  { types: ['image/gif'], maxBytes: 15 * MB, categories: ['tweet_gif', 'dm_gif', 'tweet_image', 'dm_image'] },
  { types: ['video/mp4', 'video/quicktime'], maxBytes: 512 * MB, categories: ['tweet_video', 'dm_video', 'amplify_video'] },
];

const invalid = (detail: string, reason?: string) => new PlatformError(400, 0, detail, {}, reason);

/** What the bytes are, from their first bytes (what the platform goes by, not the declared type). */
export function sniffMediaType(bytes: Buffer): string | null {
  const head = bytes.subarray(0, 12);
  if (head[0] === 0xff && head[1] === 0xd8 && head[2] === 0xff) return 'image/jpeg';
  if (head.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]))) return 'image/png';
  if (head.subarray(0, 4).toString('latin1') === 'GIF8') return 'image/gif';
  if (head.subarray(0, 4).toString('latin1') === 'RIFF' && head.subarray(8, 12).toString('latin1') === 'WEBP') return 'image/webp';
  if (head.subarray(4, 8).toString('latin1') === 'ftyp') return head.subarray(8, 10).toString('latin1') === 'qt' ? 'video/quicktime' : 'video/mp4';
  return null;
}

/** Width and height where the header gives them plainly (PNG, GIF). */
function dimensions(bytes: Buffer, type: string): { w: number; h: number } | null {
  if (type === 'image/png' && bytes.length >= 24) return { w: bytes.readUInt32BE(16), h: bytes.readUInt32BE(20) };
  if (type === 'image/gif' && bytes.length >= 10) return { w: bytes.readUInt16LE(6), h: bytes.readUInt16LE(8) };
  return null;
}

/** Checks the complete bytes against the category's rules and keeps them; refuses as the platform does (400). */
function complete(upload: MediaUpload, bytes: Buffer): void {
  if (bytes.length === 0) throw invalid('media must not be empty.');
  const type = sniffMediaType(bytes);
  const kind = KINDS.find((k) => type !== null && k.types.includes(type));
  if (!kind || !type) throw invalid('Unsupported media type: the media is not a JPEG, PNG, WEBP or GIF image or an MP4 or MOV video.', 'unrecognised media bytes');
  if (!kind.categories.includes(upload.category)) throw invalid(`media_category ${upload.category} does not take ${type}.`);
  if (bytes.length > kind.maxBytes) throw invalid(`File size exceeds ${kind.maxBytes} bytes.`, `${bytes.length} bytes`);
  if (upload.totalBytes !== null && upload.totalBytes !== bytes.length) throw invalid(`total_bytes was ${upload.totalBytes} but ${bytes.length} bytes were appended.`);
  upload.mediaType = type;
  upload.bytes = bytes;
  upload.segments.clear();
}

/** The media of an answer: id, key, size and, for an image, its type and size in pixels. */
function mediaAnswer(upload: MediaUpload): Record<string, unknown> {
  const bytes = upload.bytes!;
  const type = upload.mediaType!;
  const image = type.startsWith('image/') ? { image: { image_type: type, ...(dimensions(bytes, type) ?? {}) } } : {};
  return { id: upload.id, media_key: mediaKeyOf(upload.id), size: bytes.length, expires_after_secs: EXPIRES_AFTER_SECS, ...image };
}

/** The request's fields: a multipart body's parts as bytes, or a JSON body's values (media base64-encoded). */
function fieldsOf(req: Request): Map<string, Buffer | string | number> {
  const fields = new Map<string, Buffer | string | number>();
  const boundary = boundaryOf(req.get('content-type'));
  if (Buffer.isBuffer(req.body) && boundary) {
    for (const part of parseMultipart(req.body, boundary)) fields.set(part.name, part.name === 'media' ? part.data : part.data.toString('utf8'));
    return fields;
  }
  const body = (typeof req.body === 'object' && req.body !== null ? req.body : {}) as Record<string, unknown>;
  for (const [name, value] of Object.entries(body)) {
    if (name === 'media' && typeof value === 'string') fields.set(name, Buffer.from(value, 'base64'));
    else if (typeof value === 'string' || typeof value === 'number') fields.set(name, value);
  }
  return fields;
}

function categoryOf(value: unknown, fallback?: string): string {
  const category = value ?? fallback;
  if (typeof category !== 'string' || !CATEGORIES.includes(category)) throw invalid(`media_category must be one of ${CATEGORIES.join(', ')}.`);
  return category;
}

function mediaBytes(fields: Map<string, unknown>): Buffer {
  const media = fields.get('media');
  if (!Buffer.isBuffer(media)) throw invalid('media is required: the file as a multipart part, or base64 in a JSON body.');
  return media;
}

function newUpload(state: PlatformState, me: UserRecord, category: string, totalBytes: number | null): MediaUpload {
  const upload: MediaUpload = { id: nextEventId(), ownerId: me.id, category, mediaType: null, totalBytes, segments: new Map(), bytes: null, createdAt: Date.now() };
  state.media.set(upload.id, upload);
  return upload;
}

/** An upload session of the caller that is still taking segments. */
function openUpload(state: PlatformState, req: Request, res: Response): MediaUpload {
  const id = String(req.params.id);
  const upload = state.media.get(id);
  if (!upload || upload.ownerId !== actingUser(res).id) throw new PlatformError(404, 0, `Could not find media with id: [${id}].`, {}, 'no such upload of the caller');
  if (upload.bytes) throw invalid('The upload was finalized already.');
  return upload;
}

function chunkedRoutes(router: Router, ctx: PlatformContext, user: ReturnType<typeof authenticate>): void {
  const { state } = ctx;
  router.post('/2/media/upload/initialize', user, async (req, res) => {
    requireScopes(res, 'media.write');
    const fields = fieldsOf(req);
    const total = fields.get('total_bytes');
    if (total !== undefined && (typeof total !== 'number' || !Number.isInteger(total) || total < 0)) throw invalid('total_bytes must be a whole number of bytes.');
    const declared = fields.get('media_type');
    const fallback = typeof declared === 'string' && declared.startsWith('video/') ? 'tweet_video' : declared === 'image/gif' ? 'tweet_gif' : 'tweet_image';
    const upload = newUpload(state, actingUser(res), categoryOf(fields.get('media_category'), fallback), (total as number | undefined) ?? null);
    await answer(res, 200, { data: { id: upload.id, media_key: mediaKeyOf(upload.id), expires_after_secs: EXPIRES_AFTER_SECS } });
  });
  router.post('/2/media/upload/:id/append', user, async (req, res) => {
    requireScopes(res, 'media.write');
    const upload = openUpload(state, req, res);
    const fields = fieldsOf(req);
    const index = Number(fields.get('segment_index'));
    if (!Number.isInteger(index) || index < 0 || index > 999) throw invalid('segment_index must be a whole number from 0 to 999.');
    upload.segments.set(index, mediaBytes(fields));
    await answer(res, 200, { data: { expires_at: Math.floor(upload.createdAt / 1000) + EXPIRES_AFTER_SECS } });
  });
  router.post('/2/media/upload/:id/finalize', user, async (req, res) => {
    requireScopes(res, 'media.write');
    const upload = openUpload(state, req, res);
    const order = [...upload.segments.keys()].sort((a, b) => a - b);
    if (order.some((index, at) => index !== at)) throw invalid('Segments are missing: segment_index must run from 0 without gaps.');
    complete(upload, Buffer.concat(order.map((index) => upload.segments.get(index)!)));
    await answer(res, 200, { data: mediaAnswer(upload) });
  });
}

/**
 * `POST /2/media/upload` (one request: multipart `media` and `media_category`, or JSON with
 * `media` in base64) and the chunked upload (initialize, append, finalize). Media is kept in
 * memory with its uploader, who alone may attach it.
 */
export function mediaRoutes(router: Router, ctx: PlatformContext): void {
  const user = authenticate(ctx, 'user');
  router.post('/2/media/upload', user, async (req, res) => {
    requireScopes(res, 'media.write');
    const fields = fieldsOf(req);
    const upload = newUpload(ctx.state, actingUser(res), categoryOf(fields.get('media_category')), null);
    try {
      complete(upload, mediaBytes(fields));
    } catch (refused) {
      ctx.state.media.delete(upload.id);
      throw refused;
    }
    await answer(res, 200, { data: mediaAnswer(upload) });
  });
  // The upload's state: processing is immediate here, so a complete upload has succeeded.
  router.get('/2/media/upload', user, async (req, res) => {
    requireScopes(res, 'media.write');
    const id = String(req.query.media_id ?? '');
    const upload = ctx.state.media.get(id);
    if (!upload || upload.ownerId !== actingUser(res).id) throw new PlatformError(404, 0, `Could not find media with id: [${id}].`, {}, 'no such upload of the caller');
    const done = upload.bytes !== null;
    const info = { processing_info: { state: done ? 'succeeded' : 'pending', progress_percent: done ? 100 : 0 } };
    await answer(res, 200, { data: { ...(done ? mediaAnswer(upload) : { id: upload.id, media_key: mediaKeyOf(upload.id) }), ...info } });
  });
  chunkedRoutes(router, ctx, user);
}

const BODY_LIMIT = 24 * MB;

/** Media bodies are larger than other v2 bodies: parsed here, before the general JSON parser; one over the limit is refused as too large a file. */
export function mediaBodyParsers(router: Router): void {
  router.use('/2/media/upload', express.json({ limit: BODY_LIMIT }), express.raw({ type: 'multipart/form-data', limit: BODY_LIMIT }));
  router.use('/2/media/upload', ((error, _req, _res, next) => {
    const tooLarge = (error as { type?: string } | null)?.type === 'entity.too.large';
    next(tooLarge ? invalid(`File size exceeds ${BODY_LIMIT} bytes: upload larger media in chunks.`, 'body over the one-request limit') : error);
  }) as ErrorRequestHandler);
}

/** The caller's complete upload named by a DM's attachment, or the platform's refusal. */
export function attachableMedia(state: PlatformState, me: UserRecord, mediaId: string): MediaUpload {
  const upload = state.media.get(mediaId);
  if (!upload || upload.ownerId !== me.id || !upload.bytes) throw invalid(`attachments[0].media_id ${mediaId} is not media the sender uploaded.`, 'unknown media');
  return upload;
}
