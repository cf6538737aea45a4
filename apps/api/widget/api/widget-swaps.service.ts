import { Injectable } from '@nestjs/common';
import QRCode from 'qrcode';
import { AppError, ErrorCode } from '#app/errors';
import {
  isSwapId,
  SwapCreationService,
  SwapQueryService,
  type CreatedSwap,
  type CreateSwapInput,
  type RefundedSwapView,
  type SwapView,
} from '#app/swaps';
import { StatusTokens, WidgetKeysRepository, type WidgetCaller } from '#app/widgets';
import { TestHelpersService } from '#app/test-mode';

export interface CreatedWidgetSwap extends CreatedSwap<SwapView> {
  statusToken: string;
}

function notFound(): AppError {
  return new AppError(ErrorCode.NotFound, 'Swap not found.');
}

/**
 * Swaps made through the widget: created by the same service and rules as `POST /v1/swaps`, as
 * the widget key's organization and mode (so they show in its partner API, feed and earnings),
 * and readable only with the swap's status token. Reads and the test deposit go through the
 * partner API's own services.
 */
@Injectable()
export class WidgetSwapsService {
  constructor(
    private readonly creation: SwapCreationService,
    private readonly queries: SwapQueryService,
    private readonly helpers: TestHelpersService,
    private readonly keys: WidgetKeysRepository,
    private readonly tokens: StatusTokens,
  ) {}

  async create(
    caller: WidgetCaller,
    idempotencyKey: string | string[] | undefined,
    input: CreateSwapInput,
  ): Promise<CreatedWidgetSwap> {
    const created = await this.creation.create(caller.partner, idempotencyKey, input);
    const statusToken = this.tokens.tokenFor(created.swap.id);
    // A replay links again what its first answer linked (or what a crash left unlinked).
    await this.keys.linkSwap(created.swap.id, caller.widgetKeyId, StatusTokens.hash(statusToken));
    return { ...created, statusToken };
  }

  /** With the refund's hash, for the widget's "Refunded" screen. */
  async get(caller: WidgetCaller, id: string, token: unknown): Promise<RefundedSwapView> {
    await this.assertToken(caller, id, token);
    return this.queries.getWithRefundHash(id, caller.partner);
  }

  /** The deposit address as a QR code (SVG), for the hosted widget. */
  async depositQrCode(caller: WidgetCaller, id: string, token: unknown): Promise<string> {
    const swap = await this.get(caller, id, token);
    return QRCode.toString(swap.payinAddress, {
      type: 'svg',
      margin: 1,
      errorCorrectionLevel: 'M',
    });
  }

  async deposit(
    caller: WidgetCaller,
    id: string,
    token: unknown,
    input: { amount?: string; late?: boolean },
  ): Promise<SwapView> {
    await this.assertToken(caller, id, token);
    return this.helpers.deposit(caller.partner, id, input);
  }

  /** Another organization's swap, another mode's, a partner API swap or a wrong token: 404 alike. */
  private async assertToken(caller: WidgetCaller, id: string, token: unknown): Promise<void> {
    if (!isSwapId(id)) {
      throw notFound();
    }
    const hash = await this.keys.statusTokenHash(id, caller.partner);
    if (!StatusTokens.matches(token, hash)) {
      throw notFound();
    }
  }
}
