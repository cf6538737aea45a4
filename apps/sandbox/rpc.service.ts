import { createPublicKey, KeyObject } from 'node:crypto';
import { Inject, Injectable, Logger, OnApplicationShutdown } from '@nestjs/common';
import type { SandboxConfig } from '#app/config';
import { RPC_METHODS, verifyProviderRequest, type RpcMethod } from '#app/provider';
import { CallStats } from './call.stats.js';
import { ExchangeService } from './exchange.service.js';
import { FaultBook, type Fault } from './fault.book.js';
import {
  HeldAnswers,
  HTTP_500_REPLY,
  jsonReply,
  NON_JSON_REPLY,
  type HttpReply,
} from './http-reply.js';
import { idsRequested, listingOffset } from './params.reader.js';
import { INVALID_REQUEST, RpcFailure } from './rpc-failure.js';
import { SANDBOX_OPTIONS, type ResolvedSandboxOptions, SANDBOX_CONFIG } from './sandbox.options.js';

type RpcId = string | number | null;

function rpcError(id: RpcId, code: number, message: string, status = 200): HttpReply {
  return jsonReply(status, { jsonrpc: '2.0', id, error: { code, message } });
}

/**
 * The `/v2` endpoint: verifies the signature over the exact body bytes, counts the call,
 * applies an armed fault, then dispatches. Errors answer HTTP 200 with a JSON-RPC error, as upstream.
 */
@Injectable()
export class RpcService implements OnApplicationShutdown {
  private readonly logger = new Logger(RpcService.name);
  private readonly publicKey: KeyObject;
  readonly faults = new FaultBook('changelly');
  readonly stats = new CallStats();
  private readonly held = new HeldAnswers();

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
  ): Promise<HttpReply> {
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
      await this.held.hold(fault.delayMs ?? this.options.timeoutFaultMs);
    }
    return reply;
  }

  onApplicationShutdown(): void {
    this.held.releaseAll();
  }

  private dispatch(id: RpcId, method: string, params: unknown): HttpReply {
    if (!(RPC_METHODS as readonly string[]).includes(method)) {
      return rpcError(id, -32601, 'Method not found');
    }
    try {
      return jsonReply(200, {
        jsonrpc: '2.0',
        id,
        result: this.invoke(method as RpcMethod, params),
      });
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

  private faultReply(id: RpcId, fault: Fault): HttpReply {
    switch (fault.mode) {
      case 'non_json':
        return NON_JSON_REPLY;
      case 'empty_result':
        return jsonReply(200, { jsonrpc: '2.0', id, result: [] });
      case 'rpc_error':
        return rpcError(
          id,
          typeof fault.code === 'number' ? fault.code : -32603,
          fault.message ?? 'Internal error',
        );
      case 'rate_limit':
        return rpcError(id, INVALID_REQUEST, 'You reached requests limit');
      case 'http_500':
        return HTTP_500_REPLY;
      case 'timeout':
        return rpcError(id, -32603, 'Internal error');
    }
  }
}
