import type { Request } from 'express';
import type { SignedIn } from '#app/accounts';
import type { FlashMessage } from './flash.js';

/** What every dashboard page knows when it renders: set up by `DashboardGuard`. */
export interface PageContext {
  /** The path asked for (marks the current navigation link). */
  path: string;
  /** The CSRF token every form carries (`Form` puts it in a hidden field). */
  csrfToken: string;
  /** Null only on the pages that need no sign-in (login, sign-up, links from mails). */
  signedIn: SignedIn | null;
  flash: FlashMessage | null;
}

export interface DashboardRequest extends Request {
  dashboard?: PageContext;
}
