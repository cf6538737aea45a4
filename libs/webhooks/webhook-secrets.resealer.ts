import { Injectable, Logger, type OnApplicationBootstrap } from '@nestjs/common';
import { CredentialCipher } from '#app/partners';
import { WebhookEndpointsRepository } from './webhook-endpoints.repository.js';

/**
 * At start, re-seals webhook signing secrets still sealed the former way with the webhook key
 * and their endpoint (see `CredentialSecretsResealer` for why at start and not in a migration).
 */
@Injectable()
export class WebhookSecretsResealer implements OnApplicationBootstrap {
  private readonly logger = new Logger(WebhookSecretsResealer.name);

  constructor(
    private readonly endpoints: WebhookEndpointsRepository,
    private readonly cipher: CredentialCipher,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    const { resealed, unreadable } = await this.endpoints.resealFormer(this.cipher);
    if (resealed > 0) {
      this.logger.log({ resealed }, 'webhook secrets re-sealed for their endpoints');
    }
    if (unreadable > 0) {
      this.logger.warn(
        { unreadable },
        'webhook secrets that do not open with this key were left as they are',
      );
    }
  }
}
