// Reads the production build (apps/web/dist): the root `npm test` builds it before vitest runs.
// What a first visit gets before any of the SPA's code has run (apps/web/README.md, "Lighthouse").
import { readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { API_ROUTES } from '@admissions/api-contract';
import { PATHS } from '../src/config/paths';
import { findRoutePreloadScript } from '../build-tools/preload-route-chunks';
import {
  FIRST_PAGE_ROUTES,
  WEB_DIST,
  listRouteJavaScript,
  type FirstPage,
} from '../build-tools/route-javascript';

const readDist = (file: string) => readFileSync(path.join(WEB_DIST, file), 'utf8');
const indexHtml = () => new DOMParser().parseFromString(readDist('index.html'), 'text/html');

/** Runs the built preload script against a fake document at `pathname`; returns its links. */
function linksAskedFor(pathname: string): { rel: string; href: string; as: string }[] {
  const script = findRoutePreloadScript(WEB_DIST);
  if (!script) throw new Error('The build has no route preload script.');
  const links: { rel: string; href: string; as: string }[] = [];
  const fakeDocument = {
    createElement: () => ({ rel: '', href: '', as: '', crossOrigin: null }),
    head: { appendChild: (link: { rel: string; href: string; as: string }) => links.push(link) },
  };
  new Function('location', 'document', readDist(script))({ pathname }, fakeDocument);
  return links;
}

describe('the first visit', () => {
  it('shows a loader from the HTML itself, before any script arrives', () => {
    const root = indexHtml().getElementById('root');
    const loader = root?.querySelector('[role="progressbar"]');
    expect(loader?.getAttribute('aria-label')).toBe('Loading');
    // An <svg> is content for the browser's first paint; a bordered box would not be.
    expect(loader?.querySelector('svg')).not.toBeNull();
  });

  it('asks for the institution’s configuration beside the scripts, not after them', () => {
    // The first render waits for it (main.tsx); asked for by the script, it started only once
    // every module had arrived and run, a round trip later.
    const preload = indexHtml().querySelector(`link[rel="preload"][href="${API_ROUTES.partner}"]`);
    expect(preload?.getAttribute('as')).toBe('fetch');
    // Anonymous CORS mode, as fetch() in partner.ts asks: otherwise the browser fetches it twice.
    expect(preload?.getAttribute('crossorigin')).toBe('');
  });

  it('loads the preload script before the entry, as a classic script', () => {
    const scripts = [...indexHtml().querySelectorAll('script[src]')];
    expect(scripts[0]?.getAttribute('src')).toBe(`/${findRoutePreloadScript(WEB_DIST)}`);
    expect(scripts[0]?.getAttribute('type')).toBeNull();
  });

  it.each(Object.keys(FIRST_PAGE_ROUTES) as FirstPage[])(
    'asks at once for every file %s needs besides the entry',
    (page) => {
      // What index.html loads itself: the entry and the chunks Vite preloads for it.
      const entryFiles = new Set(
        [...indexHtml().querySelectorAll('script[type="module"], link[rel="modulepreload"]')].map(
          (el) => (el.getAttribute('src') ?? el.getAttribute('href') ?? '').slice(1),
        ),
      );
      const needed = listRouteJavaScript(page)
        .files.map((f) => f.file)
        .filter((file) => !entryFiles.has(file) && file !== findRoutePreloadScript(WEB_DIST));
      const asked = linksAskedFor(page)
        .filter((link) => link.rel === 'modulepreload')
        .map((link) => link.href.slice(1));
      expect(asked.sort()).toEqual(needed.sort());
      const styles = linksAskedFor(page).filter((link) => link.rel === 'preload');
      for (const style of styles) expect(style).toMatchObject({ as: 'style' });
    },
  );

  it('knows every applicant route of the SPA, with or without a trailing slash', () => {
    // The staff area is nobody's first visit of the season: its bundle loads on demand, and its
    // entries would cost every applicant's page bytes of this script. Neither is the recommender's
    // link (`/recommend/:token`, issue #30): the table is looked up by the whole path, and a
    // pattern in it would cost every page bytes for one visit per recommender.
    const applicantPaths = Object.values(PATHS).filter(
      (p) => !p.startsWith('/staff') && !p.includes(':'),
    );
    for (const pathname of applicantPaths) {
      expect(linksAskedFor(pathname).length, pathname).toBeGreaterThan(0);
      expect(linksAskedFor(`${pathname}/`)).toEqual(linksAskedFor(pathname));
    }
    expect(linksAskedFor('/no-such-page')).toEqual([]);
  });

  it('has the styles of every Mantine component the build contains', () => {
    const assets = readdirSync(path.join(WEB_DIST, 'assets'));
    const read = (ext: string) =>
      assets
        .filter((file) => file.endsWith(ext))
        .map((file) => readDist(`assets/${file}`))
        .join('\n');
    // Mantine's components carry their class names as strings (`root: "m_1b7284a3"`); main.tsx
    // imports the style sheets one component at a time, so a component added to the code without
    // its sheet would render unstyled.
    const used = new Set([...read('.js').matchAll(/["'](m_[0-9a-f]{6,8})["']/g)].map((m) => m[1]));
    const css = read('.css');
    const missing = [...used].filter((name) => !css.includes(name!));
    expect(used.size).toBeGreaterThan(50);
    expect(missing, 'add the components’ style sheets to src/main.tsx').toEqual([]);
  });
});
