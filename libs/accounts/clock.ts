import { Injectable } from '@nestjs/common';

/**
 * The time sessions, links and throttles are measured against. One instance per app, so a test
 * can move it (`jest.spyOn(app.get(Clock), 'now')`) to cross a timeout without waiting.
 */
@Injectable()
export class Clock {
  now(): Date {
    return new Date();
  }
}
