import { randomBytes } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import type { CredentialMode } from '#app/domain';
import { Clock } from './clock.js';
import { DashboardAudit } from './dashboard-audit.js';
import type { DashboardSession, DashboardUser, SignedIn } from './dashboard-user.js';
import { DashboardSessionsRepository } from './dashboard-sessions.repository.js';
import { looksLikeToken, newToken, tokenHash } from './tokens.js';

export const SESSION_IDLE_MS = 30 * 60 * 1000;
export const SESSION_ABSOLUTE_MS = 12 * 60 * 60 * 1000;
/** `last_seen_at` is written at most this often, so reading pages costs no write each time. */
const TOUCH_EVERY_MS = 60 * 1000;

/** Where a session was started from, as the Security page shows it. */
export interface SessionOrigin {
  ip: string;
  userAgent: string;
}

/** A session and the id the browser holds for it (shown once: only its digest is stored). */
export interface StartedSession {
  token: string;
  session: DashboardSession;
}

function clip(value: string, max: number): string {
  const chars = [...value.replace(/[\p{Cc}\uD800-\uDFFF]/gu, ' ')];
  return chars.length > max ? chars.slice(0, max).join('') : chars.join('');
}

/**
 * Server-side sessions: idle 30 minutes, absolute 12 hours, a new id at sign-in and at every
 * credential change, ended on the server at sign-out.
 */
@Injectable()
export class DashboardSessionsService {
  constructor(
    private readonly sessions: DashboardSessionsRepository,
    private readonly clock: Clock,
    private readonly audit: DashboardAudit,
  ) {}

  /**
   * Starts a session for a user who just proved who they are. Organizations not yet active see
   * test mode first: that is what they can use meanwhile.
   */
  async start(user: DashboardUser, mode: CredentialMode, origin: SessionOrigin) {
    const token = newToken();
    const now = this.clock.now();
    const session = await this.sessions.create({
      tokenHash: tokenHash(token),
      userId: user.id,
      now,
      expiresAt: new Date(now.getTime() + SESSION_ABSOLUTE_MS),
      mode,
      csrfSecret: newCsrfSecret(),
      ip: clip(origin.ip, 64),
      userAgent: clip(origin.userAgent, 512),
    });
    return { token, session } satisfies StartedSession;
  }

  /**
   * The signed-in user behind a browser's session id, or null when there is none, it timed out
   * (then it is deleted) or the user is disabled.
   */
  async resolve(token: unknown): Promise<SignedIn | null> {
    if (!looksLikeToken(token)) {
      return null;
    }
    const found = await this.sessions.findSignedIn(tokenHash(token));
    if (!found) {
      return null;
    }
    const now = this.clock.now();
    if (!this.isLive(found.session, now) || found.user.disabledAt !== null) {
      await this.sessions.delete(found.session.id);
      return null;
    }
    if (now.getTime() - found.session.lastSeenAt.getTime() >= TOUCH_EVERY_MS) {
      await this.sessions.touch(found.session.id, now);
      found.session.lastSeenAt = now;
    }
    return found;
  }

  /** A new id (and CSRF secret) for the same session: after a password, factor or role change. */
  async rotate(session: DashboardSession): Promise<string> {
    const token = newToken();
    const csrfSecret = newCsrfSecret();
    await this.sessions.replaceToken(session.id, tokenHash(token), csrfSecret);
    session.csrfSecret = csrfSecret;
    return token;
  }

  async setMode(session: DashboardSession, mode: CredentialMode): Promise<void> {
    await this.sessions.setMode(session.id, mode);
    session.mode = mode;
  }

  async markReauthenticated(session: DashboardSession): Promise<void> {
    const now = this.clock.now();
    await this.sessions.markReauthenticated(session.id, now);
    session.reauthenticatedAt = now;
  }

  /** True when the person proved who they are again within the last `ms`. */
  reauthenticatedWithin(session: DashboardSession, ms: number): boolean {
    const at = session.reauthenticatedAt;
    return at !== null && this.clock.now().getTime() - at.getTime() <= ms;
  }

  /** Ends the session a browser's id names, if any (before a new one starts: no fixation). */
  async endByToken(token: unknown): Promise<void> {
    if (looksLikeToken(token)) {
      await this.sessions.deleteByTokenHash(tokenHash(token));
    }
  }

  end(sessionId: string): Promise<void> {
    return this.sessions.delete(sessionId);
  }

  /** Ends one of the user's own sessions, in the audit log; false when it had ended already. */
  async endForUser(sessionId: string, user: DashboardUser): Promise<boolean> {
    if (!(await this.sessions.deleteForUser(sessionId, user.id))) {
      return false;
    }
    await this.audit.record(user, 'session.ended', { type: 'session', id: sessionId });
    return true;
  }

  endAllForUser(userId: string, exceptSessionId?: string): Promise<number> {
    return this.sessions.deleteAllForUser(userId, exceptSessionId);
  }

  /** The user's sessions that still work, most recently used first. */
  async listForUser(userId: string): Promise<DashboardSession[]> {
    const now = this.clock.now();
    return (await this.sessions.listForUser(userId)).filter((s) => this.isLive(s, now));
  }

  private isLive(session: DashboardSession, now: Date): boolean {
    return (
      now.getTime() - session.lastSeenAt.getTime() < SESSION_IDLE_MS &&
      now.getTime() < session.expiresAt.getTime()
    );
  }
}

function newCsrfSecret(): string {
  return randomBytes(32).toString('hex');
}
