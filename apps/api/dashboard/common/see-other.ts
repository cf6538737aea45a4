/** Ends a dashboard request with `303 See Other` to `url` (a path on this site). */
export class SeeOther extends Error {
  constructor(readonly url: string) {
    super(`See ${url}`);
    this.name = 'SeeOther';
  }
}

/** The sign-in page, remembering the page that was asked for when it can be returned to. */
export function loginUrl(next?: string): string {
  return next === undefined || next === '/partner'
    ? '/partner/login'
    : `/partner/login?next=${encodeURIComponent(next)}`;
}
