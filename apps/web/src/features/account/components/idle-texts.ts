// The idle dialog's words, apart from the lazily loaded watcher so that tests and the watcher
// share them without the watcher importing its own loader.
export const IDLE_TEXTS = {
  title: 'Still working?',
  body: 'You have been inactive for a little while. Would you like to stay logged in?',
  stay: 'Yes - Take me back to my application',
  leave: 'No - Please log me out',
} as const;
