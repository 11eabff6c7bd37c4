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

// A hidden tab paints no frames: the timer is the way out there.
const AFTER_PAINT_FALLBACK_MS = 100;

/**
 * Calls `task` once the browser has painted what is on screen now (the next frame, then a task
 * after it), so that what it fetches does not compete with that paint; the returned function
 * cancels it if still pending.
 */
export function runAfterNextPaint(task: () => void): () => void {
  let done = false;
  let frame: number | undefined;
  let afterFrame: number | undefined;
  const run = () => {
    if (done) return;
    done = true;
    task();
  };
  const fallback = window.setTimeout(run, AFTER_PAINT_FALLBACK_MS);
  if (typeof window.requestAnimationFrame === 'function') {
    frame = window.requestAnimationFrame(() => {
      afterFrame = window.setTimeout(run, 0);
    });
  }
  return () => {
    done = true;
    window.clearTimeout(fallback);
    if (afterFrame !== undefined) window.clearTimeout(afterFrame);
    if (frame !== undefined) window.cancelAnimationFrame(frame);
  };
}
