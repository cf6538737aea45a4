import { pino } from 'pino';
import type { ProviderName, ProviderStatus } from '#app/domain';
import type { ChangeNowConfig, ProviderConfig, SandboxConfig } from '#app/config';
import {
  startSandbox,
  type SandboxServer,
  type StartSandboxOptions,
} from '../../apps/sandbox/sandbox.bootstrap.js';
import type { SandboxStats } from '../../apps/sandbox/call.stats.js';
import type { Fault, FaultMode } from '../../apps/sandbox/fault.book.js';
import type { SandboxTransactionView } from '../../apps/sandbox/wire.mapper.js';
import { SandboxState } from '../../apps/sandbox/sandbox.state.js';
import { providerKeyPair } from './keys.js';

export type { SandboxServer, SandboxStats, SandboxTransactionView, Fault, FaultMode };

export interface TestSandbox extends SandboxServer {
  control: SandboxControl;
}

/**
 * A sandbox provider over real HTTP on an ephemeral port, verifying with the test key pair;
 * lifecycle steps are short (200 ms) unless overridden.
 */
export async function startTestSandbox(
  overrides: Partial<SandboxConfig> = {},
  options: StartSandboxOptions = {},
): Promise<TestSandbox> {
  const config: SandboxConfig = {
    appEnv: 'test',
    version: '0.0.0-test',
    logLevel: 'silent',
    port: 0,
    publicKeyPem: providerKeyPair().publicKeyPem,
    changenowApiKey: TEST_CHANGENOW_API_KEY,
    stepMs: 200,
    seed: 42,
    ...overrides,
  };
  const server = await startSandbox(
    config,
    pino({ level: process.env.LOG_LEVEL ?? 'silent' }),
    options,
  );
  return { ...server, control: new SandboxControl(server.baseUrl) };
}

/** The key a test sandbox's ChangeNOW-style API accepts. */
export const TEST_CHANGENOW_API_KEY = 'test-changenow-api-key-0123456789abcdef';

/** What the ChangeNOW adapter needs to talk to a test sandbox: its base URL and key. */
export function testChangeNowConfig(baseUrl: string, timeoutMs = 1500): ChangeNowConfig {
  return { url: `${baseUrl}/changenow`, apiKey: TEST_CHANGENOW_API_KEY, timeoutMs };
}

/** Both providers of one test sandbox, in the order that breaks ties. */
export function bothProviders(sandbox: SandboxServer): Record<string, string> {
  return {
    PROVIDERS: 'changelly,changenow',
    PROVIDER_URL: sandbox.url,
    TEST_PROVIDER_URL: sandbox.url,
    CHANGENOW_URL: sandbox.changenowUrl,
    CHANGENOW_API_KEY: TEST_CHANGENOW_API_KEY,
    CHANGENOW_TIMEOUT_MS: '1500',
  };
}

/** Every transaction the sandbox holds for `provider`, newest first. */
export function sandboxTransactions(sandbox: SandboxServer, provider: ProviderName) {
  return sandbox.app
    .get(SandboxState)
    .transactions.matching(
      { provider, ids: null, payoutAddress: null, statuses: null, sinceMs: null, untilMs: null },
      Date.now(),
    );
}

/**
 * What the adapter needs to talk to a test sandbox: the matching key and a timeout long enough
 * for a loaded machine (a test of the timeout itself passes its own, shorter one).
 */
export function testProviderConfig(url: string, timeoutMs = 5000): ProviderConfig {
  return { url, privateKey: providerKeyPair().privateKey, timeoutMs };
}

export interface FaultRequest {
  /** [changelly] */
  provider?: ProviderName;
  method: string;
  mode: FaultMode;
  count?: number;
  /** A JSON-RPC code for Changelly, an error word for ChangeNOW. */
  code?: number | string;
  message?: string;
  delayMs?: number;
}

/** A small client of the `/sandbox` control API; a non-2xx answer throws with the body. */
export class SandboxControl {
  constructor(private readonly baseUrl: string) {}

  async deposit(
    id: string,
    body: { amount?: string; late?: boolean } = {},
  ): Promise<SandboxTransactionView> {
    return (
      await this.send<{ transaction: SandboxTransactionView }>(
        'POST',
        `/sandbox/transactions/${id}/deposit`,
        body,
      )
    ).transaction;
  }

  async forceStatus(id: string, status: ProviderStatus): Promise<SandboxTransactionView> {
    return (
      await this.send<{ transaction: SandboxTransactionView }>(
        'POST',
        `/sandbox/transactions/${id}/status`,
        { status },
      )
    ).transaction;
  }

  async transaction(id: string): Promise<SandboxTransactionView> {
    return (
      await this.send<{ transaction: SandboxTransactionView }>('GET', `/sandbox/transactions/${id}`)
    ).transaction;
  }

  async setFault(fault: FaultRequest): Promise<Fault[]> {
    return (await this.send<{ faults: Fault[] }>('POST', '/sandbox/faults', fault)).faults;
  }

  async clearFaults(): Promise<void> {
    await this.send('DELETE', '/sandbox/faults');
  }

  /** Sets `provider`'s spread on `from` → `to` (sandbox tickers), in basis points. */
  async setSpread(provider: ProviderName, from: string, to: string, bps: number): Promise<void> {
    await this.send('POST', '/sandbox/spreads', { provider, from, to, bps });
  }

  async spreads(from: string, to: string): Promise<Record<ProviderName, number>> {
    const query = new URLSearchParams({ from, to });
    return (
      await this.send<{ spreads: Record<ProviderName, number> }>(
        'GET',
        `/sandbox/spreads?${query.toString()}`,
      )
    ).spreads;
  }

  /** Back to the seeded spreads. */
  async restoreSpreads(): Promise<void> {
    await this.send('DELETE', '/sandbox/spreads');
  }

  async reset(): Promise<void> {
    await this.send('POST', '/sandbox/reset');
  }

  async stats(): Promise<SandboxStats> {
    return (await this.send<{ stats: SandboxStats }>('GET', '/sandbox/stats')).stats;
  }

  private async send<T>(method: string, path: string, body?: object): Promise<T> {
    const response = await fetch(`${this.baseUrl}${path}`, {
      method,
      headers: body === undefined ? {} : { 'Content-Type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await response.text();
    if (!response.ok) {
      throw new Error(`sandbox ${method} ${path} answered ${response.status}: ${text}`);
    }
    return JSON.parse(text) as T;
  }
}
