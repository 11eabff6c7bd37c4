// Route code loads on demand (docs/api.md); this starts that download a moment early, when the
// applicant shows where they are going (pointing at a link, submitting the login form), so the
// navigation itself rarely waits. The app registers its route modules; features only name paths.
type ModuleLoader = () => Promise<unknown>;

const loaders = new Map<string, readonly ModuleLoader[]>();

/** The app's route table: path → the lazy modules that page needs (parents first). */
export function registerRoutePreloads(table: Readonly<Record<string, readonly ModuleLoader[]>>) {
  for (const [path, modules] of Object.entries(table)) loaders.set(path, modules);
}

/** Starts fetching the page's code; the module system keeps one download per chunk. */
export function preloadRoute(pathname: string): void {
  for (const load of loaders.get(pathname) ?? []) {
    // A failed early fetch is retried by the navigation itself, which shows its own error.
    load().catch(() => undefined);
  }
}
