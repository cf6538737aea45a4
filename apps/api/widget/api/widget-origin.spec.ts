import type { Request } from 'express';
import { originStanding } from './widget-origin.js';

const SHOP = 'https://shop.example';
const PUBLIC_URL = 'https://swaps.example.com';

function request(method: string, headers: Record<string, string>, localPort = 3000): Request {
  return {
    method,
    headers: Object.fromEntries(Object.entries(headers).map(([k, v]) => [k.toLowerCase(), v])),
    socket: { localPort },
  } as unknown as Request;
}

describe(originStanding.name, () => {
  it.each([
    ['a listed origin', 'POST', { Origin: SHOP }, null, 'listed'],
    ['PUBLIC_URL', 'POST', { Origin: PUBLIC_URL }, PUBLIC_URL, 'same'],
    ['a same-origin read without Origin', 'GET', { 'Sec-Fetch-Site': 'same-origin' }, null, 'same'],
    [
      'a loopback origin on its port, without PUBLIC_URL',
      'POST',
      { Origin: 'http://127.0.0.1:3000' },
      null,
      'same',
    ],
    [
      'localhost on its port, without PUBLIC_URL',
      'POST',
      { Origin: 'http://localhost:3000' },
      null,
      'same',
    ],
  ] as const)('admits %s', (_, method, headers, publicUrl, standing) => {
    expect(originStanding(request(method, headers), [SHOP], publicUrl)).toBe(standing);
  });

  it.each([
    ['no Origin and no Sec-Fetch-Site', 'GET', {}, null],
    [
      'a POST without Origin, even marked same-origin',
      'POST',
      { 'Sec-Fetch-Site': 'same-origin' },
      null,
    ],
    ['a cross-site read without Origin', 'GET', { 'Sec-Fetch-Site': 'cross-site' }, null],
    [
      'a foreign Origin naming itself as Host',
      'GET',
      { Origin: 'http://evil.example', Host: 'evil.example' },
      null,
    ],
    [
      'a forwarded host',
      'GET',
      { Origin: 'https://evil.example', 'X-Forwarded-Host': 'evil.example' },
      null,
    ],
    [
      'a loopback origin once PUBLIC_URL is set',
      'POST',
      { Origin: 'http://127.0.0.1:3000' },
      PUBLIC_URL,
    ],
    ['a loopback origin on another port', 'POST', { Origin: 'http://127.0.0.1:4000' }, null],
    ['the opaque origin', 'POST', { Origin: 'null' }, null],
    ['an empty Origin', 'POST', { Origin: '' }, null],
  ] as const)('refuses %s', (_, method, headers, publicUrl) => {
    expect(originStanding(request(method, headers), [SHOP], publicUrl)).toBe('refused');
  });
});
