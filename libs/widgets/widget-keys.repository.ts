import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import type { OrganizationStatus } from '#app/domain';
import { EntityColumns, PreparedReads, queryRows, WidgetKeyEntity } from '#app/persistence';

/** A widget key as stored. */
export type WidgetKeyRecord = WidgetKeyEntity;

/** An unrevoked key with the organization state the widget API authorizes with. */
export interface WidgetKeyForAuthentication {
  id: string;
  key: string;
  organizationId: string;
  mode: string;
  allowedOrigins: string[];
  organizationStatus: OrganizationStatus;
  feePercent: string;
  providerActivated: boolean;
}

const AUTHENTICATION_SQL = `SELECT w.id, w.key, w.organization_id AS "organizationId", w.mode,
       w.allowed_origins AS "allowedOrigins", o.status AS "organizationStatus",
       o.fee_percent AS "feePercent", o.provider_activated AS "providerActivated"
  FROM widget_keys w JOIN organizations o ON o.id = w.organization_id
 WHERE w.key = $1 AND w.revoked_at IS NULL`;

/** Widget keys and the swaps made through them, the only writer of `widget_keys` and `widget_swaps`. */
@Injectable()
export class WidgetKeysRepository {
  private readonly columns: EntityColumns<WidgetKeyEntity>;
  private readonly prepared: PreparedReads;

  constructor(@InjectDataSource() private readonly dataSource: DataSource) {
    this.columns = new EntityColumns(dataSource, WidgetKeyEntity);
    this.prepared = new PreparedReads(dataSource);
  }

  create(
    input: Pick<WidgetKeyRecord, 'key' | 'organizationId' | 'mode' | 'name' | 'allowedOrigins'>,
  ): Promise<WidgetKeyRecord> {
    return this.columns.insert(this.dataSource, input);
  }

  listForOrganization(organizationId: string): Promise<WidgetKeyRecord[]> {
    return this.columns.read(
      this.dataSource,
      `SELECT ${this.columns.list} FROM widget_keys WHERE organization_id = $1
        ORDER BY created_at, id`,
      [organizationId],
    );
  }

  findByKey(key: string): Promise<WidgetKeyRecord | null> {
    return this.columns.readOne(
      this.dataSource,
      `SELECT ${this.columns.list} FROM widget_keys WHERE key = $1`,
      [key],
    );
  }

  async findActiveForAuthentication(key: string): Promise<WidgetKeyForAuthentication | null> {
    const rows = await this.prepared.rows<WidgetKeyForAuthentication>(
      'widget-key-for-authentication',
      AUTHENTICATION_SQL,
      [key],
    );
    return rows[0] ?? null;
  }

  /** Whether some unrevoked key lists `origin` (CORS preflights carry no key). */
  async isOriginListed(origin: string): Promise<boolean> {
    const rows = await this.prepared.rows<{ listed: boolean }>(
      'widget-origin-listed',
      `SELECT EXISTS (SELECT 1 FROM widget_keys
          WHERE revoked_at IS NULL AND allowed_origins @> ARRAY[$1::text]) AS listed`,
      [origin],
    );
    return rows[0]?.listed === true;
  }

  /** False when the key is unknown or already revoked. */
  async revoke(key: string): Promise<boolean> {
    const rows: unknown[] = await queryRows(
      this.dataSource,
      `UPDATE widget_keys SET revoked_at = now() WHERE key = $1 AND revoked_at IS NULL RETURNING id`,
      [key],
    );
    return rows.length > 0;
  }

  /** Links a swap to the key that made it; a replay links the same swap to the same hash again. */
  async linkSwap(swapId: string, widgetKeyId: string, statusTokenHash: string): Promise<void> {
    await queryRows(
      this.dataSource,
      `INSERT INTO widget_swaps (swap_id, widget_key_id, status_token_hash) VALUES ($1, $2, $3)
       ON CONFLICT (swap_id) DO NOTHING`,
      [swapId, widgetKeyId, statusTokenHash],
    );
  }

  /** The stored token hash of a widget swap of this organization and mode, or null. */
  async statusTokenHash(
    swapId: string,
    owner: { organizationId: string; livemode: boolean },
  ): Promise<string | null> {
    const rows = await this.prepared.rows<{ hash: string }>(
      'widget-swap-token',
      `SELECT ws.status_token_hash AS hash
         FROM widget_swaps ws JOIN swaps s ON s.id = ws.swap_id
        WHERE ws.swap_id = $1 AND s.organization_id = $2 AND s.livemode = $3`,
      [swapId, owner.organizationId, owner.livemode],
    );
    return rows[0]?.hash ?? null;
  }
}
