// Reads the production build (apps/web/dist): the root `npm test` builds it before vitest runs.
import { describe, expect, it } from 'vitest';
import {
  FIRST_PAGE_JS_BUDGET_GZIP,
  FIRST_PAGE_ROUTES,
  listRouteJavaScript,
  type FirstPage,
} from '../build-tools/route-javascript';

const PAGES = Object.keys(FIRST_PAGE_ROUTES) as FirstPage[];
const kB = (bytes: number) => `${(bytes / 1024).toFixed(1)} kB`;
/** Every source module a first visit to the page loads, across its files. */
const listRouteModules = (page: FirstPage) =>
  listRouteJavaScript(page).files.flatMap((f) => f.modules);

describe('the JavaScript of a first visit (gzip)', () => {
  it.each(PAGES)('%s stays within its budget', (page) => {
    const { files, gzipBytes } = listRouteJavaScript(page);
    const budget = FIRST_PAGE_JS_BUDGET_GZIP[page];
    const listing = files.map((f) => `  ${f.file}: ${kB(f.gzipBytes)}`).join('\n');
    expect(
      gzipBytes,
      `${page} loads ${kB(gzipBytes)} of JavaScript (gzip), over its ${kB(budget)} budget ` +
        `(apps/web/README.md, "Bundle budget"):\n${listing}`,
    ).toBeLessThanOrEqual(budget);
  });

  it('leaves the application definition and its option lists out of /login', () => {
    const modules = listRouteModules('/login');
    const application = modules.filter(
      (m) =>
        m.includes('packages/form/src/definition/') ||
        m.includes('src/features/application/') ||
        m.includes('node_modules/iso-3166/'),
    );
    expect(application, 'these load with /login but belong to the form pages').toEqual([]);
  });

  it.each(PAGES)('%s leaves Mantine’s modal for the first dialog that opens', (page) => {
    const modules = listRouteModules(page);
    const modal = modules.filter(
      (m) =>
        m.includes('@mantine/core/esm/components/Modal/') ||
        m.includes('@mantine/core/esm/components/ModalBase/') ||
        m.includes('@mantine/core/esm/components/ScrollArea/') ||
        m.includes('src/shared/ui/app-modal-dialog.tsx'),
    );
    expect(modal, 'these load with the page but only a dialog needs them').toEqual([]);
  });

  it('leaves the inputs of /about for after its title has painted', () => {
    // The first paint is the frame, the steps, the welcome banner and the title; the inputs (and
    // the popovers of the selects and of the Account menu) arrive after it (application-page.tsx).
    const modules = listRouteModules('/about');
    const later = modules.filter(
      (m) =>
        m.endsWith('src/features/application/components/section-view.tsx') ||
        m.endsWith('src/features/account/components/account-menu.tsx') ||
        m.includes('node_modules/@floating-ui/'),
    );
    expect(later, 'these load with /about but its first paint does not need them').toEqual([]);
  });

  it('loads the form page with its route, not with the entry', () => {
    const entry = listRouteModules('/login');
    const about = listRouteModules('/about');
    expect(about).toContain('src/app/routes/app/about.tsx');
    expect(entry).not.toContain('src/app/routes/app/about.tsx');
  });
});
