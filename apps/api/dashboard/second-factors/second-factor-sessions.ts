import { Inject, Injectable } from '@nestjs/common';
import type { Request } from 'express';
import {
  DashboardAccountsService,
  DashboardAudit,
  DashboardSessionsService,
  type DashboardUser,
  type SignedIn,
} from '#app/accounts';
import type { RelyingParty } from '#app/dashboard-factors';
import { readCookie, SESSION_COOKIE } from '../common/cookies.js';
import { DASHBOARD_SETTINGS, type DashboardSettings } from '../common/dashboard.config.js';
import { requestRelyingParty } from '../common/reauth.js';
import { type SecondFactorChange, SecondFactorNotices } from './second-factor-notices.js';

/** How the person proved who they are, as the audit log records a sign-in. */
export type SignInFactor = 'totp' | 'recovery_code' | 'passkey';

/** The browser's handle on its pending sign-in (between password and second factor). */
export const PENDING_SIGN_IN_COOKIE = 'partner_signin';
/** Ties a passkey sign-in's challenge to the browser that asked for it (before any session). */
export const WEBAUTHN_COOKIE = 'partner_webauthn';

/** The largest ceremony answer read: a passkey's answer is a few kilobytes. */
const MAX_CREDENTIAL_LENGTH = 65_536;

/** The browser a sign-in comes from: its session so far, its address and its user agent. */
export function browserOf(req: Request, previous: SignedIn | null) {
  return {
    previous,
    cookie: readCookie(req, SESSION_COOKIE),
    ip: req.ip ?? 'unknown',
    userAgent: req.get('user-agent') ?? '',
  };
}

/** The browser's ceremony answer from a form field; null when it is no JSON object. */
export function credentialOf(text: string | undefined): unknown {
  if (text === undefined || text.length === 0 || text.length > MAX_CREDENTIAL_LENGTH) {
    return null;
  }
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return null;
  }
}

/**
 * What the second-factor routes share: the relying party of a request, and starting a session
 * once a second factor (or a passkey alone) has proved the user, as the password sign-in does.
 */
@Injectable()
export class SecondFactorSessions {
  constructor(
    private readonly accounts: DashboardAccountsService,
    private readonly sessions: DashboardSessionsService,
    private readonly audit: DashboardAudit,
    private readonly notices: SecondFactorNotices,
    @Inject(DASHBOARD_SETTINGS) private readonly settings: DashboardSettings,
  ) {}

  /** Null where WebAuthn cannot work (an IP address, plain http on a domain). */
  relyingParty(req: Request): RelyingParty | null {
    return requestRelyingParty(this.settings, req);
  }

  /** The user, if it still exists and is not disabled. */
  async activeUser(userId: string): Promise<DashboardUser | null> {
    try {
      const user = await this.accounts.findUser(userId);
      return user.disabledAt === null ? user : null;
    } catch {
      return null;
    }
  }

  /** A new session (never the browser's old id) and the audit entry; answers its token. */
  start(
    req: Request,
    user: DashboardUser,
    previous: SignedIn | null,
    factor: SignInFactor,
  ): Promise<string> {
    return this.accounts.signIn(user, browserOf(req, previous), factor);
  }

  /**
   * After a change of second factor: a new session id (the old one stops working; its token is
   * answered, for the cookie), the audit entry and the notice to the user. `name`: the passkey's.
   */
  async changed(
    me: SignedIn,
    change: SecondFactorChange,
    ip: string,
    name?: string,
  ): Promise<string> {
    const token = await this.sessions.rotate(me.session);
    await this.audit.record(
      me.user,
      change,
      { type: 'user', id: me.user.id },
      name === undefined ? undefined : { name },
    );
    await this.notices.send(me, change, ip, name);
    return token;
  }
}
