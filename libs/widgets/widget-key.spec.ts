import { AppError } from '#app/errors';
import { newWidgetKey, normalizeOrigin, parseAllowedOrigins, widgetKeyMode } from './widget-key.js';

describe('widget keys', () => {
  it('mints keys of each mode that the pattern knows again', () => {
    expect(newWidgetKey('live')).toMatch(/^wk_live_[0-9a-f]{32}$/);
    expect(widgetKeyMode(newWidgetKey('test'))).toBe('test');
    expect(widgetKeyMode('wk_live_' + 'A'.repeat(32))).toBeNull();
    expect(widgetKeyMode(42)).toBeNull();
  });

  it.each([
    ['https://shop.example', 'https://shop.example'],
    ['HTTPS://Shop.Example', 'https://shop.example'],
    ['http://localhost:8080', 'http://localhost:8080'],
    ['https://shop.example:443', 'https://shop.example'],
    ['http://127.0.0.1:3000', 'http://127.0.0.1:3000'],
    ['https://[::1]:8443', 'https://[::1]:8443'],
  ])('accepts %s as %s', (written, origin) => {
    expect(normalizeOrigin(written)).toBe(origin);
  });

  it.each([
    'https://shop.example/',
    'https://shop.example/path',
    'https://*.shop.example',
    'ftp://shop.example',
    'javascript:alert(1)',
    'https://user@shop.example',
    'https://shop.example?x=1',
    'https://shop.example#x',
    'shop.example',
    'null',
    '',
    'https://shop.example\u0000',
    'https://shop.example:99999',
  ])('refuses %j', (written) => {
    expect(normalizeOrigin(written)).toBeNull();
  });

  it('takes 1 to 20 origins and names allowedOrigins otherwise', () => {
    expect(parseAllowedOrigins(['https://a.example', 'https://A.example'])).toEqual([
      'https://a.example',
    ]);
    for (const bad of [[], 'https://a.example', null, Array(21).fill('https://a.example')]) {
      try {
        parseAllowedOrigins(bad);
        throw new Error('accepted');
      } catch (error: unknown) {
        expect(error).toBeInstanceOf(AppError);
        expect((error as AppError).param).toBe('allowedOrigins');
      }
    }
  });

  it('names the refused origin by its position, for the API, the CLI and the dashboard form', () => {
    expect(() => parseAllowedOrigins(['https://a.example', 'https://b.example/path'])).toThrow(
      /^Allowed origin 2 is not an origin/,
    );
  });
});
