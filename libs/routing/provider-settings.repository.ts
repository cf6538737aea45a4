import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import type { ProviderName } from '#app/domain';
import { queryRows } from '#app/persistence';

/** The providers operators took out of routing. The only writer of `provider_settings`. */
@Injectable()
export class ProviderSettingsRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  async disabled(): Promise<ProviderName[]> {
    const rows = await queryRows<{ provider: ProviderName }>(
      this.dataSource,
      `SELECT provider FROM provider_settings WHERE NOT enabled`,
    );
    return rows.map((row) => row.provider);
  }

  /**
   * Sets a provider in or out of routing, unless that would leave none of `configured` in it:
   * answers false then, and changes nothing. Serialized, so two operators disabling the last two
   * providers at once cannot both succeed.
   */
  async setEnabled(
    provider: ProviderName,
    enabled: boolean,
    configured: readonly ProviderName[],
  ): Promise<boolean> {
    return this.dataSource.transaction(async (manager) => {
      await manager.query(`SELECT pg_advisory_xact_lock(hashtext('provider_settings'))`);
      if (!enabled) {
        const off = await queryRows<{ provider: ProviderName }>(
          manager,
          `SELECT provider FROM provider_settings WHERE NOT enabled`,
        );
        const stillOn = configured.filter(
          (name) => name !== provider && !off.some((row) => row.provider === name),
        );
        if (stillOn.length === 0) {
          return false;
        }
      }
      await manager.query(
        `INSERT INTO provider_settings (provider, enabled, updated_at) VALUES ($1, $2, now())
           ON CONFLICT (provider) DO UPDATE SET enabled = $2, updated_at = now()`,
        [provider, enabled],
      );
      return true;
    });
  }
}
