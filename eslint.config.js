import path from 'node:path';
import js from '@eslint/js';
import prettier from 'eslint-config-prettier';
import tseslint from 'typescript-eslint';

/**
 * Package boundaries (STYLE, "Layout shows the architecture"). A relative import stays inside its
 * own app or lib, and another lib is reached only as `#app/<lib>`, its index: so no app imports
 * another app and no lib imports an app. The one exception is the composition root: the embedded
 * start imports the api, poller and sandbox bootstraps (docs/decisions.md, "Package boundaries and
 * one composition root"). Libs keep the order of their layers (`LIB_LAYERS`). `test/` and
 * `bench/` boot the apps and are not bounded.
 *
 * `no-restricted-imports` sees only the specifier, so each depth below a package root gets its own
 * bound: a file `d` folders down may climb at most `d` levels. Files `DEEPEST` folders down or more
 * share the last bound, which errs only on the strict side.
 */
const DEEPEST = 3;

/** A specifier with at least `count` `..` segments. */
function climbs(count) {
  return `(?:(?:[^/]*/)*?\\.\\.(?:/|$)){${count}}`;
}

const LEAVES_PACKAGE =
  'A relative import stays inside its own app or lib: use a lib as #app/<lib>; an app never imports another app.';
const DEEP_LIB = {
  regex: '^#app/[^/]+/',
  message: 'Use a lib only through its index: #app/<lib>.',
};
const leavesPackage = (levels) => ({ regex: `^${climbs(levels)}`, message: LEAVES_PACKAGE });

/**
 * The shared kit of unit specs (`#test/<dir>`: test/fakes, test/factories) is for specs and
 * `test/` only; production code that imported it would build test code into `dist/`
 * (docs/decisions.md, "A shared kit for unit specs").
 */
const SPECS = ['**/*.spec.ts', '**/*.spec.tsx'];
const TEST_KIT = {
  regex: '^#test(?:/|$)',
  message: 'Only specs (*.spec.ts, *.spec.tsx) and test/ import the test kit (#test/<dir>).',
};
const restrict = (patterns) => ({ 'no-restricted-imports': ['error', { patterns }] });

/**
 * `patternsAt(levels)`: what a file of `pkg` may not import, `levels` being its depth + 1. Flat
 * config replaces a rule's options per file, so each depth has two entries: the bounds for every
 * file, then the bounds and `TEST_KIT` for every file but the specs.
 */
function bounded(pkg, ignores, patternsAt) {
  return Array.from({ length: DEEPEST + 1 }, (_, depth) => {
    const files = [`${pkg}/${'*/'.repeat(depth)}${depth === DEEPEST ? '**/' : ''}*.{ts,tsx}`];
    const patterns = patternsAt(depth + 1);
    return [
      { files, ignores, rules: restrict(patterns) },
      { files, ignores: [...ignores, ...SPECS], rules: restrict([...patterns, TEST_KIT]) },
    ];
  }).flat();
}

/**
 * The libs' layers, bottom to top (docs/decisions.md, "Layers of the libs"): a lib imports only
 * libs of lower layers, so no two libs depend on each other and none reaches up. The domain is at
 * the bottom and imports nothing of ours; the transports (outgoing webhooks, incoming HTTP) are at
 * the top; `core` only composes a process's root.
 */
export const LIB_LAYERS = [
  ['domain'],
  ['config', 'errors', 'chains', 'metrics', 'input', 'csv'],
  ['logging', 'process', 'persistence', 'redis', 'mail'],
  ['rate-limit', 'health', 'tracing'],
  ['provider'],
  ['routing'],
  ['catalogue', 'partners', 'events'],
  ['quotes', 'accounts', 'widgets', 'dashboard-factors', 'earnings', 'provider-control'],
  ['swaps'],
  ['polling'],
  ['webhooks', 'test-mode'],
  ['http'],
  ['core'],
];

/** The libs `lib` may not import: those of its own layer and above. */
function layerBound(lib) {
  const layer = LIB_LAYERS.findIndex((libs) => libs.includes(lib));
  const below = LIB_LAYERS.slice(0, layer).flat();
  const notBelow = LIB_LAYERS.slice(layer).flat();
  return {
    regex: `^#app/(?:${notBelow.join('|')})$`,
    message:
      below.length === 0
        ? `libs/${lib} is the bottom layer: it imports nothing of ours.`
        : `libs/${lib} may import only libs of lower layers (${below.join(', ')}); see LIB_LAYERS.`,
  };
}

/**
 * The api's surfaces (docs/decisions.md, "The api's surfaces"): `partner-api`, `admin-api`,
 * `dashboard` and `widget` each import only their own folder, `platform` (auth, limits, OpenAPI,
 * the contract's shapes, metrics, assets) and the libs; `platform` imports no surface; only the
 * root (`api.module.ts`, `api.bootstrap.ts`, `main.ts`) composes them.
 */
const API_SURFACES = ['partner-api', 'admin-api', 'dashboard', 'widget'];

/** The part of the api a repository path belongs to: a surface, `platform`, `root` or null. */
function apiPart(file) {
  const parts = file.split(path.sep);
  if (parts[0] !== 'apps' || parts[1] !== 'api') {
    return null;
  }
  return parts.length > 3 && [...API_SURFACES, 'platform'].includes(parts[2]) ? parts[2] : 'root';
}

const surfaceBoundary = {
  meta: {
    type: 'problem',
    messages: {
      crosses:
        '{{own}} may not import {{target}}: a surface imports only its own folder, platform/ and the libs (docs/decisions.md, "The api\'s surfaces").',
    },
    schema: [],
  },
  create(context) {
    const file = path.relative(import.meta.dirname, context.filename);
    const own = apiPart(file);
    if (own === null || own === 'root') {
      return {};
    }
    const check = (source) => {
      if (typeof source?.value !== 'string' || !source.value.startsWith('.')) {
        return;
      }
      const target = apiPart(path.normalize(path.join(path.dirname(file), source.value)));
      if (target === null || target === own || (target === 'platform' && own !== 'root')) {
        return;
      }
      context.report({ node: source, messageId: 'crosses', data: { own, target } });
    };
    return {
      ImportDeclaration: (node) => check(node.source),
      ExportNamedDeclaration: (node) => check(node.source),
      ExportAllDeclaration: (node) => check(node.source),
      ImportExpression: (node) => check(node.source),
    };
  },
};

const apiSurfaces = {
  files: ['apps/api/**/*.{ts,tsx}'],
  plugins: { api: { rules: { 'surface-boundary': surfaceBoundary } } },
  rules: { 'api/surface-boundary': 'error' },
};

const boundaries = [
  ...bounded('apps/*', ['apps/embedded/**'], (levels) => [DEEP_LIB, leavesPackage(levels)]),
  ...bounded('apps/embedded', [], (levels) => [
    DEEP_LIB,
    {
      regex: `^(?!(?:\\.\\./){${levels}}(?:api/api|poller/poller|sandbox/sandbox)\\.bootstrap\\.js$)${climbs(levels)}`,
      message: `${LEAVES_PACKAGE} The embedded start imports only the api, poller and sandbox bootstraps.`,
    },
  ]),
  ...LIB_LAYERS.flat().flatMap((lib) =>
    bounded(`libs/${lib}`, [], (levels) => [DEEP_LIB, leavesPackage(levels), layerBound(lib)]),
  ),
  ...bounded(
    'libs/*',
    LIB_LAYERS.flat().map((lib) => `libs/${lib}/**`),
    (levels) => [
      DEEP_LIB,
      leavesPackage(levels),
      {
        regex: '^#app/',
        message: 'Give this lib its layer in LIB_LAYERS (eslint.config.js) first.',
      },
    ],
  ),
];

/** Code outside the bounded packages (bench, the SDK) may not import the test kit either. */
const testKitOutsidePackages = {
  files: ['**/*.{ts,tsx}'],
  ignores: ['apps/**', 'libs/**', 'test/**', ...SPECS],
  rules: restrict([TEST_KIT]),
};

/**
 * The browser's code (docs/decisions.md, "Browser code as real sources, built by esbuild"): its
 * TypeScript is type-checked against the DOM by `web/tsconfig.json`, the frozen loader v1 is plain
 * JavaScript; both see the browser's globals and import nothing of Node. `web/build.js` runs in
 * Node (it builds the rest).
 */
const BROWSER_GLOBALS = Object.fromEntries(
  ['window', 'document', 'navigator', 'location', 'console', 'fetch', 'URL', 'CustomEvent'].map(
    (name) => [name, 'readonly'],
  ),
);
const browserCode = {
  files: ['web/**/*.{ts,js}'],
  ignores: ['web/build.js'],
  languageOptions: { globals: BROWSER_GLOBALS },
  rules: restrict([
    TEST_KIT,
    { regex: '^node:', message: 'web/ runs in the browser: it imports nothing of Node.' },
  ]),
};

const ONE_QUERY_STYLE =
  'Repositories write plain SQL through queryRows and EntityColumns (docs/decisions.md, "One writer per table, one query style per repository").';

/** The one query style: no TypeORM repository API or query builder, no private pool field. */
const queryStyle = {
  files: ['libs/**/*.ts', 'apps/**/*.ts', 'apps/**/*.tsx'],
  rules: {
    'no-restricted-syntax': [
      'error',
      {
        selector:
          "ImportDeclaration[source.value='@nestjs/typeorm'] ImportSpecifier[imported.name=/^(InjectRepository|InjectEntityManager)$/]",
        message: ONE_QUERY_STYLE,
      },
      {
        selector:
          'MemberExpression[property.name=/^(getRepository|createQueryBuilder|forFeature)$/]',
        message: ONE_QUERY_STYLE,
      },
      {
        selector: "MemberExpression[property.name='master']",
        message:
          "The driver's pool is private: take a connection through obtainMasterConnection (PreparedReads, CursorReads).",
      },
    ],
  },
};

export default tseslint.config(
  {
    ignores: [
      'dist/**',
      'node_modules/**',
      '.data/**',
      'coverage/**',
      'sdk/dist/**',
      // Generated by openapi-typescript; test/sdk.e2e-spec.ts keeps it in step with the API.
      'sdk/src/schema.ts',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommendedTypeChecked,
  {
    languageOptions: {
      parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
    },
    rules: {
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-misused-promises': 'error',
      '@typescript-eslint/await-thenable': 'error',
      '@typescript-eslint/switch-exhaustiveness-check': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': 'off',
      eqeqeq: ['error', 'always'],
      curly: ['error', 'all'],
      'no-console': 'error',
    },
  },
  {
    files: ['**/*.js', '**/*.cjs'],
    ...tseslint.configs.disableTypeChecked,
    languageOptions: {
      ...tseslint.configs.disableTypeChecked.languageOptions,
      globals: { process: 'readonly', URL: 'readonly' },
    },
  },
  {
    files: ['test/**/*.ts', '**/*.spec.ts', '**/*.spec.tsx'],
    rules: {
      '@typescript-eslint/no-unsafe-member-access': 'off',
      '@typescript-eslint/no-unsafe-assignment': 'off',
      '@typescript-eslint/no-unsafe-argument': 'off',
      '@typescript-eslint/no-unsafe-call': 'off',
      '@typescript-eslint/no-unsafe-return': 'off',
    },
  },
  queryStyle,
  ...boundaries,
  apiSurfaces,
  testKitOutsidePackages,
  browserCode,
  prettier,
);
