// The fetch handler lives below the router and the query client, so the app layer registers
// what "the session is invalid" means (clear the cache, go to /login) instead of shared code
// reaching up into the app.

type UnauthorizedHandler = () => void;

let onUnauthorized: UnauthorizedHandler = () => {};

export function setUnauthorizedHandler(handler: UnauthorizedHandler): () => void {
  onUnauthorized = handler;
  return () => {
    if (onUnauthorized === handler) onUnauthorized = () => {};
  };
}

export function notifyUnauthorized(): void {
  onUnauthorized();
}
