import { DynamicModule, Module } from '@nestjs/common';
import { AccountsModule } from '#app/accounts';
import type { CliConfig } from '#app/config';
import { CoreModule } from '#app/core';
import { PartnersModule } from '#app/partners';
import { ProviderControlModule } from '#app/provider-control';
import { SwapsDataModule } from '#app/swaps';
import { WidgetsModule } from '#app/widgets';

/**
 * What the admin CLI needs: the database, the revocation fan-out, the partners services, the
 * providers' switches and health, and swap reads.
 */
@Module({})
export class CliModule {
  static forRoot(config: CliConfig): DynamicModule {
    return {
      module: CliModule,
      imports: [
        CoreModule.forRoot({
          database: config.database,
          redis: config.redis,
          credentials: { encryptionKey: config.credentialEncryptionKey },
          routing: { providers: config.providers },
        }),
        PartnersModule,
        AccountsModule,
        WidgetsModule,
        ProviderControlModule,
        SwapsDataModule,
      ],
    };
  }
}
