import { MigrationInterface, QueryRunner } from 'typeorm';

const TERMINAL = `('finished','failed','refunded','overdue','expired')`;

export class InitialSchema1763700000000 implements MigrationInterface {
  name = 'InitialSchema1763700000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE organizations (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        name varchar(200) NOT NULL,
        fee_percent numeric NOT NULL CHECK (fee_percent >= 0 AND fee_percent <= 4),
        status varchar(32) NOT NULL
          CHECK (status IN ('pending_review','active','suspended','rejected')),
        provider_activated boolean NOT NULL DEFAULT false,
        payout_address varchar(128),
        payout_network varchar(16) NOT NULL DEFAULT 'trc20' CHECK (payout_network IN ('trc20','erc20')),
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now()
      )`);
    await q.query(`
      CREATE TABLE credentials (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        organization_id uuid NOT NULL REFERENCES organizations(id),
        public_key varchar(64) NOT NULL UNIQUE,
        secret_ciphertext text NOT NULL,
        secret_digest varchar(64) NOT NULL,
        created_at timestamptz NOT NULL DEFAULT now(),
        revoked_at timestamptz
      )`);
    await q.query(`CREATE INDEX credentials_org_idx ON credentials (organization_id)`);
    await q.query(`
      CREATE TABLE swaps (
        id varchar(64) PRIMARY KEY,
        organization_id uuid NOT NULL REFERENCES organizations(id),
        credential_id uuid REFERENCES credentials(id),
        idempotency_key varchar(64),
        provider_transaction_id varchar(128) UNIQUE,
        status varchar(16) NOT NULL CHECK (status IN ('waiting','confirming','exchanging','sending',
          'finished','failed','refunded','overdue','expired','hold')),
        mode varchar(8) NOT NULL CHECK (mode IN ('float','fixed')),
        from_ticker varchar(32) NOT NULL,
        to_ticker varchar(32) NOT NULL,
        amount_from numeric NOT NULL,
        amount_expected_to numeric,
        amount_actual_from numeric,
        amount_actual_to numeric,
        network_fee numeric,
        actual_network_fee numeric,
        rate numeric,
        amount_anomaly_pct numeric,
        payin_address varchar(256) NOT NULL,
        payout_address varchar(256) NOT NULL,
        refund_address varchar(256),
        payin_hash varchar(256),
        payout_hash varchar(256),
        money_received_at timestamptz,
        money_sent_at timestamptz,
        partner_reference_id varchar(120),
        pay_till timestamptz,
        fixed_rate_id varchar(64),
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now(),
        next_poll_at timestamptz,
        lease_owner varchar(128),
        lease_until timestamptz
      )`);
    await q.query(
      `CREATE INDEX swaps_org_created_idx ON swaps (organization_id, created_at DESC, id DESC)`,
    );
    await q.query(`CREATE INDEX swaps_org_reference_idx ON swaps (organization_id, partner_reference_id)
      WHERE partner_reference_id IS NOT NULL`);
    await q.query(
      `CREATE INDEX swaps_due_idx ON swaps (next_poll_at) WHERE status NOT IN ${TERMINAL}`,
    );
    await q.query(`CREATE INDEX swaps_credential_key_idx ON swaps (credential_id, idempotency_key)
      WHERE idempotency_key IS NOT NULL`);
    await q.query(`
      CREATE TABLE idempotency_keys (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        credential_id uuid NOT NULL REFERENCES credentials(id),
        key varchar(64) NOT NULL,
        fingerprint varchar(64) NOT NULL,
        state varchar(16) NOT NULL CHECK (state IN ('pending','completed')),
        swap_id varchar(64) REFERENCES swaps(id),
        upstream_attempt jsonb,
        locked_until timestamptz,
        created_at timestamptz NOT NULL DEFAULT now(),
        expires_at timestamptz NOT NULL,
        CONSTRAINT idempotency_keys_credential_key_uq UNIQUE (credential_id, key)
      )`);
    await q.query(`CREATE INDEX idempotency_keys_expires_idx ON idempotency_keys (expires_at)`);
    await q.query(`
      CREATE TABLE fixed_rates (
        id varchar(128) PRIMARY KEY,
        provider_rate_id varchar(128) NOT NULL,
        organization_id uuid NOT NULL REFERENCES organizations(id),
        from_ticker varchar(32) NOT NULL,
        to_ticker varchar(32) NOT NULL,
        amount_from numeric NOT NULL,
        amount_to numeric NOT NULL,
        network_fee numeric NOT NULL,
        rate numeric NOT NULL,
        expires_at timestamptz NOT NULL,
        used_at timestamptz,
        swap_id varchar(64),
        created_at timestamptz NOT NULL DEFAULT now()
      )`);
    await q.query(`CREATE INDEX fixed_rates_expires_idx ON fixed_rates (expires_at)`);
    await q.query(`
      CREATE TABLE earnings_ledger (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        organization_id uuid NOT NULL REFERENCES organizations(id),
        swap_id varchar(64) NOT NULL UNIQUE REFERENCES swaps(id),
        fee_percent numeric NOT NULL,
        amount_actual_from numeric NOT NULL,
        from_ticker varchar(32) NOT NULL,
        usd_price numeric NOT NULL,
        amount_usd numeric NOT NULL,
        created_at timestamptz NOT NULL DEFAULT now()
      )`);
    await q.query(`CREATE INDEX earnings_org_idx ON earnings_ledger (organization_id, created_at)`);
    await q.query(`
      CREATE TABLE payouts (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        organization_id uuid NOT NULL REFERENCES organizations(id),
        amount_usd numeric NOT NULL,
        asset varchar(16) NOT NULL DEFAULT 'usdt',
        network varchar(16) NOT NULL,
        address varchar(128),
        status varchar(16) NOT NULL CHECK (status IN ('due','paid')),
        created_at timestamptz NOT NULL DEFAULT now()
      )`);
    await q.query(`CREATE INDEX payouts_org_idx ON payouts (organization_id, created_at)`);
    await q.query(`
      CREATE TABLE audit_log (
        id bigserial PRIMARY KEY,
        actor varchar(128) NOT NULL,
        action varchar(64) NOT NULL,
        target_type varchar(32) NOT NULL,
        target_id varchar(128) NOT NULL,
        details jsonb,
        created_at timestamptz NOT NULL DEFAULT now()
      )`);
    await q.query(`CREATE INDEX audit_log_created_idx ON audit_log (created_at DESC)`);
    await q.query(`
      CREATE TABLE swap_events (
        id bigserial PRIMARY KEY,
        swap_id varchar(64) NOT NULL REFERENCES swaps(id),
        from_status varchar(16),
        to_status varchar(16) NOT NULL,
        source varchar(32) NOT NULL,
        details jsonb,
        created_at timestamptz NOT NULL DEFAULT now()
      )`);
    await q.query(`CREATE INDEX swap_events_swap_idx ON swap_events (swap_id, created_at)`);
  }

  async down(q: QueryRunner): Promise<void> {
    for (const table of [
      'swap_events',
      'audit_log',
      'payouts',
      'earnings_ledger',
      'fixed_rates',
      'idempotency_keys',
      'swaps',
      'credentials',
      'organizations',
    ]) {
      await q.query(`DROP TABLE ${table}`);
    }
  }
}
