import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { DataSource, EntityManager } from 'typeorm';
import { AppError, ErrorCode } from '#app/errors';
import { queryRows } from '#app/persistence';
import type { DashboardRole } from './dashboard-role.js';
import type { DashboardUser } from './dashboard-user.js';
import { isUuid } from './ids.js';

interface UserRow {
  id: string;
  organization_id: string;
  email: string;
  role: DashboardRole;
  disabled_at: Date | null;
  created_at: Date;
}

const COLUMNS = 'id, organization_id, email, role, disabled_at, created_at';

function toUser(row: UserRow): DashboardUser {
  return {
    id: row.id,
    organizationId: row.organization_id,
    email: row.email,
    role: row.role,
    disabledAt: row.disabled_at,
    createdAt: row.created_at,
  };
}

export interface NewDashboardUser {
  organizationId: string;
  email: string;
  passwordHash: string;
  role: DashboardRole;
}

function isUniqueViolation(error: unknown): boolean {
  return (error as { code?: unknown } | null)?.code === '23505';
}

/** Dashboard users. Emails are unique whatever their case; every change names the organization. */
@Injectable()
export class DashboardUsersRepository {
  constructor(@InjectDataSource() private readonly db: DataSource) {}

  async create(user: NewDashboardUser, manager: EntityManager = this.db.manager) {
    try {
      const rows = await queryRows<UserRow>(
        manager,
        `INSERT INTO dashboard_users (organization_id, email, password_hash, role)
           VALUES ($1, $2, $3, $4) RETURNING ${COLUMNS}`,
        [user.organizationId, user.email, user.passwordHash, user.role],
      );
      return toUser(rows[0]);
    } catch (error: unknown) {
      if (isUniqueViolation(error)) {
        throw new AppError(ErrorCode.EmailTaken, 'A user with this email exists already.', {
          param: 'email',
        });
      }
      throw error;
    }
  }

  async findWithHashByEmail(
    email: string,
  ): Promise<{ user: DashboardUser; passwordHash: string } | null> {
    const rows = await queryRows<UserRow & { password_hash: string }>(
      this.db,
      `SELECT ${COLUMNS}, password_hash FROM dashboard_users WHERE lower(email) = lower($1)`,
      [email],
    );
    return rows[0] ? { user: toUser(rows[0]), passwordHash: rows[0].password_hash } : null;
  }

  async findByEmail(email: string): Promise<DashboardUser | null> {
    const rows = await queryRows<UserRow>(
      this.db,
      `SELECT ${COLUMNS} FROM dashboard_users WHERE lower(email) = lower($1)`,
      [email],
    );
    return rows[0] ? toUser(rows[0]) : null;
  }

  async passwordHashOf(id: string): Promise<string | null> {
    const rows = await queryRows<{ password_hash: string }>(
      this.db,
      `SELECT password_hash FROM dashboard_users WHERE id = $1`,
      [id],
    );
    return rows[0]?.password_hash ?? null;
  }

  async findById(id: string): Promise<DashboardUser | null> {
    if (!isUuid(id)) {
      return null;
    }
    const rows = await queryRows<UserRow>(
      this.db,
      `SELECT ${COLUMNS} FROM dashboard_users WHERE id = $1`,
      [id],
    );
    return rows[0] ? toUser(rows[0]) : null;
  }

  async findByIdForOrganization(id: string, organizationId: string) {
    if (!isUuid(id) || !isUuid(organizationId)) {
      return null;
    }
    const rows = await queryRows<UserRow>(
      this.db,
      `SELECT ${COLUMNS} FROM dashboard_users WHERE id = $1 AND organization_id = $2`,
      [id, organizationId],
    );
    return rows[0] ? toUser(rows[0]) : null;
  }

  async listForOrganization(organizationId: string): Promise<DashboardUser[]> {
    if (!isUuid(organizationId)) {
      return [];
    }
    const rows = await queryRows<UserRow>(
      this.db,
      `SELECT ${COLUMNS} FROM dashboard_users WHERE organization_id = $1
          ORDER BY created_at, id`,
      [organizationId],
    );
    return rows.map(toUser);
  }

  async setPasswordHash(id: string, passwordHash: string): Promise<void> {
    await queryRows(
      this.db,
      `UPDATE dashboard_users SET password_hash = $2, updated_at = now() WHERE id = $1`,
      [id, passwordHash],
    );
  }

  /** Changes a role unless it would leave the organization without an enabled owner. */
  async setRole(id: string, organizationId: string, role: DashboardRole): Promise<boolean> {
    return this.db.transaction(async (manager) => {
      await this.lockOrganization(manager, organizationId);
      if (role !== 'owner' && (await this.isLastOwner(manager, id, organizationId))) {
        throw lastOwner();
      }
      const rows = await queryRows<{ id: string }>(
        manager,
        `UPDATE dashboard_users SET role = $3, updated_at = now()
            WHERE id = $1 AND organization_id = $2 RETURNING id`,
        [id, organizationId, role],
      );
      return rows.length === 1;
    });
  }

  /** Removes a user unless they are the organization's last enabled owner. */
  async remove(id: string, organizationId: string): Promise<boolean> {
    return this.db.transaction(async (manager) => {
      await this.lockOrganization(manager, organizationId);
      if (await this.isLastOwner(manager, id, organizationId)) {
        throw lastOwner();
      }
      const rows = await queryRows<{ id: string }>(
        manager,
        `DELETE FROM dashboard_users WHERE id = $1 AND organization_id = $2 RETURNING id`,
        [id, organizationId],
      );
      return rows.length === 1;
    });
  }

  async disable(id: string, at: Date): Promise<DashboardUser | null> {
    if (!isUuid(id)) {
      return null;
    }
    const rows = await queryRows<UserRow>(
      this.db,
      `UPDATE dashboard_users SET disabled_at = coalesce(disabled_at, $2), updated_at = now()
          WHERE id = $1 RETURNING ${COLUMNS}`,
      [id, at],
    );
    return rows[0] ? toUser(rows[0]) : null;
  }

  /** Team changes of one organization run one at a time, so two cannot remove the last owner. */
  private async lockOrganization(manager: EntityManager, organizationId: string): Promise<void> {
    await queryRows(manager, `SELECT id FROM organizations WHERE id = $1 FOR UPDATE`, [
      organizationId,
    ]);
  }

  private async isLastOwner(manager: EntityManager, id: string, organizationId: string) {
    const rows = await queryRows<{ target_is_owner: boolean; owners: string }>(
      manager,
      `SELECT bool_or(id = $1) AS target_is_owner, count(*) AS owners FROM dashboard_users
          WHERE organization_id = $2 AND role = 'owner' AND disabled_at IS NULL`,
      [id, organizationId],
    );
    return rows[0]?.target_is_owner === true && Number(rows[0].owners) <= 1;
  }
}

function lastOwner(): AppError {
  return new AppError(ErrorCode.LastOwner, 'An organization keeps at least one owner.');
}
