import { Counter, Histogram, MetricsRegistry, Summary } from './prometheus.js';

describe(MetricsRegistry.name, () => {
  it('renders counters, summaries and histograms in Prometheus text format', () => {
    const sut = new MetricsRegistry();
    const counter = sut.register(new Counter('c_total', 'A counter.'));
    const summary = sut.register(new Summary('lag_seconds', 'A summary.'));
    const histogram = sut.register(new Histogram('size', 'A histogram.', [1, 10]));

    counter.inc({ status: 'finished' });
    counter.inc({ status: 'finished' }, 2);
    counter.inc({ status: 'a"b' });
    for (let i = 1; i <= 100; i++) {
      summary.observe(i);
    }
    histogram.observe(5);
    histogram.observe(50);

    expect(sut.render().split('\n')).toEqual([
      '# HELP c_total A counter.',
      '# TYPE c_total counter',
      'c_total{status="finished"} 3',
      'c_total{status="a\\"b"} 1',
      '# HELP lag_seconds A summary.',
      '# TYPE lag_seconds summary',
      'lag_seconds{quantile="0.5"} 50',
      'lag_seconds{quantile="0.99"} 99',
      'lag_seconds_sum 5050',
      'lag_seconds_count 100',
      '# HELP size A histogram.',
      '# TYPE size histogram',
      'size_bucket{le="1"} 0',
      'size_bucket{le="10"} 1',
      'size_bucket{le="+Inf"} 2',
      'size_sum 55',
      'size_count 2',
      '',
    ]);
  });

  it('keeps quantiles over a bounded window of recent samples', () => {
    const sut = new Summary('s', 'h', [0.5], 4);
    for (const v of [100, 100, 100, 100, 1, 1, 1, 1]) {
      sut.observe(v);
    }

    expect(sut.render()).toContain('s{quantile="0.5"} 1');
    expect(sut.render()).toContain('s_count 8');
  });
});
