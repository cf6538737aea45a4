import { DynamicModule, Module } from '@nestjs/common';
import { AccountsModule } from '#app/accounts';
import type { CliConfig } from '#app/config';
import { MailModule } from '#app/mail';
import { PartnersModule } from '#app/partners';
import { PersistenceModule } from '#app/persistence';
import { RedisModule } from '#app/redis';
import { WidgetsModule } from '#app/widgets';

/** What the admin CLI needs: the database, the revocation fan-out and the partners services. */
@Module({})
export class CliModule {
  static forRoot(config: CliConfig): DynamicModule {
    return {
      module: CliModule,
      imports: [
        PersistenceModule.forRoot(config.database),
        RedisModule.forRoot(config.redis),
        PartnersModule.forRoot(config.credentialEncryptionKey),
        MailModule.config(config.mail),
        AccountsModule,
        WidgetsModule,
      ],
    };
  }
}
