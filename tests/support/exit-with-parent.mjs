// Plain JavaScript: preloaded into compiled processes that run without a TypeScript loader.
// Preloaded into the API server the suite starts (node --import). The suite keeps the server's
// stdin open as a pipe; end-of-file means the test runner died without calling stop() (killed,
// crashed), so the server and everything in its process group shut down instead of lingering.
process.stdin.on('data', () => undefined);
process.stdin.once('end', () => {
  const group = -process.pid;
  process.kill(group, 'SIGTERM');
  setTimeout(() => process.kill(group, 'SIGKILL'), 10_000).unref();
});
