import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { promisify } from 'node:util';
import { parse, parseAllDocuments } from 'yaml';

const run = promisify(execFile);

/** One rendered Kubernetes object, as `kubectl apply` would send it. */
export interface KubeObject {
  apiVersion: string;
  kind: string;
  metadata: { name: string; labels?: Record<string, string>; [field: string]: unknown };
  [field: string]: unknown;
}

interface Replacement {
  source: {
    kind: string;
    name: string;
    fieldPath: string;
    options?: { delimiter?: string; index?: number };
  };
  targets: { select: { kind: string; name: string }; fieldPaths: string[] }[];
}

/** The kustomization features the deploy/ manifests use, and only those. */
interface Kustomization {
  apiVersion?: string;
  kind?: string;
  resources?: string[];
  labels?: { pairs: Record<string, string>; includeSelectors?: boolean }[];
  images?: { name: string; newName?: string; newTag?: string }[];
  configMapGenerator?: {
    name: string;
    files: string[];
    options?: { disableNameSuffixHash?: boolean; labels?: Record<string, string> };
  }[];
  replacements?: Replacement[];
}

const SUPPORTED = new Set([
  'apiVersion',
  'kind',
  'resources',
  'labels',
  'images',
  'configMapGenerator',
  'replacements',
]);

function objectAt(root: unknown, path: string): { parent: Record<string, unknown>; key: string } {
  const keys = path.split('.');
  let node = root as Record<string, unknown>;
  for (const key of keys.slice(0, -1)) {
    node = node[key] as Record<string, unknown>;
    if (node === undefined || node === null) {
      throw new Error(`no ${path} to replace`);
    }
  }
  return { parent: node, key: keys[keys.length - 1] };
}

function find(objects: KubeObject[], kind: string, name: string): KubeObject {
  const found = objects.find((o) => o.kind === kind && o.metadata.name === name);
  if (!found) {
    throw new Error(`no ${kind} ${name} in the kustomization`);
  }
  return found;
}

function containersOf(object: KubeObject): { image?: string }[] {
  const pod = (object.spec as { template?: { spec?: Record<string, unknown> } } | undefined)
    ?.template?.spec;
  return ['initContainers', 'containers'].flatMap(
    (field) => (pod?.[field] as { image?: string }[] | undefined) ?? [],
  );
}

/**
 * `kustomize build` for the subset of kustomize that `deploy/kustomization.yaml` uses: resources
 * (local YAML files), labels without selectors, images, a ConfigMap generator without name hash,
 * and replacements of a field or of one part of it. Anything else in the kustomization is refused,
 * so the subset cannot silently fall behind the file.
 */
export function renderLocally(dir: string): KubeObject[] {
  const kustomization = parse(
    readFileSync(join(dir, 'kustomization.yaml'), 'utf8'),
  ) as Kustomization;
  const unsupported = Object.keys(kustomization).filter((key) => !SUPPORTED.has(key));
  if (unsupported.length > 0) {
    throw new Error(`the local renderer does not support ${unsupported.join(', ')}`);
  }
  const objects: KubeObject[] = (kustomization.resources ?? []).flatMap((file) =>
    parseAllDocuments(readFileSync(join(dir, file), 'utf8')).map((doc) => doc.toJS() as KubeObject),
  );
  for (const generator of kustomization.configMapGenerator ?? []) {
    if (generator.options?.disableNameSuffixHash !== true) {
      throw new Error('the local renderer does not hash generated names');
    }
    objects.push({
      apiVersion: 'v1',
      kind: 'ConfigMap',
      metadata: {
        name: generator.name,
        ...(generator.options.labels ? { labels: { ...generator.options.labels } } : {}),
      },
      data: Object.fromEntries(
        generator.files.map((file) => [basename(file), readFileSync(join(dir, file), 'utf8')]),
      ),
    });
  }
  for (const { pairs, includeSelectors } of kustomization.labels ?? []) {
    if (includeSelectors) {
      throw new Error('the local renderer does not label selectors');
    }
    for (const object of objects) {
      object.metadata.labels = { ...object.metadata.labels, ...pairs };
    }
  }
  for (const image of kustomization.images ?? []) {
    for (const container of objects.flatMap(containersOf)) {
      if (container.image === image.name) {
        container.image = `${image.newName ?? image.name}${image.newTag ? `:${image.newTag}` : ''}`;
      }
    }
  }
  for (const { source, targets } of kustomization.replacements ?? []) {
    const from = objectAt(find(objects, source.kind, source.name), source.fieldPath);
    let value = from.parent[from.key] as string;
    if (source.options?.delimiter !== undefined) {
      value = value.split(source.options.delimiter)[source.options.index ?? 0];
    }
    for (const target of targets) {
      const object = find(objects, target.select.kind, target.select.name);
      for (const path of target.fieldPaths) {
        const to = objectAt(object, path);
        to.parent[to.key] = value;
      }
    }
  }
  return objects;
}

/** kubectl's embedded kustomize, when kubectl is installed and its kustomize is v4 or later. */
async function kubectlKustomize(): Promise<string | null> {
  try {
    const { stdout } = await run('kubectl', ['version', '--client']);
    const major = Number(/Kustomize Version: v(\d+)/.exec(stdout)?.[1] ?? 0);
    return major >= 4 ? stdout.trim().split('\n').join(', ') : null;
  } catch {
    return null;
  }
}

/**
 * The objects `kubectl kustomize dir` renders, with what rendered them. Where no kubectl with
 * kustomize v4 or later is installed (Debian's kubectl is 1.20, with kustomize 2, which knows
 * neither `labels` nor `replacements`; npm has no kustomize), `renderLocally` stands in.
 */
export async function render(dir: string): Promise<{ objects: KubeObject[]; by: string | null }> {
  const kubectl = await kubectlKustomize();
  if (kubectl === null) {
    return { objects: renderLocally(dir), by: null };
  }
  const { stdout } = await run('kubectl', ['kustomize', dir], { maxBuffer: 16 * 1024 * 1024 });
  return {
    objects: parseAllDocuments(stdout).map((doc) => doc.toJS() as KubeObject),
    by: kubectl,
  };
}
