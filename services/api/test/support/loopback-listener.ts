// A TCP listener on the loopback interface that counts connections and closes each at once: the
// address a document links to, when the test must prove nothing was ever fetched.
import { createServer } from 'node:net';

export interface LoopbackListener {
  /** http://127.0.0.1:<port> */
  base: string;
  connections(): number;
  close(): Promise<void>;
}

export async function startLoopbackListener(): Promise<LoopbackListener> {
  let count = 0;
  const server = createServer((socket) => {
    count++;
    socket.destroy();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  if (!address || typeof address === 'string') throw new Error('no port');
  return {
    base: `http://127.0.0.1:${address.port}`,
    connections: () => count,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
