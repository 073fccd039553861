/** Where the sign-in sends the agent back to (`?next=`): a path of this console only, never `//elsewhere` or `/\elsewhere`. */
export function returnPath(search: string): string {
  const next = new URLSearchParams(search).get('next') ?? '';
  return /^\/(?![/\\])/.test(next) && !next.startsWith('/signin') ? next : '/inbox';
}
