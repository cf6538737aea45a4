import { Controller, Get } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import { LandingPage } from './landing.page.js';

/**
 * `GET /`: a small public page linking the dashboard's sign-in and sign-up and `/docs`, with the
 * dashboard's shell, assets and headers (docs/decisions.md, "Dashboard: Get started").
 */
@ApiExcludeController()
@Controller()
export class LandingController {
  @Get()
  landing(): JSX.Element {
    return <LandingPage />;
  }
}
