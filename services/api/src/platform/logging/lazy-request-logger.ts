import type { FastifyBaseLogger } from 'fastify';
import type { Bindings, ChildLoggerOptions } from 'pino';

/**
 * The logger a request gets as `request.log`: it makes its pino child (with the request id
 * bound) only when something logs through it. Fastify made one for every request, and making it
 * (bindings serialized, the redaction set up again) was ~1 % of an autosave's CPU in the API,
 * for a logger almost no request uses: the request's own line is written by request-log.ts.
 */
export class LazyRequestLogger implements FastifyBaseLogger {
  private made: FastifyBaseLogger | undefined;

  constructor(
    private readonly parent: FastifyBaseLogger,
    private readonly bindings: Bindings,
    private readonly options: ChildLoggerOptions,
  ) {}

  private get logger(): FastifyBaseLogger {
    this.made ??= this.parent.child(this.bindings, this.options);
    return this.made;
  }

  get level(): string {
    return this.made?.level ?? this.options.level ?? this.parent.level;
  }

  set level(level: string) {
    this.logger.level = level;
  }

  // Methods on the prototype, not closures: nothing is allocated for a request that logs nothing.
  fatal(...args: unknown[]): void {
    Reflect.apply(this.logger.fatal, this.logger, args);
  }

  error(...args: unknown[]): void {
    Reflect.apply(this.logger.error, this.logger, args);
  }

  warn(...args: unknown[]): void {
    Reflect.apply(this.logger.warn, this.logger, args);
  }

  info(...args: unknown[]): void {
    Reflect.apply(this.logger.info, this.logger, args);
  }

  debug(...args: unknown[]): void {
    Reflect.apply(this.logger.debug, this.logger, args);
  }

  trace(...args: unknown[]): void {
    Reflect.apply(this.logger.trace, this.logger, args);
  }

  silent(...args: unknown[]): void {
    Reflect.apply(this.logger.silent, this.logger, args);
  }

  child(bindings: Bindings, options?: ChildLoggerOptions): FastifyBaseLogger {
    return this.logger.child(bindings, options);
  }
}

/** Fastify's childLoggerFactory: a lazy child per request (see LazyRequestLogger). */
export function createLazyRequestLogger(
  logger: FastifyBaseLogger,
  bindings: Bindings,
  options: ChildLoggerOptions,
): FastifyBaseLogger {
  return new LazyRequestLogger(logger, bindings, options);
}
