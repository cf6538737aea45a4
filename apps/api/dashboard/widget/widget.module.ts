import { Module } from '@nestjs/common';
import { WidgetsModule } from '#app/widgets';
import { DashboardCoreModule } from '../dashboard-core.module.js';
import { DashboardWidgetController } from './widget.controller.js';

/** The Widget page: widget keys, a live preview and the snippet, over `WidgetsModule`. */
@Module({
  imports: [DashboardCoreModule, WidgetsModule],
  controllers: [DashboardWidgetController],
})
export class WidgetPagesModule {}
