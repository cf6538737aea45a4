import { Injectable, Logger } from '@nestjs/common';
import { InjectConfig, PROVIDERS_CONFIG, type ProvidersConfig } from '#app/config';
import type { ProviderStatus } from '#app/domain';
import { AppError, ErrorCode } from '#app/errors';

export interface SandboxDeposit {
  amount?: string;
  late?: boolean;
}

/**
 * The test provider's control API (the sandbox's `/sandbox/*`, on the origin of
 * `TEST_PROVIDER_URL`): it receives deposits and forces statuses of the sandbox's own
 * transactions. Partners never see it; the test helpers call it for them.
 */
@Injectable()
export class SandboxControlClient {
  private readonly logger = new Logger(SandboxControlClient.name);
  private readonly base: URL | null;
  private readonly timeoutMs: number;

  constructor(@InjectConfig(PROVIDERS_CONFIG) providers: ProvidersConfig) {
    // The sandbox serves both providers' test endpoints and one control API beside them.
    const test = providers.testProvider ?? providers.testChangenow;
    this.base = test ? new URL('/sandbox/', test.url) : null;
    this.timeoutMs = test?.timeoutMs ?? 0;
  }

  async deposit(transactionId: string, deposit: SandboxDeposit): Promise<void> {
    await this.post(`transactions/${encodeURIComponent(transactionId)}/deposit`, deposit);
  }

  async forceStatus(transactionId: string, status: ProviderStatus): Promise<void> {
    await this.post(`transactions/${encodeURIComponent(transactionId)}/status`, { status });
  }

  private async post(path: string, body: object): Promise<void> {
    if (!this.base) {
      throw new AppError(
        ErrorCode.UpstreamNotConfigured,
        'Test mode is not available on this server: it has no test provider (TEST_PROVIDER_URL).',
      );
    }
    let res: Response;
    try {
      res = await fetch(new URL(path, this.base), {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(body),
        signal: AbortSignal.timeout(this.timeoutMs),
      });
    } catch (error: unknown) {
      this.logger.warn({ err: (error as Error).message }, 'sandbox control call failed');
      throw new AppError(ErrorCode.UpstreamUnavailable, 'The test provider did not answer.');
    }
    if (res.ok) {
      await res.body?.cancel();
      return;
    }
    await res.body?.cancel();
    if (res.status === 404) {
      throw new AppError(ErrorCode.NotFound, 'The test provider no longer knows this swap.');
    }
    if (res.status === 400) {
      // The sandbox refuses what its lifecycle does not allow; its message names its own
      // transaction id, which partners never see.
      throw new AppError(
        ErrorCode.InvalidRequest,
        'The test provider refused this: the swap has moved on. Read the swap and try again.',
      );
    }
    this.logger.warn({ status: res.status }, 'sandbox control call refused');
    throw new AppError(ErrorCode.UpstreamBadResponse, 'The test provider refused the request.');
  }
}
