import { DynamicModule, Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { AuditLogEntryEntity, CredentialEntity, OrganizationEntity } from '#app/persistence';
import { AuditLogRepository } from './audit-log.repository.js';
import { CredentialAuthenticator } from './credential.authenticator.js';
import { CredentialCipher } from './credential.cipher.js';
import { CredentialSecretsResealer } from './credential-secrets.resealer.js';
import { CredentialsRepository } from './credentials.repository.js';
import { CredentialsService } from './credentials.service.js';
import { OrganizationsRepository } from './organizations.repository.js';
import { OrganizationsService } from './organizations.service.js';

/** Organizations, credentials and their audit trail. */
@Module({})
export class PartnersModule {
  static forRoot(credentialEncryptionKey: Buffer): DynamicModule {
    return {
      module: PartnersModule,
      global: true,
      imports: [
        TypeOrmModule.forFeature([OrganizationEntity, CredentialEntity, AuditLogEntryEntity]),
      ],
      providers: [
        { provide: CredentialCipher, useValue: new CredentialCipher(credentialEncryptionKey) },
        OrganizationsRepository,
        CredentialsRepository,
        AuditLogRepository,
        CredentialAuthenticator,
        OrganizationsService,
        CredentialsService,
        CredentialSecretsResealer,
      ],
      exports: [
        CredentialsService,
        CredentialCipher,
        CredentialAuthenticator,
        OrganizationsService,
        OrganizationsRepository,
        AuditLogRepository,
      ],
    };
  }
}
