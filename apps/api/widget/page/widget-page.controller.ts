import { randomBytes } from 'node:crypto';
import { Controller, Get, Query, Res } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import type { Response } from 'express';
import { normalizeOrigin, widgetAccent, WidgetKeyAuthenticator, widgetTheme } from '#app/widgets';
import { asset, type Asset } from '../../platform/assets/asset.registry.js';
import { renderNotFoundPage, renderWidgetPage, type WidgetOptions } from './widget.page.js';

const TICKER = /^[A-Za-z0-9_-]{1,32}$/;
const AMOUNT = /^\d{1,20}(\.\d{1,18})?$/;
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
 * The hosted widget (`/widget?key=…`, framed by partner pages on the key's origins; its script
 * and stylesheet are `/assets/` files) and the loader partners embed: `/widget.js`, the current
 * one, and `/widget/v1.js`, version 1 frozen byte for byte since partners pin its hash.
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
      res.status(404).send(await renderNotFoundPage());
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
    res
      .status(200)
      .send(await renderWidgetPage({ key: caller.key, mode: caller.mode, options, nonce }));
  }

  @Get('widget.js')
  loader(@Res() res: Response): void {
    this.sendLoader(res, asset('loader.js'), FIVE_MINUTES);
  }

  @Get('widget/v1.js')
  loaderV1(@Res() res: Response): void {
    this.sendLoader(res, asset('loader-v1.js'), AN_HOUR);
  }

  /** Any page may load and pin the loader (Subresource Integrity needs CORS). */
  private sendLoader(res: Response, loader: Asset, cacheControl: string): void {
    res.setHeader('Access-Control-Allow-Origin', '*');
    res.setHeader('Cross-Origin-Resource-Policy', 'cross-origin');
    res.setHeader('Content-Type', loader.contentType);
    res.setHeader('Cache-Control', cacheControl);
    res.status(200).send(loader.body);
  }
}
