import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Second factors of dashboard users: a TOTP secret (sealed, with the last time step used so a code
 * works once), single-use recovery codes (digests only), passkeys (WebAuthn public keys) and the
 * WebAuthn challenges in flight. Users are referenced by id; the foreign key to the users table
 * comes with a later migration.
 */
export class DashboardFactors1764700000000 implements MigrationInterface {
  name = 'DashboardFactors1764700000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE dashboard_totp (
        user_id uuid PRIMARY KEY,
        secret_ciphertext text NOT NULL,
        confirmed_at timestamptz,
        last_used_step bigint,
        created_at timestamptz NOT NULL DEFAULT now()
      )`);

    await q.query(`
      CREATE TABLE dashboard_recovery_codes (
        id bigserial PRIMARY KEY,
        user_id uuid NOT NULL,
        code_digest char(64) NOT NULL,
        used_at timestamptz,
        created_at timestamptz NOT NULL DEFAULT now(),
        UNIQUE (user_id, code_digest)
      )`);

    await q.query(`
      CREATE TABLE dashboard_passkeys (
        id varchar(1400) PRIMARY KEY,
        user_id uuid NOT NULL,
        public_key bytea NOT NULL,
        counter bigint NOT NULL DEFAULT 0,
        transports text[] NOT NULL DEFAULT '{}',
        name varchar(64) NOT NULL,
        device_type varchar(16) NOT NULL,
        backed_up boolean NOT NULL,
        created_at timestamptz NOT NULL DEFAULT now(),
        last_used_at timestamptz
      )`);
    await q.query(
      `CREATE INDEX dashboard_passkeys_user_idx ON dashboard_passkeys (user_id, created_at)`,
    );

    await q.query(`
      CREATE TABLE dashboard_webauthn_challenges (
        binding char(64) NOT NULL,
        purpose varchar(16) NOT NULL
          CHECK (purpose IN ('register', 'sign_in', 'second_factor', 'reauth')),
        challenge varchar(128) NOT NULL,
        user_id uuid,
        expires_at timestamptz NOT NULL,
        PRIMARY KEY (binding, purpose)
      )`);
    await q.query(
      `CREATE INDEX dashboard_webauthn_challenges_expiry_idx
         ON dashboard_webauthn_challenges (expires_at)`,
    );
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE dashboard_webauthn_challenges`);
    await q.query(`DROP TABLE dashboard_passkeys`);
    await q.query(`DROP TABLE dashboard_recovery_codes`);
    await q.query(`DROP TABLE dashboard_totp`);
  }
}
