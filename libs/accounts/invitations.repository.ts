import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { DataSource, EntityManager } from 'typeorm';
import { queryRows } from '#app/persistence';
import type { DashboardRole } from './dashboard-role.js';

/** An invitation to join an organization's dashboard; the link's token is kept as a digest. */
export interface Invitation {
  id: string;
  organizationId: string;
  email: string;
  role: DashboardRole;
  invitedBy: string;
  createdAt: Date;
  expiresAt: Date;
  acceptedAt: Date | null;
}

interface InvitationRow {
  id: string;
  organization_id: string;
  email: string;
  role: DashboardRole;
  invited_by: string;
  created_at: Date;
  expires_at: Date;
  accepted_at: Date | null;
}

const COLUMNS = 'id, organization_id, email, role, invited_by, created_at, expires_at, accepted_at';

function toInvitation(row: InvitationRow): Invitation {
  return {
    id: row.id,
    organizationId: row.organization_id,
    email: row.email,
    role: row.role,
    invitedBy: row.invited_by,
    createdAt: row.created_at,
    expiresAt: row.expires_at,
    acceptedAt: row.accepted_at,
  };
}

@Injectable()
export class InvitationsRepository {
  constructor(@InjectDataSource() private readonly db: DataSource) {}

  async create(input: {
    organizationId: string;
    email: string;
    role: DashboardRole;
    tokenHash: Buffer;
    invitedBy: string;
    now: Date;
    expiresAt: Date;
  }): Promise<Invitation> {
    const rows = await queryRows<InvitationRow>(
      this.db,
      `INSERT INTO dashboard_invitations
           (organization_id, email, role, token_hash, invited_by, created_at, expires_at)
         VALUES ($1, $2, $3, $4, $5, $6, $7) RETURNING ${COLUMNS}`,
      [
        input.organizationId,
        input.email,
        input.role,
        input.tokenHash,
        input.invitedBy,
        input.now,
        input.expiresAt,
      ],
    );
    return toInvitation(rows[0]);
  }

  /** An invitation that can still be accepted: not used and not expired at `now`. */
  async findOpenByTokenHash(tokenHash: Buffer, now: Date): Promise<Invitation | null> {
    const rows = await queryRows<InvitationRow>(
      this.db,
      `SELECT ${COLUMNS} FROM dashboard_invitations
          WHERE token_hash = $1 AND accepted_at IS NULL AND expires_at > $2`,
      [tokenHash, now],
    );
    return rows[0] ? toInvitation(rows[0]) : null;
  }

  /** Marks it used, atomically: of two racing acceptances only one gets true. */
  async markAccepted(id: string, now: Date, manager: EntityManager): Promise<boolean> {
    const rows = await queryRows<{ id: string }>(
      manager,
      `UPDATE dashboard_invitations SET accepted_at = $2
          WHERE id = $1 AND accepted_at IS NULL AND expires_at > $2 RETURNING id`,
      [id, now],
    );
    return rows.length === 1;
  }

  async listOpenForOrganization(organizationId: string, now: Date): Promise<Invitation[]> {
    const rows = await queryRows<InvitationRow>(
      this.db,
      `SELECT ${COLUMNS} FROM dashboard_invitations
          WHERE organization_id = $1 AND accepted_at IS NULL AND expires_at > $2
          ORDER BY created_at DESC, id`,
      [organizationId, now],
    );
    return rows.map(toInvitation);
  }

  transaction<T>(work: (manager: EntityManager) => Promise<T>): Promise<T> {
    return this.db.transaction(work);
  }
}
