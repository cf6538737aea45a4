import { Injectable, Logger, type OnApplicationBootstrap } from '@nestjs/common';
import { CredentialCipher } from './credential.cipher.js';
import { CredentialsRepository } from './credentials.repository.js';

/**
 * At start, re-seals credential secrets still sealed the former way (one key for every purpose,
 * no row bound) with the credential key and their row. Migrations run without the encryption
 * key, so this runs in every process that holds it, right after them; it finds nothing to do
 * once done.
 */
@Injectable()
export class CredentialSecretsResealer implements OnApplicationBootstrap {
  private readonly logger = new Logger(CredentialSecretsResealer.name);

  constructor(
    private readonly credentials: CredentialsRepository,
    private readonly cipher: CredentialCipher,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    const { resealed, unreadable } = await this.credentials.resealFormer(this.cipher);
    if (resealed > 0) {
      this.logger.log({ resealed }, 'credential secrets re-sealed for their rows');
    }
    if (unreadable > 0) {
      this.logger.warn(
        { unreadable },
        'credential secrets that do not open with this key were left as they are',
      );
    }
  }
}
