/** One part of a multipart/form-data body: its field name and bytes. */
export interface FormPart {
  name: string;
  filename?: string;
  contentType?: string;
  data: Buffer;
}

const CRLF = Buffer.from('\r\n');
const HEADERS_END = Buffer.from('\r\n\r\n');

/** The boundary a multipart/form-data content type names, or null. */
export function boundaryOf(contentType: string | undefined): string | null {
  const match = /boundary=(?:"([^"]+)"|([^;]+))/i.exec(contentType ?? '');
  return match ? (match[1] ?? match[2]!).trim() : null;
}

function partOf(chunk: Buffer): FormPart | null {
  const end = chunk.indexOf(HEADERS_END);
  if (end < 0) return null;
  const headers = chunk.subarray(0, end).toString('utf8');
  const disposition = /content-disposition:[^\r\n]*\bname="([^"]*)"(?:;\s*filename="([^"]*)")?/i.exec(headers);
  if (!disposition) return null;
  const type = /content-type:\s*([^\r\n]+)/i.exec(headers);
  return { name: disposition[1]!, filename: disposition[2], contentType: type?.[1]?.trim(), data: chunk.subarray(end + HEADERS_END.length) };
}

/** The parts of a multipart/form-data body (RFC 7578); a body that is not one gives none. */
export function parseMultipart(body: Buffer, boundary: string): FormPart[] {
  const delimiter = Buffer.from(`--${boundary}`);
  const parts: FormPart[] = [];
  let at = body.indexOf(delimiter);
  while (at >= 0) {
    const start = at + delimiter.length;
    if (body.subarray(start, start + 2).toString() === '--') break;
    const next = body.indexOf(Buffer.concat([CRLF, delimiter]), start);
    if (next < 0) break;
    const part = partOf(body.subarray(start + CRLF.length, next));
    if (part) parts.push(part);
    at = next + CRLF.length;
  }
  return parts;
}
