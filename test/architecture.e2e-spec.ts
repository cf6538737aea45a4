import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';

const ROOT = join(import.meta.dirname, '..');
const read = (file: string) => readFileSync(join(ROOT, file), 'utf8');
const libs = readdirSync(join(ROOT, 'libs'))
  .filter((name) => statSync(join(ROOT, 'libs', name)).isDirectory())
  .sort();

/**
 * The newcomer's map agrees with the code: every lib has its index, its lint layer, its
 * `nest-cli.json` entry, and its line in the README's lib map and in docs/architecture.md.
 */
describe('The map of the code', () => {
  it('gives every lib an index, through which alone it is used', () => {
    expect(libs.filter((lib) => !existsSync(join(ROOT, 'libs', lib, 'index.ts')))).toEqual([]);
  });

  it('gives every lib a lint layer, and the layers name no lib that does not exist', async () => {
    const config = pathToFileURL(join(ROOT, 'eslint.config.js')).href;
    const { LIB_LAYERS } = (await import(config)) as { LIB_LAYERS: string[][] };
    expect(LIB_LAYERS.flat().sort()).toEqual(libs);
  });

  it('lists every lib and app in nest-cli.json', () => {
    const projects = (JSON.parse(read('nest-cli.json')) as { projects: Record<string, unknown> })
      .projects;
    const apps = readdirSync(join(ROOT, 'apps')).sort();
    expect(Object.keys(projects).sort()).toEqual([...apps, ...libs].sort());
  });

  it.each(['README.md', 'docs/architecture.md'])('names every lib in %s', (file) => {
    const text = read(file);
    expect(libs.filter((lib) => !text.includes(`\`${lib}\``))).toEqual([]);
  });
});
