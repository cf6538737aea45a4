import { Controller, Get, Header, Injectable, UseGuards } from '@nestjs/common';
import { ApiExcludeController, type OpenAPIObject } from '@nestjs/swagger';
import { AppError, ErrorCode } from '#app/errors';
import { AdminApi } from '../auth/admin-api.decorator.js';
import { RateLimitGuard } from '../rate-limiting/rate-limit.guard.js';
import { RateLimits } from '../rate-limiting/rate-limits.decorator.js';
import { DOCS_ASSETS, DOCS_CSP, renderDocsPage } from './docs.page.js';
import type { OpenApiDocuments } from './openapi.document.js';

interface Served extends OpenApiDocuments {
  page: string;
}

/** The documents are generated from the running app, so they are set once the app exists. */
@Injectable()
export class OpenApiDocumentHolder {
  private served: Served | null = null;

  set(documents: OpenApiDocuments): void {
    this.served = { ...documents, page: renderDocsPage(documents.partner) };
  }

  get(): Served {
    if (!this.served) {
      throw new AppError(ErrorCode.ServiceUnavailable, 'The API description is not ready yet.');
    }
    return this.served;
  }
}

/** The same for every caller and fixed for a release: shared caches may keep it a few minutes. */
const PUBLIC_FOR_FIVE_MINUTES = 'public, max-age=300';

/**
 * Serves the partner API description (unauthenticated) and its reference page, `/docs`. Every
 * route is metered per IP: the page's script bundle is 1.6 MB, too big to serve unmetered.
 */
@ApiExcludeController()
@Controller()
export class OpenApiController {
  constructor(private readonly holder: OpenApiDocumentHolder) {}

  @Get('v1/openapi.json')
  @Header('Cache-Control', PUBLIC_FOR_FIVE_MINUTES)
  @RateLimits('ip')
  @UseGuards(RateLimitGuard)
  json(): OpenAPIObject {
    return this.holder.get().partner;
  }

  @Get('widget-api/v1/openapi.json')
  @Header('Cache-Control', PUBLIC_FOR_FIVE_MINUTES)
  @RateLimits('ip')
  @UseGuards(RateLimitGuard)
  widgetJson(): OpenAPIObject {
    return this.holder.get().widget;
  }

  @Get('docs')
  @RateLimits('ip')
  @UseGuards(RateLimitGuard)
  @Header('Content-Type', 'text/html; charset=utf-8')
  @Header('Cache-Control', PUBLIC_FOR_FIVE_MINUTES)
  @Header('Content-Security-Policy', DOCS_CSP)
  docs(): string {
    return this.holder.get().page;
  }

  @Get('docs/assets/swagger-ui.css')
  @RateLimits('ip')
  @UseGuards(RateLimitGuard)
  @Header('Content-Type', 'text/css; charset=utf-8')
  @Header('Cache-Control', PUBLIC_FOR_FIVE_MINUTES)
  css(): string {
    return DOCS_ASSETS['swagger-ui.css']();
  }

  @Get('docs/assets/swagger-ui-bundle.js')
  @RateLimits('ip')
  @UseGuards(RateLimitGuard)
  @Header('Content-Type', 'text/javascript; charset=utf-8')
  @Header('Cache-Control', PUBLIC_FOR_FIVE_MINUTES)
  bundle(): string {
    return DOCS_ASSETS['swagger-ui-bundle.js']();
  }

  @Get('docs/assets/docs.js')
  @RateLimits('ip')
  @UseGuards(RateLimitGuard)
  @Header('Content-Type', 'text/javascript; charset=utf-8')
  @Header('Cache-Control', PUBLIC_FOR_FIVE_MINUTES)
  init(): string {
    return DOCS_ASSETS['docs.js']();
  }
}

/** The operator endpoints' description, behind the admin token like the endpoints themselves. */
@ApiExcludeController()
@AdminApi()
@Controller('admin')
export class AdminOpenApiController {
  constructor(private readonly holder: OpenApiDocumentHolder) {}

  @Get('openapi.json')
  json(): OpenAPIObject {
    return this.holder.get().admin;
  }
}
