import { Inject, Injectable } from '@nestjs/common';
import { doubleCsrf } from 'csrf-csrf';
import type { Request, Response } from 'express';
import { CSRF_COOKIE, dashboardCookie } from './cookies.js';
import type { DashboardRequest } from './dashboard-request.js';
import { DASHBOARD_SETTINGS, type DashboardSettings } from './dashboard.config.js';

/** The hidden form field the token travels in (htmx may send it as `X-CSRF-Token` instead). */
export const CSRF_FIELD = '_csrf';

function tokenOf(req: Request): string | undefined {
  const body = req.body as Record<string, unknown> | undefined;
  const field = body?.[CSRF_FIELD];
  if (typeof field === 'string') {
    return field;
  }
  const header = req.headers['x-csrf-token'];
  return typeof header === 'string' ? header : undefined;
}

/**
 * CSRF tokens with csrf-csrf (signed double submit, see docs/decisions.md): a token is an HMAC
 * bound to the signed-in session's id under that session's own secret, or, before sign-in, to no
 * session under a secret every replica derives from the encryption key. The same value sits in
 * an HttpOnly cookie; a request must carry both and they must match.
 */
@Injectable()
export class DashboardCsrf {
  private readonly csrf: ReturnType<typeof doubleCsrf>;

  constructor(@Inject(DASHBOARD_SETTINGS) settings: DashboardSettings) {
    const signedIn = (req: Request) => (req as DashboardRequest).dashboard?.signedIn ?? null;
    this.csrf = doubleCsrf({
      getSecret: (req) => {
        const session = req ? signedIn(req)?.session : undefined;
        return session?.csrfSecret ?? settings.preSessionCsrfSecret;
      },
      getSessionIdentifier: (req) => signedIn(req)?.session.id ?? '',
      cookieName: CSRF_COOKIE,
      cookieOptions: { path: '/partner', sameSite: 'lax', httpOnly: true, secure: false },
      getCsrfTokenFromRequest: tokenOf,
    });
  }

  /** The token for this request's forms; sets the cookie when it has none that fits. */
  token(req: Request, res: Response, fresh = false): string {
    return this.csrf.generateCsrfToken(req, res, {
      overwrite: fresh,
      cookieOptions: dashboardCookie(req),
    });
  }

  valid(req: Request): boolean {
    return this.csrf.validateRequest(req);
  }

  /**
   * For the pages that need no sign-in: a token from before sign-in also counts (a sign-in form
   * left open in another tab while the person signed in there).
   */
  validBeforeSession(req: Request): boolean {
    const dashboardReq = req as DashboardRequest;
    const page = dashboardReq.dashboard;
    if (!page?.signedIn) {
      return this.valid(req);
    }
    dashboardReq.dashboard = { ...page, signedIn: null };
    try {
      return this.valid(req);
    } finally {
      dashboardReq.dashboard = page;
    }
  }
}
