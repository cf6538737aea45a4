import { createParamDecorator, ExecutionContext } from '@nestjs/common';
import type { WidgetCaller } from '#app/widgets';
import type { WidgetRequest } from './widget-key.guard.js';

/** The widget key `WidgetKeyGuard` authenticated for this request. */
export const CurrentWidget = createParamDecorator(
  (_data: unknown, context: ExecutionContext): WidgetCaller => {
    const widget = context.switchToHttp().getRequest<WidgetRequest>().widget;
    if (!widget) {
      throw new Error('CurrentWidget used on a route without WidgetKeyGuard');
    }
    return widget;
  },
);
