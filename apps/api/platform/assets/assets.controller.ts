import { Controller, Get, NotFoundException, Param, Res } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import type { Response } from 'express';
import { assetByFile } from './asset.registry.js';
import './dashboard.assets.js';

/**
 * Static files of the dashboard (and any page), outside `/partner`: the name carries the
 * content's hash, so they are cached for a year and never revalidated.
 */
@ApiExcludeController()
@Controller('assets')
export class AssetsController {
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
