import { Controller, Get, NotFoundException, Param, Res } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import type { Response } from 'express';
import { assetByFile, loadAssets } from './asset.registry.js';

/**
 * Static files of the dashboard and the widget, outside `/partner`: the name carries the
 * content's hash, so they are cached for a year and never revalidated.
 */
@ApiExcludeController()
@Controller('assets')
export class AssetsController {
  constructor() {
    // A build without the browser's files fails the start, not the first page.
    loadAssets();
  }

  @Get(':file')
  serve(@Param('file') file: string, @Res() res: Response): void {
    const asset = assetByFile(file);
    if (!asset) {
      throw new NotFoundException();
    }
    res.setHeader('Cache-Control', 'public, max-age=31536000, immutable');
    res.setHeader('Content-Type', asset.contentType);
    res.send(asset.body);
  }
}
