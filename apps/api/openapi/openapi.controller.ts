import { Controller, Get, Header, Injectable, UseGuards } from '@nestjs/common';
import { ApiExcludeController, type OpenAPIObject } from '@nestjs/swagger';
import { AppError, ErrorCode } from '#app/errors';
import { RateLimitGuard } from '../rate-limiting/rate-limit.guard.js';
import { RateLimits } from '../rate-limiting/rate-limits.decorator.js';
import { renderDocsPage } from './docs.page.js';

/** The document is generated from the running app, so it is set once the app exists. */
@Injectable()
export class OpenApiDocumentHolder {
  private document: OpenAPIObject | null = null;
  private page: string | null = null;

  set(document: OpenAPIObject): void {
    this.document = document;
    this.page = renderDocsPage(document);
  }

  get(): { document: OpenAPIObject; page: string } {
    if (!this.document || !this.page) {
      throw new AppError(ErrorCode.ServiceUnavailable, 'The API description is not ready yet.');
    }
    return { document: this.document, page: this.page };
  }
}

/** The same for every caller and fixed for a release: shared caches may keep it a few minutes. */
const PUBLIC_FOR_FIVE_MINUTES = 'public, max-age=300';

/** Serves the API description (unauthenticated) and its human-readable page. */
@ApiExcludeController()
@Controller()
export class OpenApiController {
  constructor(private readonly holder: OpenApiDocumentHolder) {}

  @Get('v1/openapi.json')
  @Header('Cache-Control', PUBLIC_FOR_FIVE_MINUTES)
  @RateLimits('ip')
  @UseGuards(RateLimitGuard)
  json(): OpenAPIObject {
    return this.holder.get().document;
  }

  @Get('docs')
  @Header('Content-Type', 'text/html; charset=utf-8')
  @Header('Cache-Control', PUBLIC_FOR_FIVE_MINUTES)
  docs(): string {
    return this.holder.get().page;
  }
}
