import { randomBytes } from 'node:crypto';
import { Controller, Get, Param, Query, Res } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import type { Response } from 'express';
import { AppError, ErrorCode } from '#app/errors';
import { normalizeOrigin, widgetAccent, WidgetKeyAuthenticator, widgetTheme } from '#app/widgets';
import { WIDGET_ASSETS, type WidgetAsset } from '../../platform/assets/widget.assets.js';
import { renderNotFoundPage, renderWidgetPage, type WidgetOptions } from './widget.page.js';

const TICKER = /^[A-Za-z0-9_-]{1,32}$/;
const AMOUNT = /^\d{1,20}(\.\d{1,18})?$/;
const A_YEAR = 'public, max-age=31536000, immutable';
const AN_HOUR = 'public, max-age=3600';
const FIVE_MINUTES = 'public, max-age=300';

function one(value: unknown): string | null {
  return typeof value === 'string' ? value : null;
}

function matching(value: unknown, pattern: RegExp): string | null {
  const text = one(value);
  return text !== null && pattern.test(text) ? text : null;
}

function csp(frameAncestors: string, nonce: string | null): string {
  return [
    "default-src 'none'",
    "script-src 'self'",
    `style-src 'self'${nonce ? ` 'nonce-${nonce}'` : ''}`,
    "img-src 'self' blob:",
    "connect-src 'self'",
    "base-uri 'none'",
    "form-action 'none'",
    `frame-ancestors ${frameAncestors}`,
  ].join('; ');
}

/**
 * The hosted widget (`/widget?key=…`, framed by partner pages on the key's origins), its
 * hashed assets, and the loader partners embed (`/widget.js`, pinned copies `/widget/v1.js`).
 */
@ApiExcludeController()
@Controller()
export class WidgetPageController {
  constructor(private readonly authenticator: WidgetKeyAuthenticator) {}

  @Get('widget')
  async page(@Query() query: Record<string, unknown>, @Res() res: Response): Promise<void> {
    const key = one(query.key);
    const caller = key === null ? null : await this.authenticator.findUsable(key);
    res.removeHeader('X-Frame-Options');
    res.setHeader('Content-Type', 'text/html; charset=utf-8');
    if (!caller) {
      // Anyone may frame the refusal, so a partner sees why instead of a blocked frame.
      res.setHeader('Content-Security-Policy', csp('*', null));
      res.status(404).send(renderNotFoundPage());
      return;
    }
    const parent = normalizeOrigin(query.origin);
    const options: WidgetOptions = {
      from: matching(query.from, TICKER)?.toLowerCase() ?? null,
      to: matching(query.to, TICKER)?.toLowerCase() ?? null,
      amount: matching(query.amount, AMOUNT),
      theme: widgetTheme(query.theme),
      accent: widgetAccent(query.accent),
      parentOrigin: parent !== null && caller.allowedOrigins.includes(parent) ? parent : null,
    };
    const nonce = randomBytes(16).toString('base64');
    // The key's origins, and the service's own for the dashboard's live preview
    // (docs/decisions.md, "Dashboard: the Widget page").
    res.setHeader(
      'Content-Security-Policy',
      csp(`${caller.allowedOrigins.join(' ')} 'self'`, nonce),
    );
    res.setHeader('Referrer-Policy', 'no-referrer');
    res.status(200).send(renderWidgetPage({ key: caller.key, mode: caller.mode, options, nonce }));
  }

  @Get('widget.js')
  loader(@Res() res: Response): void {
    this.sendLoader(res, FIVE_MINUTES);
  }

  @Get('widget/v1.js')
  loaderV1(@Res() res: Response): void {
    this.sendLoader(res, AN_HOUR);
  }

  @Get('widget/assets/:name')
  assetFile(@Param('name') name: string, @Res() res: Response): void {
    const asset = [WIDGET_ASSETS.script, WIDGET_ASSETS.styles].find((a) => a.name === name);
    if (!asset) {
      throw new AppError(ErrorCode.NotFound, 'No such asset.');
    }
    this.send(res, asset, A_YEAR);
  }

  /** Any page may load and pin the loader (Subresource Integrity needs CORS). */
  private sendLoader(res: Response, cacheControl: string): void {
    res.setHeader('Access-Control-Allow-Origin', '*');
    res.setHeader('Cross-Origin-Resource-Policy', 'cross-origin');
    this.send(res, WIDGET_ASSETS.loader, cacheControl);
  }

  private send(res: Response, asset: WidgetAsset, cacheControl: string): void {
    res.setHeader(
      'Content-Type',
      asset.name.endsWith('.css') ? 'text/css; charset=utf-8' : 'text/javascript; charset=utf-8',
    );
    res.setHeader('Cache-Control', cacheControl);
    res.status(200).send(asset.body);
  }
}
