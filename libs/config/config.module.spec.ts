import { Injectable, Module } from '@nestjs/common';
import { Test } from '@nestjs/testing';
import type { DatabaseConfig, MailConfig } from './app.config.js';
import { ConfigModule } from './config.module.js';
import { DATABASE_CONFIG, InjectConfig, MAIL_CONFIG } from './config.namespaces.js';

@Injectable()
class NeedsMail {
  constructor(@InjectConfig(MAIL_CONFIG) readonly mail: MailConfig) {}
}

@Injectable()
class NeedsDatabase {
  constructor(@InjectConfig(DATABASE_CONFIG) readonly database: DatabaseConfig) {}
}

/** A lib module as the apps import them: static, reading the global configuration. */
@Module({ providers: [NeedsMail], exports: [NeedsMail] })
class MailUserModule {}

const mail: MailConfig = { smtpUrl: null, from: 'Swap Partners <no-reply@localhost>' };

describe(ConfigModule.name, () => {
  it("gives every module the root's namespaces by token, and boots without those none injects", async () => {
    const moduleRef = await Test.createTestingModule({
      imports: [ConfigModule.forRoot({ mail }), MailUserModule],
    }).compile();

    expect(moduleRef.get(NeedsMail).mail).toBe(mail);
  });

  it('stops the boot naming a namespace a module needs and the process lacks', async () => {
    const boot = Test.createTestingModule({
      imports: [ConfigModule.forRoot({ mail })],
      providers: [NeedsDatabase],
    }).compile();

    await expect(boot).rejects.toThrow(
      "this process's configuration has no database namespace (DATABASE_CONFIG), which a module it imports needs",
    );
  });
});
