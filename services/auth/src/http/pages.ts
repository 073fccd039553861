import type { Response } from 'express';

const escapeHtml = (value: string) => value.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/** A plain page for a person's browser (the OAuth callback is visited, not called). */
export function sendPage(res: Response, status: number, title: string, text: string): void {
  res
    .status(status)
    .type('html')
    .set('cache-control', 'no-store')
    .send(
      `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${escapeHtml(title)}</title></head>` +
        `<body><main><h1>${escapeHtml(title)}</h1><p>${escapeHtml(text)}</p></main></body></html>`,
    );
}

/** What a callback that stored nothing tells the person, by outcome. */
export const CALLBACK_PAGES: Record<'denied' | 'unknown' | 'unbound' | 'replayed' | 'expired' | 'invalid' | 'failed', { status: number; title: string; text: (detail: string) => string }> = {
  denied: { status: 403, title: 'Connection cancelled', text: () => 'You did not authorize the app on the social platform. Nothing was stored. Start again from the CRM to connect the account.' },
  unknown: { status: 400, title: 'Unknown connection link', text: () => 'This link does not belong to a connection started here. Nothing was stored. Start again from the CRM.' },
  unbound: {
    status: 403,
    title: 'Connection started elsewhere',
    text: () => 'This connection was started from the CRM in another browser, so this browser cannot complete or cancel it. Nothing was stored. Start again from the CRM in this browser.',
  },
  replayed: { status: 409, title: 'Connection link already used', text: () => 'This connection link was used before. Nothing more was stored. If the account is not connected, start again from the CRM.' },
  expired: { status: 410, title: 'Connection link expired', text: (detail) => `This connection was started ${detail} ago or more and has expired. Nothing was stored. Start again from the CRM.` },
  invalid: { status: 400, title: 'Incomplete connection link', text: () => 'The link lacks what the platform adds to it (oauth_token and oauth_verifier, or state and code). Nothing was stored. Start again from the CRM.' },
  failed: { status: 502, title: 'Connection failed', text: (detail) => `The social platform did not complete the connection (${detail}). Nothing was stored. Please try again.` },
};

/** What opening a start link that cannot be used tells the person, by outcome. */
export const START_PAGES: Record<'unknown' | 'replayed' | 'expired', { status: number; title: string; text: (detail: string) => string }> = {
  unknown: { status: 400, title: 'Unknown connection link', text: () => 'This link does not belong to a connection started here. Start again from the CRM.' },
  replayed: { status: 409, title: 'Connection link already opened', text: () => 'This connection link was opened before, maybe in another browser. Start again from the CRM.' },
  expired: { status: 410, title: 'Connection link expired', text: (detail) => `This connection was started ${detail} ago or more and has expired. Start again from the CRM.` },
};
