// Work that no page needs for its first paint (a dialog's code, the toast container) waits until
// the page has loaded, a few seconds have passed and the browser is idle. Started earlier, its
// downloads share the connection with the page's own files and its evaluation falls among the
// page's first tasks: both count against the first paint and the blocking time (issue #17).
const SETTLE_AFTER_LOAD_MS = 3000;
const IDLE_TIMEOUT_MS = 5000;

/** Calls `task` once the page has settled; the returned function cancels it if still pending. */
export function runWhenPageSettles(task: () => void): () => void {
  let cancelled = false;
  let timer: number | undefined;
  let idle: number | undefined;
  const run = () => {
    if (!cancelled) task();
  };
  const whenIdle = () => {
    if (cancelled) return;
    if (typeof window.requestIdleCallback === 'function') {
      idle = window.requestIdleCallback(run, { timeout: IDLE_TIMEOUT_MS });
    } else {
      run();
    }
  };
  const afterLoad = () => {
    timer = window.setTimeout(whenIdle, SETTLE_AFTER_LOAD_MS);
  };
  if (document.readyState === 'complete') afterLoad();
  else window.addEventListener('load', afterLoad, { once: true });
  return () => {
    cancelled = true;
    window.removeEventListener('load', afterLoad);
    if (timer !== undefined) window.clearTimeout(timer);
    if (idle !== undefined && typeof window.cancelIdleCallback === 'function') {
      window.cancelIdleCallback(idle);
    }
  };
}

// When no new largest-contentful-paint entry comes (nothing larger than before was painted, a
// hidden tab, a browser without the API), the task runs after this long anyway.
const AFTER_PAINT_FALLBACK_MS = 500;

/**
 * Calls `task` once what the page has just committed is on screen, so that what the task fetches
 * does not compete with that paint; the returned function cancels it if still pending. The
 * browser reports the largest text or image of a presented frame as a largest-contentful-paint
 * entry: the first one timed after this call says the frame is out. A timer after the next
 * animation frame was not enough: on a busy machine the frame reached the screen tens of
 * milliseconds after it, and downloads started in between still counted against the paint.
 */
export function runAfterNextPaint(task: () => void): () => void {
  const since = performance.now();
  let done = false;
  let observer: PerformanceObserver | undefined;
  const finish = () => {
    done = true;
    observer?.disconnect();
    window.clearTimeout(fallback);
  };
  const run = () => {
    if (done) return;
    finish();
    task();
  };
  const fallback = window.setTimeout(run, AFTER_PAINT_FALLBACK_MS);
  if (
    typeof PerformanceObserver === 'function' &&
    PerformanceObserver.supportedEntryTypes.includes('largest-contentful-paint')
  ) {
    observer = new PerformanceObserver((list) => {
      if (list.getEntries().some((entry) => entry.startTime >= since)) run();
    });
    observer.observe({ type: 'largest-contentful-paint', buffered: true });
  }
  return finish;
}
