import { createPublicKey, KeyObject } from 'node:crypto';
import { Inject, Injectable, Logger, OnApplicationShutdown } from '@nestjs/common';
import type { SandboxConfig } from '#app/config';
import { RPC_METHODS, verifyProviderRequest, type RpcMethod } from '#app/provider';
import { CallStats } from './call.stats.js';
import { ExchangeService } from './exchange.service.js';
import { FaultBook, type Fault } from './fault.book.js';
import { idsRequested, listingOffset } from './params.reader.js';
import { INVALID_REQUEST, RpcFailure } from './rpc-failure.js';
import { SANDBOX_OPTIONS, type ResolvedSandboxOptions, SANDBOX_CONFIG } from './sandbox.options.js';

/** An HTTP answer of the JSON-RPC endpoint. */
export interface RpcReply {
  status: number;
  contentType: string;
  body: string;
}

type RpcId = string | number | null;

function json(status: number, payload: object): RpcReply {
  return { status, contentType: 'application/json', body: JSON.stringify(payload) };
}

function rpcError(id: RpcId, code: number, message: string, status = 200): RpcReply {
  return json(status, { jsonrpc: '2.0', id, error: { code, message } });
}

/**
 * The `/v2` endpoint: verifies the signature over the exact body bytes, counts the call,
 * applies an armed fault, then dispatches. Errors answer HTTP 200 with a JSON-RPC error, as upstream.
 */
@Injectable()
export class RpcService implements OnApplicationShutdown {
  private readonly logger = new Logger(RpcService.name);
  private readonly publicKey: KeyObject;
  readonly faults = new FaultBook();
  readonly stats = new CallStats();
  private readonly held = new Set<{ timer: NodeJS.Timeout; release: () => void }>();

  constructor(
    @Inject(SANDBOX_CONFIG) config: SandboxConfig,
    @Inject(SANDBOX_OPTIONS) private readonly options: ResolvedSandboxOptions,
    private readonly exchange: ExchangeService,
  ) {
    this.publicKey = createPublicKey(config.publicKeyPem);
  }

  async handle(
    body: Buffer,
    apiKey: string | undefined,
    signature: string | undefined,
  ): Promise<RpcReply> {
    if (!verifyProviderRequest(this.publicKey, body, apiKey, signature)) {
      this.stats.rejected('unauthorized');
      this.logger.warn('rejected a call with a bad key or signature');
      return rpcError(null, INVALID_REQUEST, 'Unauthorized', 401);
    }
    let request: unknown;
    try {
      request = JSON.parse(body.toString('utf8'));
    } catch {
      this.stats.rejected('malformed');
      return rpcError(null, -32700, 'Parse error');
    }
    const envelope =
      request !== null && typeof request === 'object' ? (request as Record<string, unknown>) : {};
    const id =
      typeof envelope.id === 'string' || typeof envelope.id === 'number' ? envelope.id : null;
    const method = envelope.method;
    if (envelope.jsonrpc !== '2.0' || typeof method !== 'string') {
      this.stats.rejected('malformed');
      return rpcError(id, INVALID_REQUEST, 'Invalid Request');
    }
    const params = envelope.params;
    this.stats.record(
      method,
      Date.now(),
      method === 'getTransactions'
        ? { idsCount: idsRequested(params), listingOffset: listingOffset(params) }
        : {},
    );
    const fault = this.faults.take(method);
    if (fault) {
      this.stats.fault();
      this.logger.log({ method, mode: fault.mode }, 'serving an armed fault');
      if (fault.mode !== 'timeout') {
        return this.faultReply(id, fault);
      }
    }
    const reply = this.dispatch(id, method, params);
    if (fault?.mode === 'timeout') {
      // The call took effect; only its answer is late, as with a real upstream timeout.
      await this.hold(fault.delayMs ?? this.options.timeoutFaultMs);
    }
    return reply;
  }

  onApplicationShutdown(): void {
    for (const entry of this.held) {
      clearTimeout(entry.timer);
      entry.release();
    }
    this.held.clear();
  }

  private dispatch(id: RpcId, method: string, params: unknown): RpcReply {
    if (!(RPC_METHODS as readonly string[]).includes(method)) {
      return rpcError(id, -32601, 'Method not found');
    }
    try {
      return json(200, { jsonrpc: '2.0', id, result: this.invoke(method as RpcMethod, params) });
    } catch (error: unknown) {
      if (error instanceof RpcFailure) {
        return rpcError(id, error.code, error.message);
      }
      this.logger.error(
        { method, err: error instanceof Error ? error.message : String(error) },
        'sandbox failure',
      );
      return rpcError(id, -32603, 'Internal error');
    }
  }

  private invoke(method: RpcMethod, params: unknown): unknown {
    switch (method) {
      case 'getCurrenciesFull':
        return this.exchange.getCurrenciesFull();
      case 'getPairsParams':
        return this.exchange.getPairsParams(params);
      case 'getExchangeAmount':
        return this.exchange.getExchangeAmount(params);
      case 'getFixRateForAmount':
        return this.exchange.getFixRateForAmount(params);
      case 'createTransaction':
        return this.exchange.createTransaction(params);
      case 'createFixTransaction':
        return this.exchange.createFixTransaction(params);
      case 'getTransactions':
        return this.exchange.getTransactions(params);
      case 'getStatus':
        return this.exchange.getStatus(params);
      case 'validateAddress':
        return this.exchange.validateAddress(params);
    }
  }

  private faultReply(id: RpcId, fault: Fault): RpcReply {
    switch (fault.mode) {
      case 'non_json':
        return {
          status: 200,
          contentType: 'text/html',
          body: '<html><body><h1>502 Bad Gateway</h1></body></html>',
        };
      case 'empty_result':
        return json(200, { jsonrpc: '2.0', id, result: [] });
      case 'rpc_error':
        return rpcError(id, fault.code ?? -32603, fault.message ?? 'Internal error');
      case 'rate_limit':
        return rpcError(id, INVALID_REQUEST, 'You reached requests limit');
      case 'http_500':
        return { status: 500, contentType: 'text/plain', body: 'Internal Server Error' };
      case 'timeout':
        return rpcError(id, -32603, 'Internal error');
    }
  }

  private hold(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const entry = {
        timer: setTimeout(() => {
          this.held.delete(entry);
          resolve();
        }, ms),
        release: resolve,
      };
      entry.timer.unref();
      this.held.add(entry);
    });
  }
}
