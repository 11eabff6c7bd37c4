import type { FastifyReply } from 'fastify';

/**
 * Sends JSON that is already text (the database's own json output) without serializing it again:
 * Fastify passes a string with a JSON content type through untouched. The route's response schema
 * still documents the shape; the type provider cannot see that a string carries it, hence the cast
 * in this one place.
 */
export function sendJsonText(reply: FastifyReply, text: string): FastifyReply {
  return reply.type('application/json; charset=utf-8').send(text as never);
}
