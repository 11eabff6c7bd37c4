// How long a test waits for a lazy page or a stubbed round trip to show: on a busy CI machine
// (the browser suite and the API tests beside these files) a page took 8–16 s to appear. Waiting
// longer changes no assertion: a findBy still fails when the text never comes.
export const SLOW = { timeout: 20_000 };
