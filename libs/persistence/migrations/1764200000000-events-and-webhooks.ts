import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Events and webhooks (docs/decisions.md, "The event feed"). `events` is the partner-facing record
 * of every swap change, written in the transaction that makes the change; `xid` is that
 * transaction's id, which orders the feed so a page never skips an event committed late (see
 * docs/decisions.md, "The event feed"). `webhook_deliveries` is the outbox: one row per event and
 * matching endpoint, written with the event, leased by pollers; `webhook_attempts` keeps what each
 * attempt got back.
 */
export class EventsAndWebhooks1764200000000 implements MigrationInterface {
  name = 'EventsAndWebhooks1764200000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE events (
        seq bigserial PRIMARY KEY,
        id varchar(28) NOT NULL UNIQUE,
        organization_id uuid NOT NULL REFERENCES organizations(id),
        livemode boolean NOT NULL,
        type varchar(32) NOT NULL,
        swap_id varchar(64) REFERENCES swaps(id),
        data json NOT NULL,
        created_at timestamptz NOT NULL DEFAULT clock_timestamp(),
        xid xid8 NOT NULL DEFAULT pg_current_xact_id()
      )`);
    await q.query(`CREATE INDEX events_feed_idx ON events (organization_id, livemode, xid, seq)`);
    await q.query(
      `CREATE INDEX events_swap_idx ON events (swap_id, seq) WHERE swap_id IS NOT NULL`,
    );
    await q.query(`CREATE INDEX events_created_idx ON events (created_at)`);

    await q.query(`
      CREATE TABLE webhook_endpoints (
        id varchar(27) PRIMARY KEY,
        organization_id uuid NOT NULL REFERENCES organizations(id),
        livemode boolean NOT NULL,
        url text NOT NULL,
        events text[] NOT NULL,
        description text,
        enabled boolean NOT NULL DEFAULT true,
        secret_ciphertext text NOT NULL,
        previous_secret_ciphertext text,
        previous_secret_expires_at timestamptz,
        failing_since timestamptz,
        disabled_at timestamptz,
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now()
      )`);
    await q.query(
      `CREATE INDEX webhook_endpoints_org_idx ON webhook_endpoints
         (organization_id, livemode, created_at)`,
    );

    await q.query(`
      CREATE TABLE webhook_deliveries (
        id bigserial PRIMARY KEY,
        endpoint_id varchar(27) NOT NULL REFERENCES webhook_endpoints(id) ON DELETE CASCADE,
        event_id varchar(28) NOT NULL REFERENCES events(id),
        status varchar(16) NOT NULL DEFAULT 'pending'
          CHECK (status IN ('pending','delivered','failed')),
        attempts integer NOT NULL DEFAULT 0,
        next_attempt_at timestamptz NOT NULL DEFAULT now(),
        lease_owner varchar(64),
        lease_expires_at timestamptz,
        created_at timestamptz NOT NULL DEFAULT now(),
        finished_at timestamptz,
        UNIQUE (endpoint_id, event_id)
      )`);
    await q.query(
      `CREATE INDEX webhook_deliveries_due_idx ON webhook_deliveries (next_attempt_at)
         WHERE status = 'pending'`,
    );

    await q.query(`
      CREATE TABLE webhook_attempts (
        id bigserial PRIMARY KEY,
        delivery_id bigint NOT NULL REFERENCES webhook_deliveries(id) ON DELETE CASCADE,
        endpoint_id varchar(27) NOT NULL REFERENCES webhook_endpoints(id) ON DELETE CASCADE,
        event_id varchar(28) NOT NULL,
        attempt integer NOT NULL,
        http_status integer,
        error varchar(200),
        duration_ms integer NOT NULL,
        created_at timestamptz NOT NULL DEFAULT now()
      )`);
    await q.query(
      `CREATE INDEX webhook_attempts_endpoint_idx ON webhook_attempts (endpoint_id, id DESC)`,
    );
  }

  async down(q: QueryRunner): Promise<void> {
    for (const table of ['webhook_attempts', 'webhook_deliveries', 'webhook_endpoints', 'events']) {
      await q.query(`DROP TABLE ${table}`);
    }
  }
}
