// The staff member's service token lives here, in memory only: it is taken out of the address bar
// as soon as it is read (so it does not linger in history, screenshots or a shared screen), and a
// reload deliberately forgets it.
import { SERVICE_TOKEN_PARAM } from '../../../config/paths';

let heldToken: string | null = null;

/**
 * Takes the token from a query string when it carries one (a newer link replaces an older token),
 * and returns the token held for this page load, if any.
 */
export function takeServiceToken(search: string): string | null {
  const fromUrl = new URLSearchParams(search).get(SERVICE_TOKEN_PARAM);
  if (fromUrl) heldToken = fromUrl;
  return heldToken;
}

/** The query string without the token, to replace the address bar's entry. */
export function removeServiceToken(search: string): string {
  const params = new URLSearchParams(search);
  params.delete(SERVICE_TOKEN_PARAM);
  const rest = params.toString();
  return rest ? `?${rest}` : '';
}

/** Tests start each page load afresh. */
export function forgetServiceToken(): void {
  heldToken = null;
}
