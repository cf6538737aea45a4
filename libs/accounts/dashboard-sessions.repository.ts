import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { DataSource } from 'typeorm';
import type { CredentialMode, OrganizationStatus } from '#app/domain';
import { queryRows } from '#app/persistence';
import type { DashboardRole } from './dashboard-role.js';
import type { DashboardSession, SignedIn } from './dashboard-user.js';
import { isUuid } from './ids.js';

interface SessionRow {
  id: string;
  user_id: string;
  created_at: Date;
  last_seen_at: Date;
  expires_at: Date;
  reauthenticated_at: Date | null;
  mode: CredentialMode;
  csrf_secret: string;
  ip: string;
  user_agent: string;
}

interface SignedInRow extends SessionRow {
  organization_id: string;
  email: string;
  role: DashboardRole;
  disabled_at: Date | null;
  user_created_at: Date;
  organization_name: string;
  organization_status: OrganizationStatus;
  provider_activated: boolean;
}

const SESSION_COLUMNS = `s.id, s.user_id, s.created_at, s.last_seen_at, s.expires_at,
  s.reauthenticated_at, s.mode, s.csrf_secret, s.ip, s.user_agent`;

function toSession(row: SessionRow): DashboardSession {
  return {
    id: row.id,
    userId: row.user_id,
    createdAt: row.created_at,
    lastSeenAt: row.last_seen_at,
    expiresAt: row.expires_at,
    reauthenticatedAt: row.reauthenticated_at,
    mode: row.mode,
    csrfSecret: row.csrf_secret,
    ip: row.ip,
    userAgent: row.user_agent,
  };
}

export interface NewDashboardSession {
  tokenHash: Buffer;
  userId: string;
  now: Date;
  expiresAt: Date;
  mode: CredentialMode;
  csrfSecret: string;
  ip: string;
  userAgent: string;
}

/** Server-side dashboard sessions, found by the digest of the id the browser holds. */
@Injectable()
export class DashboardSessionsRepository {
  constructor(@InjectDataSource() private readonly db: DataSource) {}

  async create(session: NewDashboardSession): Promise<DashboardSession> {
    const rows = await queryRows<SessionRow>(
      this.db,
      `INSERT INTO dashboard_sessions AS s (token_hash, user_id, created_at, last_seen_at,
           expires_at, mode, csrf_secret, ip, user_agent)
         VALUES ($1, $2, $3, $3, $4, $5, $6, $7, $8) RETURNING ${SESSION_COLUMNS}`,
      [
        session.tokenHash,
        session.userId,
        session.now,
        session.expiresAt,
        session.mode,
        session.csrfSecret,
        session.ip,
        session.userAgent,
      ],
    );
    return toSession(rows[0]);
  }

  /** The session, its user and organization in one round trip. */
  async findSignedIn(tokenHash: Buffer): Promise<SignedIn | null> {
    const rows = await queryRows<SignedInRow>(
      this.db,
      `SELECT ${SESSION_COLUMNS}, u.organization_id, u.email, u.role, u.disabled_at,
                u.created_at AS user_created_at, o.name AS organization_name,
                o.status AS organization_status, o.provider_activated
           FROM dashboard_sessions s
           JOIN dashboard_users u ON u.id = s.user_id
           JOIN organizations o ON o.id = u.organization_id
          WHERE s.token_hash = $1`,
      [tokenHash],
    );
    const row = rows[0];
    if (!row) {
      return null;
    }
    return {
      session: toSession(row),
      user: {
        id: row.user_id,
        organizationId: row.organization_id,
        email: row.email,
        role: row.role,
        disabledAt: row.disabled_at,
        createdAt: row.user_created_at,
      },
      organization: {
        id: row.organization_id,
        name: row.organization_name,
        status: row.organization_status,
        providerActivated: row.provider_activated,
      },
    };
  }

  async touch(id: string, at: Date): Promise<void> {
    await queryRows(this.db, `UPDATE dashboard_sessions SET last_seen_at = $2 WHERE id = $1`, [
      id,
      at,
    ]);
  }

  /** A new id for the same session (after a credential change): the old id stops working. */
  async replaceToken(id: string, tokenHash: Buffer, csrfSecret: string): Promise<void> {
    await queryRows(
      this.db,
      `UPDATE dashboard_sessions SET token_hash = $2, csrf_secret = $3 WHERE id = $1`,
      [id, tokenHash, csrfSecret],
    );
  }

  async setMode(id: string, mode: CredentialMode): Promise<void> {
    await queryRows(this.db, `UPDATE dashboard_sessions SET mode = $2 WHERE id = $1`, [id, mode]);
  }

  async markReauthenticated(id: string, at: Date): Promise<void> {
    await queryRows(
      this.db,
      `UPDATE dashboard_sessions SET reauthenticated_at = $2 WHERE id = $1`,
      [id, at],
    );
  }

  async deleteByTokenHash(tokenHash: Buffer): Promise<void> {
    await queryRows(this.db, `DELETE FROM dashboard_sessions WHERE token_hash = $1`, [tokenHash]);
  }

  async delete(id: string): Promise<void> {
    await queryRows(this.db, `DELETE FROM dashboard_sessions WHERE id = $1`, [id]);
  }

  /** Ends one of a user's sessions; false when the id is not theirs. */
  async deleteForUser(id: string, userId: string): Promise<boolean> {
    if (!isUuid(id)) {
      return false;
    }
    const rows = await queryRows<{ id: string }>(
      this.db,
      `DELETE FROM dashboard_sessions WHERE id = $1 AND user_id = $2 RETURNING id`,
      [id, userId],
    );
    return rows.length === 1;
  }

  /** Ends every session of a user, but `exceptId` when given. */
  async deleteAllForUser(userId: string, exceptId?: string): Promise<number> {
    const rows = await queryRows<{ id: string }>(
      this.db,
      `DELETE FROM dashboard_sessions WHERE user_id = $1 AND id IS DISTINCT FROM $2 RETURNING id`,
      [userId, exceptId ?? null],
    );
    return rows.length;
  }

  async listForUser(userId: string): Promise<DashboardSession[]> {
    const rows = await queryRows<SessionRow>(
      this.db,
      `SELECT ${SESSION_COLUMNS} FROM dashboard_sessions s WHERE s.user_id = $1
          ORDER BY s.last_seen_at DESC, s.id`,
      [userId],
    );
    return rows.map(toSession);
  }
}
