import { fileURLToPath } from 'node:url';
import {
  PrometheusRule,
  ServiceMonitor,
} from '@kubernetes-models/prometheus-operator/monitoring.coreos.com/v1';
import { Deployment } from 'kubernetes-models/apps/v1';
import { HorizontalPodAutoscaler } from 'kubernetes-models/autoscaling/v2';
import { Ingress, NetworkPolicy } from 'kubernetes-models/networking.k8s.io/v1';
import { PodDisruptionBudget } from 'kubernetes-models/policy/v1';
import { ConfigMap, Secret, Service } from 'kubernetes-models/v1';
import { render, renderLocally, type KubeObject } from '../support/kustomize.js';
import { exposedMetrics, selectedMetrics } from '../support/metric-names.js';

const DEPLOY = fileURLToPath(new URL('../../deploy/', import.meta.url));

/** The schema of each kind the manifests may hold: Kubernetes' own and the operator's CRDs. */
const MODELS: Record<string, new (data: never) => { validate(): void }> = {
  'apps/v1/Deployment': Deployment,
  'autoscaling/v2/HorizontalPodAutoscaler': HorizontalPodAutoscaler,
  'networking.k8s.io/v1/Ingress': Ingress,
  'networking.k8s.io/v1/NetworkPolicy': NetworkPolicy,
  'policy/v1/PodDisruptionBudget': PodDisruptionBudget,
  'v1/ConfigMap': ConfigMap,
  'v1/Secret': Secret,
  'v1/Service': Service,
  'monitoring.coreos.com/v1/ServiceMonitor': ServiceMonitor,
  'monitoring.coreos.com/v1/PrometheusRule': PrometheusRule,
};

/** What the api serves to the outside (its controllers' public prefixes), and what it must not. */
const PUBLIC_PATHS = [
  '/v1',
  '/partner',
  '/widget',
  '/widget-api',
  '/widget.js',
  '/assets',
  '/docs',
];
const INTERNAL_PATHS = ['/admin', '/metrics', '/health', '/ready'];

interface Container {
  name: string;
  image: string;
  ports?: { name?: string; containerPort: number }[];
  resources?: { requests?: Record<string, string>; limits?: Record<string, string> };
  livenessProbe?: unknown;
  readinessProbe?: unknown;
  startupProbe?: unknown;
  securityContext?: {
    allowPrivilegeEscalation?: boolean;
    readOnlyRootFilesystem?: boolean;
    capabilities?: { drop?: string[] };
  };
}

interface Workload extends KubeObject {
  spec: {
    replicas?: number;
    template: {
      metadata: { labels: Record<string, string> };
      spec: {
        containers: Container[];
        securityContext?: { runAsNonRoot?: boolean; seccompProfile?: { type?: string } };
        automountServiceAccountToken?: boolean;
      };
    };
  };
}

interface ServiceSpec {
  selector: Record<string, string>;
  ports: { name: string; port: number }[];
}

interface IngressSpec {
  ingressClassName: string;
  defaultBackend?: unknown;
  tls: { hosts: string[]; secretName: string }[];
  rules: {
    host: string;
    http: {
      paths: {
        path: string;
        pathType: string;
        backend: { service: { name: string; port: { name: string } } };
      }[];
    };
  }[];
}

/** Deep-sorted keys, so two renders compare equal whatever order their keys came in. */
function canonical(value: unknown): unknown {
  if (Array.isArray(value)) {
    return value.map(canonical);
  }
  if (value !== null && typeof value === 'object') {
    return Object.fromEntries(
      Object.keys(value)
        .sort()
        .map((key) => [key, canonical((value as Record<string, unknown>)[key])]),
    );
  }
  return value;
}

/**
 * `kubectl kustomize deploy/` as a cluster would get it: every object valid against the schema of
 * its kind (kubernetes-models: Kubernetes' OpenAPI and the Prometheus Operator's CRDs, compiled
 * into the npm packages, so offline), every workload with requests, limits, probes and security
 * contexts, and the monitoring, autoscaling and ingress objects wired to what exists.
 */
describe('deploy/ rendered with kustomize', () => {
  let objects: KubeObject[];
  let renderedBy: string | null;

  beforeAll(async () => {
    ({ objects, by: renderedBy } = await render(DEPLOY));
  });

  const all = (kind: string) => objects.filter((o) => o.kind === kind);
  const one = (kind: string, name: string) =>
    objects.find((o) => o.kind === kind && o.metadata.name === name);

  it('renders the same objects with kubectl and with the stand-in used where kubectl is missing', () => {
    if (renderedBy === null) {
      // No kubectl with kustomize 4+ here: the stand-in rendered, nothing to compare it with.
      expect(objects.length).toBeGreaterThan(0);
      return;
    }
    const text = (rendered: KubeObject[]) =>
      rendered.map((o) => JSON.stringify(canonical(o))).sort();
    expect(text(renderLocally(DEPLOY))).toEqual(text(objects));
  });

  it('validates every object against the schema of its kind', () => {
    for (const object of objects) {
      const key = `${object.apiVersion}/${object.kind}`;
      expect({ object: `${key} ${object.metadata.name}`, known: key in MODELS }).toEqual({
        object: `${key} ${object.metadata.name}`,
        known: true,
      });
      expect(() => new MODELS[key](object as never).validate()).not.toThrow();
    }
  });

  it('holds the new objects: autoscaler, ingress, scrape targets, alerts and dashboard', () => {
    expect(
      ['HorizontalPodAutoscaler', 'Ingress', 'ServiceMonitor', 'PrometheusRule'].map(
        (kind) => all(kind).length,
      ),
    ).toEqual([1, 1, 2, 1]);
    expect(one('ConfigMap', 'swap-partners-dashboard')?.metadata.labels).toMatchObject({
      grafana_dashboard: '1',
    });
  });

  it('gives every container requests, limits, three probes and a locked-down security context', () => {
    const workloads = all('Deployment') as Workload[];
    expect(workloads.map((w) => w.metadata.name).sort()).toEqual(['swap-api', 'swap-poller']);
    for (const workload of workloads) {
      const pod = workload.spec.template.spec;
      expect(pod.securityContext).toMatchObject({
        runAsNonRoot: true,
        seccompProfile: { type: 'RuntimeDefault' },
      });
      expect(pod.automountServiceAccountToken).toBe(false);
      for (const container of pod.containers) {
        for (const bound of ['requests', 'limits'] as const) {
          expect(Object.keys(container.resources?.[bound] ?? {}).sort()).toEqual(['cpu', 'memory']);
        }
        for (const probe of ['livenessProbe', 'readinessProbe', 'startupProbe'] as const) {
          expect({ container: container.name, probe, set: container[probe] !== undefined }).toEqual(
            {
              container: container.name,
              probe,
              set: true,
            },
          );
        }
        expect(container.securityContext).toEqual({
          allowPrivilegeEscalation: false,
          readOnlyRootFilesystem: true,
          capabilities: { drop: ['ALL'] },
        });
      }
    }
  });

  it('scales the api with an autoscaler on CPU and requests per pod, which owns its replica count', () => {
    const hpa = one('HorizontalPodAutoscaler', 'swap-api') as KubeObject & {
      spec: {
        scaleTargetRef: { kind: string; name: string };
        minReplicas: number;
        metrics: {
          type: string;
          resource?: { name: string };
          pods?: { metric: { name: string } };
        }[];
      };
    };
    expect(hpa.spec.scaleTargetRef).toMatchObject({ kind: 'Deployment', name: 'swap-api' });
    expect(one('Deployment', 'swap-api')).toBeDefined();
    expect(hpa.spec.minReplicas).toBeGreaterThanOrEqual(2);
    expect(hpa.spec.metrics.map((m) => m.resource?.name ?? m.pods?.metric.name)).toEqual([
      'cpu',
      'api_http_requests_per_second',
    ]);
    // A replica count in the Deployment would reset the autoscaler's at every apply.
    expect((one('Deployment', 'swap-api') as Workload).spec.replicas).toBeUndefined();
  });

  it('routes the public paths to the api on the PUBLIC_URL host with TLS, never /admin or /metrics', () => {
    const config = one('ConfigMap', 'swap-partners-config') as KubeObject & {
      data: Record<string, string>;
    };
    expect(config.data.APP_ENV).toBe('production');
    const host = new URL(config.data.PUBLIC_URL).host;
    const ingress = (one('Ingress', 'swap-api') as KubeObject & { spec: IngressSpec }).spec;
    // Only PUBLIC_URL's host reaches the api: no default backend, no rule for any host.
    expect(ingress.defaultBackend).toBeUndefined();
    expect(ingress.rules.map((r) => r.host)).toEqual([host]);
    expect(ingress.tls).toEqual([{ hosts: [host], secretName: expect.any(String) }]);
    const paths = ingress.rules[0].http.paths;
    expect(paths.map((p) => p.path).sort()).toEqual([...PUBLIC_PATHS].sort());
    for (const internal of INTERNAL_PATHS) {
      expect(paths.some((p) => internal === p.path || internal.startsWith(`${p.path}/`))).toBe(
        false,
      );
    }
    const service = one('Service', 'swap-api') as KubeObject & { spec: ServiceSpec };
    for (const path of paths) {
      expect(path.backend.service.name).toBe('swap-api');
      expect(service.spec.ports.map((p) => p.name)).toContain(path.backend.service.port.name);
    }
  });

  it('gives production its PUBLIC_URL and, from the Secret, SMTP_URL: the api and the poller that sends', () => {
    const config = one('ConfigMap', 'swap-partners-config') as KubeObject & {
      data: Record<string, string>;
    };
    const secret = one('Secret', 'swap-partners-secrets') as KubeObject & {
      stringData: Record<string, string>;
    };
    expect(new URL(config.data.PUBLIC_URL).protocol).toBe('https:');
    // A mail server's URL carries its login: never in a ConfigMap.
    expect(config.data.SMTP_URL).toBeUndefined();
    expect(['smtp:', 'smtps:']).toContain(new URL(secret.stringData.SMTP_URL).protocol);
    interface EnvContainer {
      env?: { name: string; valueFrom?: { secretKeyRef?: { name: string; key: string } } }[];
      envFrom?: { configMapRef?: { name: string }; secretRef?: { name: string } }[];
    }
    const containerOf = (name: string) =>
      (one('Deployment', name) as Workload).spec.template.spec.containers[0] as EnvContainer;
    const reads = (container: EnvContainer, variable: string, from: 'config' | 'secret') =>
      from === 'config'
        ? (container.envFrom ?? []).some((e) => e.configMapRef?.name === config.metadata.name)
        : (container.envFrom ?? []).some((e) => e.secretRef?.name === secret.metadata.name) ||
          (container.env ?? []).some(
            (e) =>
              e.name === variable &&
              e.valueFrom?.secretKeyRef?.name === secret.metadata.name &&
              e.valueFrom.secretKeyRef.key === variable,
          );
    const api = containerOf('swap-api');
    const poller = containerOf('swap-poller');
    expect({
      apiPublicUrl: reads(api, 'PUBLIC_URL', 'config'),
      apiSmtpUrl: reads(api, 'SMTP_URL', 'secret'),
      pollerSmtpUrl: reads(poller, 'SMTP_URL', 'secret'),
      pollerEnv: reads(poller, 'APP_ENV', 'config'),
    }).toEqual({ apiPublicUrl: true, apiSmtpUrl: true, pollerSmtpUrl: true, pollerEnv: true });
  });

  it('scrapes both processes with the admin token: the api, and the poller on its probe port', () => {
    const secret = one('Secret', 'swap-partners-secrets') as KubeObject & {
      stringData: Record<string, string>;
    };
    for (const monitor of all('ServiceMonitor') as (KubeObject & {
      spec: {
        selector: { matchLabels: Record<string, string> };
        endpoints: {
          port: string;
          path: string;
          authorization?: { credentials: { name: string; key: string } };
        }[];
      };
    })[]) {
      const services = (all('Service') as (KubeObject & { spec: ServiceSpec })[]).filter((s) =>
        Object.entries(monitor.spec.selector.matchLabels).every(
          ([k, v]) => s.metadata.labels?.[k] === v,
        ),
      );
      expect(services.map((s) => s.metadata.name)).toEqual([monitor.metadata.name]);
      const [endpoint] = monitor.spec.endpoints;
      expect(endpoint.path).toBe('/metrics');
      expect(services[0].spec.ports.map((p) => p.name)).toContain(endpoint.port);
      expect(endpoint.authorization?.credentials).toEqual({
        name: secret.metadata.name,
        key: 'ADMIN_TOKEN',
      });
      expect(endpoint.port).toBe(monitor.metadata.name === 'swap-api' ? 'http' : 'probes');
    }
    expect(Object.keys(secret.stringData)).toContain('ADMIN_TOKEN');
    const poller = (one('Deployment', 'swap-poller') as Workload).spec.template.spec
      .containers[0] as {
      env?: { name: string; valueFrom?: { secretKeyRef?: { name: string; key: string } } }[];
    };
    expect(poller.env?.find((e) => e.name === 'ADMIN_TOKEN')?.valueFrom?.secretKeyRef).toEqual({
      name: secret.metadata.name,
      key: 'ADMIN_TOKEN',
    });
  });

  it('ships a dashboard whose every query reads series the services expose', () => {
    const dashboard = JSON.parse(
      (one('ConfigMap', 'swap-partners-dashboard') as KubeObject & { data: Record<string, string> })
        .data['swap-partners.json'],
    ) as { uid: string; panels: { title: string; targets?: { expr: string }[] }[] };
    const rules = (
      one('PrometheusRule', 'swap-partners-alerts') as KubeObject & {
        spec: { groups: { rules: { record?: string }[] }[] };
      }
    ).spec.groups.flatMap((g) => g.rules.flatMap((r) => (r.record ? [r.record] : [])));
    const known = new Set([...exposedMetrics(), ...rules]);
    const queries = dashboard.panels.flatMap((p) =>
      (p.targets ?? []).map((t) => ({ panel: p.title, expr: t.expr })),
    );
    expect(queries.length).toBeGreaterThan(20);
    for (const { panel, expr } of queries) {
      for (const metric of selectedMetrics(expr)) {
        expect({ panel, metric, known: known.has(metric) }).toEqual({ panel, metric, known: true });
      }
    }
  });
});
