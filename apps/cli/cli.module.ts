import { DynamicModule, Module } from '@nestjs/common';
import { AccountsModule } from '#app/accounts';
import type { CliConfig } from '#app/config';
import { CoreModule } from '#app/core';
import { MailModule } from '#app/mail';
import { PartnersModule } from '#app/partners';
import { WidgetsModule } from '#app/widgets';

/** What the admin CLI needs: the database, the revocation fan-out and the partners services. */
@Module({})
export class CliModule {
  static forRoot(config: CliConfig): DynamicModule {
    return {
      module: CliModule,
      imports: [
        CoreModule.forRoot(config),
        PartnersModule,
        MailModule.config(config.mail),
        AccountsModule,
        WidgetsModule,
      ],
    };
  }
}
