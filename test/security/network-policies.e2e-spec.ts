import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseAllDocuments } from 'yaml';

type Labels = Record<string, string>;

interface Selector {
  matchLabels?: Labels;
}

interface Peer {
  podSelector?: Selector;
  namespaceSelector?: Selector;
  ipBlock?: { cidr: string };
}

interface NetworkPolicy {
  kind: 'NetworkPolicy';
  metadata: { name: string };
  spec: {
    podSelector: Selector;
    policyTypes?: string[];
    ingress?: { from?: Peer[]; ports?: { port: number | string }[] }[];
  };
}

/** A pod as a NetworkPolicy sees it: where it runs, its labels and its named ports. */
interface Pod {
  namespace: string;
  labels: Labels;
  ports?: Record<string, number>;
}

const DEPLOY = fileURLToPath(new URL('../../deploy/', import.meta.url));
const NAMESPACE = 'swap-partners';

function manifests(): { kind: string }[] {
  const kustomization = parseAllDocuments(
    readFileSync(join(DEPLOY, 'kustomization.yaml'), 'utf8'),
  )[0].toJS() as { resources: string[] };
  return kustomization.resources.flatMap((file) =>
    parseAllDocuments(readFileSync(join(DEPLOY, file), 'utf8')).map(
      (doc) => doc.toJS() as { kind: string },
    ),
  );
}

function selects(selector: Selector | undefined, labels: Labels): boolean {
  return Object.entries(selector?.matchLabels ?? {}).every(([k, v]) => labels[k] === v);
}

/** Kubernetes namespaces carry their own name as this label (since 1.21). */
function namespaceLabels(namespace: string): Labels {
  return { 'kubernetes.io/metadata.name': namespace };
}

function peerAdmits(peer: Peer, from: Pod, policyNamespace: string): boolean {
  if (peer.ipBlock) {
    return false;
  }
  const namespaceOk = peer.namespaceSelector
    ? selects(peer.namespaceSelector, namespaceLabels(from.namespace))
    : from.namespace === policyNamespace;
  return namespaceOk && selects(peer.podSelector, from.labels);
}

/**
 * NetworkPolicy semantics for ingress, restricted to what the manifests use (matchLabels):
 * a pod no policy selects admits everything; a selected pod admits what some rule allows.
 */
function admits(policies: NetworkPolicy[], from: Pod, to: Pod, port: number): boolean {
  const applying = policies.filter(
    (p) =>
      (p.spec.policyTypes ?? ['Ingress']).includes('Ingress') &&
      selects(p.spec.podSelector, to.labels),
  );
  if (applying.length === 0) {
    return true;
  }
  return applying.some((policy) =>
    (policy.spec.ingress ?? []).some((rule) => {
      const portOk =
        !rule.ports ||
        rule.ports.some((p) => (typeof p.port === 'number' ? p.port : to.ports?.[p.port]) === port);
      const peerOk = !rule.from || rule.from.some((peer) => peerAdmits(peer, from, to.namespace));
      return portOk && peerOk;
    }),
  );
}

const api: Pod = {
  namespace: NAMESPACE,
  labels: { 'app.kubernetes.io/name': 'swap-api' },
  ports: { http: 3000 },
};
const poller: Pod = {
  namespace: NAMESPACE,
  labels: { 'app.kubernetes.io/name': 'swap-poller' },
  ports: { probes: 3001 },
};
const postgres: Pod = { namespace: NAMESPACE, labels: { 'app.kubernetes.io/name': 'postgres' } };
const redis: Pod = { namespace: NAMESPACE, labels: { 'app.kubernetes.io/name': 'redis' } };
const ingressController: Pod = {
  namespace: 'ingress-nginx',
  labels: { 'app.kubernetes.io/name': 'ingress-nginx' },
};
const prometheus: Pod = {
  namespace: 'monitoring',
  labels: { 'app.kubernetes.io/name': 'prometheus' },
};
const neighbour: Pod = { namespace: NAMESPACE, labels: { app: 'something-else' } };
const elsewhere: Pod = { namespace: 'default', labels: { 'app.kubernetes.io/name': 'swap-api' } };

/**
 * The api trusts one proxy hop's `X-Forwarded-For`, so only the ingress may reach
 * it; Postgres and Redis answer only the api and the poller. Checked on the manifests
 * `kubectl apply -k deploy/` applies, with the policy semantics of Kubernetes.
 */
describe('deploy/ NetworkPolicies', () => {
  const policies = manifests().filter((m): m is NetworkPolicy => m.kind === 'NetworkPolicy');

  it.each([
    ['the ingress controller → api', ingressController, api, 3000, true],
    ['Prometheus → api metrics', prometheus, api, 3000, true],
    ['another pod of the namespace → api (forged X-Forwarded-For)', neighbour, api, 3000, false],
    ['a pod elsewhere with the api’s labels → api', elsewhere, api, 3000, false],
    ['the ingress controller → api on another port', ingressController, api, 9229, false],
    ['Prometheus → poller probes', prometheus, poller, 3001, true],
    ['another pod → poller', neighbour, poller, 3001, false],
    ['the ingress controller → poller', ingressController, poller, 3001, false],
    ['api → Postgres', api, postgres, 5432, true],
    ['poller → Postgres', poller, postgres, 5432, true],
    ['another pod → Postgres', neighbour, postgres, 5432, false],
    ['the ingress controller → Postgres', ingressController, postgres, 5432, false],
    ['api → Redis', api, redis, 6379, true],
    ['poller → Redis', poller, redis, 6379, true],
    ['another pod → Redis', neighbour, redis, 6379, false],
    ['api → poller', api, poller, 3001, false],
    ['another pod → an unlisted pod of the namespace', neighbour, neighbour, 8080, false],
  ])('%s', (_name, from, to, port, allowed) => {
    expect(admits(policies, from, to, port)).toBe(allowed);
  });
});
