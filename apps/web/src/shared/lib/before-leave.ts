// Work that must finish before the session ends (an idle logout, a logout button): the
// application registers "save what is being typed" here, and the account feature awaits it.
type Task = () => Promise<unknown>;

const tasks = new Set<Task>();

export function registerBeforeLeave(task: Task): () => void {
  tasks.add(task);
  return () => tasks.delete(task);
}

/** Runs every registered task; failures are swallowed, since leaving must still happen. */
export async function runBeforeLeave(): Promise<void> {
  await Promise.allSettled([...tasks].map((task) => task()));
}
