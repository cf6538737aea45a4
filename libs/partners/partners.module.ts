import { Module } from '@nestjs/common';
import { CREDENTIALS_CONFIG, type CredentialsConfig } from '#app/config';
import { RedisModule } from '#app/redis';
import { AuditLogRepository } from './audit-log.repository.js';
import { CredentialAuthenticator } from './credential.authenticator.js';
import { CredentialCipher } from './credential.cipher.js';
import { CredentialSecretsResealer } from './credential-secrets.resealer.js';
import { CredentialsRepository } from './credentials.repository.js';
import { CredentialsService } from './credentials.service.js';
import { OrganizationsRepository } from './organizations.repository.js';
import { OrganizationsService } from './organizations.service.js';
import { OnboardingService } from './onboarding.service.js';

/**
 * Organizations, credentials and their audit trail. One instance per process whoever imports it,
 * so revocations go through the same authenticator (and its cache) that serves partner requests.
 */
@Module({
  imports: [RedisModule],
  providers: [
    {
      provide: CredentialCipher,
      useFactory: (credentials: CredentialsConfig) =>
        new CredentialCipher(credentials.encryptionKey),
      inject: [CREDENTIALS_CONFIG],
    },
    OrganizationsRepository,
    CredentialsRepository,
    AuditLogRepository,
    CredentialAuthenticator,
    OrganizationsService,
    CredentialsService,
    CredentialSecretsResealer,
    OnboardingService,
  ],
  exports: [
    CredentialsService,
    CredentialCipher,
    CredentialAuthenticator,
    OrganizationsService,
    OrganizationsRepository,
    AuditLogRepository,
    OnboardingService,
  ],
})
export class PartnersModule {}
