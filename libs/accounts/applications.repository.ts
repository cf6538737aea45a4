import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { DataSource, EntityManager } from 'typeorm';
import { checkedRows } from '#app/persistence';

/** An application waiting for its address to confirm it; the link's token is kept as a digest. */
export interface Application {
  email: string;
  organizationName: string;
  feePercent: string;
  passwordHash: string;
}

export interface NewApplication extends Application {
  tokenHash: Buffer;
  now: Date;
  expiresAt: Date;
}

const APPLICATION = {
  email: 'string',
  organization_name: 'string',
  fee_percent: 'string',
  password_hash: 'string',
} as const;

const COLUMNS = 'email, organization_name, fee_percent::text AS fee_percent, password_hash';

/** `dashboard_applications`: written by the sign-up form, taken by the link it mails. */
@Injectable()
export class ApplicationsRepository {
  constructor(@InjectDataSource() private readonly db: DataSource) {}

  /** Stores an application, in the caller's transaction; expired ones are deleted meanwhile. */
  async create(application: NewApplication, manager: EntityManager): Promise<void> {
    await checkedRows(
      manager,
      {},
      `WITH expired AS (DELETE FROM dashboard_applications WHERE expires_at <= $6)
       INSERT INTO dashboard_applications
         (email, organization_name, fee_percent, password_hash, token_hash, created_at, expires_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7)`,
      [
        application.email,
        application.organizationName,
        application.feePercent,
        application.passwordHash,
        application.tokenHash,
        application.now,
        application.expiresAt,
      ],
    );
  }

  /** The application a link opens while it can still be confirmed. */
  async findOpen(tokenHash: Buffer, now: Date): Promise<Application | null> {
    const [row] = await checkedRows(
      this.db,
      APPLICATION,
      `SELECT ${COLUMNS} FROM dashboard_applications WHERE token_hash = $1 AND expires_at > $2`,
      [tokenHash, now],
    );
    return row ? toApplication(row) : null;
  }

  /**
   * Runs `work` on the open application of a link, locked, and deletes it when `work` succeeds:
   * one confirmation per link; a second one waits, then finds nothing. When `work` fails the
   * application stays, so the link can be followed again.
   */
  take<T>(
    tokenHash: Buffer,
    now: Date,
    work: (application: Application | null) => Promise<T>,
  ): Promise<T> {
    return this.db.transaction(async (manager) => {
      const [row] = await checkedRows(
        manager,
        { id: 'string', ...APPLICATION },
        `SELECT id, ${COLUMNS} FROM dashboard_applications
          WHERE token_hash = $1 AND expires_at > $2 FOR UPDATE`,
        [tokenHash, now],
      );
      const result = await work(row ? toApplication(row) : null);
      if (row) {
        await checkedRows(manager, {}, `DELETE FROM dashboard_applications WHERE id = $1`, [
          row.id,
        ]);
      }
      return result;
    });
  }

  transaction<T>(work: (manager: EntityManager) => Promise<T>): Promise<T> {
    return this.db.transaction(work);
  }
}

function toApplication(row: {
  email: string;
  organization_name: string;
  fee_percent: string;
  password_hash: string;
}): Application {
  return {
    email: row.email,
    organizationName: row.organization_name,
    feePercent: row.fee_percent,
    passwordHash: row.password_hash,
  };
}
