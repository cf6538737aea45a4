import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

export const RESULTS_FILE = fileURLToPath(new URL('../../bench/results.md', import.meta.url));
/** Everything from this heading on is written by hand, and kept when the figures are rewritten. */
export const NOTES_HEADING = '## Reading this run';

/** A part of `bench/results.md` between two markers, which its own subset rewrites alone. */
export interface ResultsSection {
  start: string;
  end: string;
}

export const DASHBOARD_SECTION: ResultsSection = {
  start: '<!-- dashboard:start -->',
  end: '<!-- dashboard:end -->',
};
export const WEBHOOKS_SECTION: ResultsSection = {
  start: '<!-- webhooks:start -->',
  end: '<!-- webhooks:end -->',
};
export const STEPS_SECTION: ResultsSection = {
  start: '<!-- steps:start -->',
  end: '<!-- steps:end -->',
};
export const GROWTH_SECTION: ResultsSection = {
  start: '<!-- growth:start -->',
  end: '<!-- growth:end -->',
};
export const SCALE_SECTION: ResultsSection = {
  start: '<!-- scale:start -->',
  end: '<!-- scale:end -->',
};
export const ROUTING_SECTION: ResultsSection = {
  start: '<!-- routing:start -->',
  end: '<!-- routing:end -->',
};
export const MEMORY_SECTION: ResultsSection = {
  start: '<!-- memory:start -->',
  end: '<!-- memory:end -->',
};

function block(section: ResultsSection, lines: string[]): string {
  return [section.start, ...lines, section.end].join('\n');
}

/**
 * Writes `lines` as the section: in place of its previous figures, else before the notes written
 * by hand, else at the end.
 */
export function rewriteSection(section: ResultsSection, lines: string[]): void {
  const current = readFileSync(RESULTS_FILE, 'utf8');
  const start = current.indexOf(section.start);
  const end = current.indexOf(section.end);
  const notes = current.indexOf(NOTES_HEADING);
  const next =
    start !== -1 && end > start
      ? current.slice(0, start) + block(section, lines) + current.slice(end + section.end.length)
      : notes === -1
        ? `${current.trimEnd()}\n\n${block(section, lines)}\n`
        : `${current.slice(0, notes)}${block(section, lines)}\n\n${current.slice(notes)}`;
  writeFileSync(RESULTS_FILE, next);
}

/**
 * The sections of subsets the whole run does not measure (they run too long for it), as they are
 * in the file now, so rewriting the rest keeps them.
 */
export function keptSections(sections: ResultsSection[]): string[] {
  let current = '';
  try {
    current = readFileSync(RESULTS_FILE, 'utf8');
  } catch {
    return [];
  }
  return sections.flatMap((section) => {
    const start = current.indexOf(section.start);
    const end = current.indexOf(section.end);
    return start !== -1 && end > start ? [current.slice(start, end + section.end.length), ''] : [];
  });
}
