import { useSyncExternalStore } from 'react';
import { LOGIN_MARKER_COOKIE_PREFIX } from '@admissions/api-contract';

// docs/roles.md: logged in means a cookie whose name starts with CognitoIdentityServiceProvider exists.
// The real session cookie is HttpOnly; this marker only tells the UI which face to show.

export interface SessionSnapshot {
  isLoggedIn: boolean;
  /** The marker's value: the lowercased e-mail the server logged in. */
  username: string;
  /** Staff viewing an application with a service token (set by the print view). */
  isServiceUser: boolean;
}

const listeners = new Set<() => void>();
let serviceUser = false;
let snapshot: SessionSnapshot = readSnapshot();

function readMarkerCookie(): { name: string; value: string } | undefined {
  for (const part of document.cookie.split(';')) {
    const [rawName = '', ...rest] = part.split('=');
    const name = rawName.trim();
    if (name.startsWith(LOGIN_MARKER_COOKIE_PREFIX)) {
      return { name, value: safeDecode(rest.join('=').trim()) };
    }
  }
  return undefined;
}

function safeDecode(value: string): string {
  try {
    return decodeURIComponent(value);
  } catch {
    return value;
  }
}

function readSnapshot(): SessionSnapshot {
  const marker = readMarkerCookie();
  return {
    isLoggedIn: marker !== undefined,
    username: (marker?.value ?? '').toLowerCase(),
    isServiceUser: serviceUser,
  };
}

/** Re-reads the cookie; call after anything that may have set or removed the marker. */
export function refreshSession(): void {
  const next = readSnapshot();
  if (
    next.isLoggedIn === snapshot.isLoggedIn &&
    next.username === snapshot.username &&
    next.isServiceUser === snapshot.isServiceUser
  ) {
    return;
  }
  snapshot = next;
  for (const listener of listeners) listener();
}

export function getSession(): SessionSnapshot {
  return snapshot;
}

export function isLoggedIn(): boolean {
  return readMarkerCookie() !== undefined;
}

export function setServiceUser(value: boolean): void {
  serviceUser = value;
  refreshSession();
}

/**
 * After the server says the session is gone, a leftover marker would keep showing the
 * logged-in face (and the idle timer); it is ours to read, so it is ours to drop.
 */
export function clearLoginMarker(): void {
  const marker = readMarkerCookie();
  if (marker) {
    document.cookie = `${marker.name}=; Max-Age=0; Path=/; SameSite=Lax`;
  }
  refreshSession();
}

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

export function useSession(): SessionSnapshot {
  return useSyncExternalStore(subscribe, getSession, getSession);
}
