// The floor the load benchmark compares the API with: Fastify 5 answering one route with a small
// JSON body, nothing else (no logger, hooks, plugins or database). Started like the API, one
// process per PORT, by bench/load-bench.ts.
import Fastify from 'fastify';

const app = Fastify({ logger: false });
app.get('/bare', async () => ({ message: 'ok' }));
await app.listen({ port: Number(process.env.PORT), host: '127.0.0.1' });
