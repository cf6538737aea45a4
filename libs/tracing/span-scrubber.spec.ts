import type { Attributes } from '@opentelemetry/api';
import { scrubAttributes } from './span-scrubber.js';

describe(scrubAttributes.name, () => {
  it('keeps a server span its route and status, never the path, query or client address', () => {
    const sut: Attributes = {
      'http.request.method': 'GET',
      'http.route': '/partner/reset-password/:token',
      'url.path': '/partner/reset-password/rp_secret-token',
      'url.query': 'next=%2Fpartner',
      'url.full': 'https://swaps.example/partner/reset-password/rp_secret-token',
      'client.address': '203.0.113.7',
      'network.peer.address': '10.0.0.12',
      'network.peer.port': 51234,
      'http.response.status_code': 200,
      'app.request_id': 'req-1',
    };

    scrubAttributes(sut, true);

    expect(sut).toEqual({
      'http.request.method': 'GET',
      'http.route': '/partner/reset-password/:token',
      'http.response.status_code': 200,
      'app.request_id': 'req-1',
    });
  });

  it('keeps a client span where it called, without the query', () => {
    const sut: Attributes = {
      'url.full': 'https://api.provider.example/v2?token=abc#frag',
      'http.url': 'https://api.provider.example/v2?token=abc',
      'url.query': '?token=abc',
      'url.path': '/v2',
      'server.address': 'api.provider.example',
      'network.peer.address': '198.51.100.4',
    };

    scrubAttributes(sut, false);

    expect(sut).toEqual({
      'url.full': 'https://api.provider.example/v2',
      'http.url': 'https://api.provider.example/v2',
      'url.path': '/v2',
      'server.address': 'api.provider.example',
      'network.peer.address': '198.51.100.4',
    });
  });
});
