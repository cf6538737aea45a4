import { Module } from '@nestjs/common';
import { AssetsController } from './assets.controller.js';

/** `/assets/<name>.<hash>.<ext>`: the browser's files of the dashboard and the widget. */
@Module({ controllers: [AssetsController] })
export class AssetsModule {}
