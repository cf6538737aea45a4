import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { parse } from 'yaml';
import { exposedMetrics, selectedMetrics } from '../support/metric-names.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const MONITORING = join(ROOT, 'deploy/monitoring');
const RULES = 'swap-partners.rules.yml';
const TESTS = ['alerts.test.yml', 'alerts-slow-burn.test.yml'];
const run = promisify(execFile);

interface Rule {
  alert?: string;
  record?: string;
  expr: string;
  labels?: Record<string, string>;
  annotations?: Record<string, string>;
}

interface RuleGroups {
  groups: { name: string; rules: Rule[] }[];
}

interface PromtoolTests {
  tests: { alert_rule_test?: { alertname: string; exp_alerts?: unknown[] }[] }[];
}

function yamlFile<T>(file: string): T {
  return parse(readFileSync(join(MONITORING, file), 'utf8')) as T;
}

/**
 * The alerting rules as code (deploy/monitoring): unit-tested with `promtool test rules` (Debian's
 * prometheus package, installed by .ci/run), the PrometheusRule equal to the plain rules file,
 * every alert with a runbook, and every series they read one the services expose.
 */
describe('deploy/monitoring alerting rules', () => {
  const rules = yamlFile<RuleGroups>(RULES);
  const alerts = rules.groups.flatMap((g) => g.rules).filter((r) => r.alert !== undefined);

  it('pass promtool check rules', async () => {
    const { stdout } = await run('promtool', ['check', 'rules', RULES], { cwd: MONITORING });
    expect(stdout).toContain(`SUCCESS: ${rules.groups.flatMap((g) => g.rules).length} rules found`);
  });

  it('pass their unit tests: promtool test rules', async () => {
    // promtool exits non-zero on any failed case, which rejects here with its report.
    const { stdout, stderr } = await run('promtool', ['test', 'rules', ...TESTS], {
      cwd: MONITORING,
      timeout: 120_000,
    });
    expect(`${stdout}${stderr}`.match(/SUCCESS/g)).toHaveLength(TESTS.length);
  }, 150_000);

  it('test every alert both firing and not firing', () => {
    const cases = TESTS.flatMap((file) =>
      yamlFile<PromtoolTests>(file).tests.flatMap((t) => t.alert_rule_test ?? []),
    );
    for (const { alert } of alerts) {
      const mine = cases.filter((c) => c.alertname === alert);
      expect({ alert, fires: mine.some((c) => (c.exp_alerts ?? []).length > 0) }).toEqual({
        alert,
        fires: true,
      });
      expect({ alert, quiet: mine.some((c) => (c.exp_alerts ?? []).length === 0) }).toEqual({
        alert,
        quiet: true,
      });
    }
  });

  it('are the same groups in the PrometheusRule as in the plain rules file', () => {
    const resource = yamlFile<{ kind: string; spec: RuleGroups }>('prometheus-rule.yaml');
    expect(resource.kind).toBe('PrometheusRule');
    expect(resource.spec).toEqual(rules);
  });

  it('each have a severity and a runbook section in docs/operations.md', () => {
    const operations = readFileSync(join(ROOT, 'docs/operations.md'), 'utf8');
    const headings = new Set(
      [...operations.matchAll(/^#{2,4} (.+)$/gm)].map((m) => m[1].trim().toLowerCase()),
    );
    for (const rule of alerts) {
      expect(['critical', 'warning']).toContain(rule.labels?.severity);
      expect(rule.annotations?.runbook).toBe(`docs/operations.md#${rule.alert!.toLowerCase()}`);
      expect({ alert: rule.alert, runbook: headings.has(rule.alert!.toLowerCase()) }).toEqual({
        alert: rule.alert,
        runbook: true,
      });
    }
  });

  it('read only series the api, the poller and Prometheus expose', () => {
    const known = new Set([
      ...exposedMetrics(),
      ...rules.groups.flatMap((g) => g.rules.flatMap((r) => (r.record ? [r.record] : []))),
    ]);
    for (const rule of rules.groups.flatMap((g) => g.rules)) {
      for (const metric of selectedMetrics(rule.expr)) {
        expect({ rule: rule.alert ?? rule.record, metric, known: known.has(metric) }).toEqual({
          rule: rule.alert ?? rule.record,
          metric,
          known: true,
        });
      }
    }
  });
});
