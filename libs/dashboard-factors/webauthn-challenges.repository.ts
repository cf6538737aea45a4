import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import {
  DashboardWebAuthnChallengeEntity,
  EntityColumns,
  queryRows,
  type WebAuthnPurpose,
} from '#app/persistence';

/**
 * The only writer of `dashboard_webauthn_challenges`. Plain SQL: taking a challenge is one
 * `DELETE … RETURNING`, so a challenge answers one ceremony however many requests race for it.
 */
@Injectable()
export class WebAuthnChallengesRepository {
  private readonly columns: EntityColumns<DashboardWebAuthnChallengeEntity>;

  constructor(@InjectDataSource() private readonly dataSource: DataSource) {
    this.columns = new EntityColumns(dataSource, DashboardWebAuthnChallengeEntity);
  }

  /** Stores the challenge in place of the binding's previous one for that purpose. */
  async put(challenge: DashboardWebAuthnChallengeEntity, now: Date): Promise<void> {
    await queryRows(
      this.dataSource,
      `DELETE FROM dashboard_webauthn_challenges WHERE expires_at <= $1`,
      [now],
    );
    await queryRows(
      this.dataSource,
      `INSERT INTO dashboard_webauthn_challenges (${this.columns.list})
       VALUES (${this.columns.placeholders()})
       ON CONFLICT (binding, purpose) DO UPDATE
          SET challenge = excluded.challenge, user_id = excluded.user_id,
              expires_at = excluded.expires_at`,
      this.columns.values(challenge),
    );
  }

  /** Removes and answers the binding's challenge for the purpose, unless it has expired. */
  async take(
    binding: string,
    purpose: WebAuthnPurpose,
    now: Date,
  ): Promise<DashboardWebAuthnChallengeEntity | null> {
    const challenge = await this.columns.readOne(
      this.dataSource,
      `DELETE FROM dashboard_webauthn_challenges WHERE binding = $1 AND purpose = $2
       RETURNING ${this.columns.list}`,
      [binding, purpose],
    );
    return challenge !== null && challenge.expiresAt > now ? challenge : null;
  }
}
