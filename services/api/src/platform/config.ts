// The only module that reads process.env: everything else receives a typed, validated Config.
import path from 'node:path';
import { REPO_ROOT } from './service-root';
import os from 'node:os';
import { ADDRESS_PROVIDERS, type AddressProviderName } from './address-provider-names';

export interface Config {
  port: number;
  host: string;
  /** Where the command was run (npm keeps it in INIT_CWD): relative CLI paths resolve against it. */
  invokedFrom: string;
  dataDir: string;
  /** PostgreSQL when set; otherwise the embedded PGlite database under dataDir. */
  databaseUrl: string | null;
  smtpUrl: string | null;
  mailFrom: string;
  /** The address applicants reach us at; reset links and cookie security derive from it. */
  publicUrl: string;
  /** 32+ byte secret; when unset a random one is generated once under dataDir (0600). */
  secretKey: string | null;
  logLevel: 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace' | 'silent';
  /** `text`: one readable line per event (a person at a terminal); `json`: one JSON object per line. */
  logFormat: 'json' | 'text';
  enableDocs: boolean;
  /**
   * Which proxies in front of the API to believe about the client's address: false (none), a
   * number of hops (the nearest N, read from the right of X-Forwarded-For), or a list of proxy
   * addresses / CIDR ranges. TRUST_PROXY=true means one hop.
   */
  trustProxy: false | number | string[];
  /** Requests per minute per IP on each public (unauthenticated) route. */
  publicRateLimit: number;
  /** Requests per minute per IP across the routes used without a session. */
  globalRateLimit: number;
  /** Requests per minute per account (the session's user) across the signed-in /api routes. */
  accountRateLimit: number;
  loginMarkerClientId: string;
  partnerConfigFile: string | null;
  webDist: string;
  /** Runs the job workers inside the API process (the embedded default). */
  runWorkerInProcess: boolean;
  jobConcurrency: number;
  requestTimeoutMs: number;
  /** S3-compatible storage when S3_BUCKET is set; otherwise local disk under dataDir/blobs. */
  s3: {
    bucket: string;
    endpoint: string | null;
    region: string;
    accessKeyId: string | null;
    secretAccessKey: string | null;
    forcePathStyle: boolean;
  } | null;
  /** Hard limit of one document conversion; LibreOffice is killed and replaced past it. */
  conversionTimeoutMs: number;
  /** Warm LibreOffice processes per worker process (one conversion at a time each). */
  officePoolSize: number;
  /** A LibreOffice process is replaced after this many conversions. */
  officeRecycleAfter: number;
  /** Conversion jobs one worker process runs at once. */
  conversionConcurrency: number;
  /** Application PDF jobs one worker process runs at once (rendering is CPU-bound: 1 per process). */
  pdfConcurrency: number;
  /** Requests per minute per IP on GET /lookup/find (typed-as-you-go, so above the public limit). */
  lookupRateLimit: number;
  /** Where address completion comes from: the `zipcodes` package, the lookup_addresses table, or nothing. */
  addressProvider: AddressProviderName;
  /** Rate-limit counters live in Redis when set (shared by every API process), else in memory. */
  redisUrl: string | null;
  /** Serves GET /metrics (Prometheus text format) when true; 404 otherwise. */
  metricsEnabled: boolean;
  /** When set, GET /metrics needs `Authorization: Bearer <token>`. */
  metricsToken: string | null;
  /** Load shedding: 503 with Retry-After while the event loop lags more than this (0 = off). */
  maxEventLoopDelayMs: number;
  /** Load shedding: 503 while the V8 heap in use exceeds this many MiB (0 = off). */
  maxHeapUsedMb: number;
  /** Seconds a shed request is told to wait (Retry-After). */
  busyRetryAfterSeconds: number;
  /** On SIGTERM/SIGINT: the longest wait for in-flight requests, and then for running jobs. */
  shutdownTimeoutMs: number;
  /** Account e-mails (codes, reset links, notices) one address can get at once. */
  mailPerAddressBurst: number;
  /** How many more account e-mails an address can get per hour once the burst is used. */
  mailPerAddressPerHour: number;
  /** Sandbox children per process that parse, convert and render applicants' files (src/sandbox). */
  sandboxPoolSize: number;
  /** Resident memory (MiB) a sandbox child may reach before it is killed; also its V8 heap limit. */
  sandboxMemoryMb: number;
  /** CPU time (user + system, ms) one sandbox task may use before its child is killed. */
  sandboxCpuMs: number;
  /** Wall-clock time (ms) one sandbox task may take before its child is killed. */
  sandboxTimeoutMs: number;
  /** A sandbox child is replaced after this many tasks. */
  sandboxRecycleAfter: number;
  /** Staff sign-in through the institution's OpenID Connect provider; null = local accounts only. */
  staffOidc: StaffOidcConfig | null;
  /** Webhook deliveries (docs/webhooks.md). */
  webhooks: WebhookConfig;
}

export interface WebhookConfig {
  /**
   * Plain http to a loopback host (127.0.0.1, ::1, localhost) is allowed: development and tests
   * only. Every other target must be https.
   */
  allowLoopbackHttp: boolean;
  /**
   * A delivery may connect to an address of a private network (10/8, 172.16/12, 192.168/16,
   * 100.64/10, fc00::/7): a student system inside the university. Off, only public addresses.
   */
  allowPrivateNetworks: boolean;
  /** One attempt's time-out: no answer within it is a failed attempt. */
  timeoutMs: number;
  /** The back-off's unit: retries wait 1, 2, 4, … 256 of it, then 480 of it five times. */
  retryBaseMs: number;
}

export interface StaffOidcConfig {
  issuer: string;
  clientId: string;
  clientSecret: string;
  /** E-mail domains allowed in (lowercase); empty = no domain rule. */
  allowedDomains: string[];
  /** The ID-token/userinfo claim holding the groups; null = no group rule. */
  groupClaim: string | null;
  readerGroups: string[];
  exporterGroups: string[];
}

export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`Invalid configuration:\n${problems.map((p) => `  - ${p}`).join('\n')}`);
    this.name = 'ConfigError';
  }
}

type Env = Record<string, string | undefined>;

/** Reads and validates the whole configuration at once, reporting every problem together. */
export function loadConfig(env: Env = process.env): Config {
  const problems: string[] = [];
  const read = (name: string) => {
    const value = env[name]?.trim();
    return value === undefined || value === '' ? undefined : value;
  };
  const readInt = (name: string, fallback: number, min: number, max: number) => {
    const raw = read(name);
    if (raw === undefined) return fallback;
    const value = Number(raw);
    if (!Number.isInteger(value) || value < min || value > max) {
      problems.push(`${name} must be a whole number from ${min} to ${max} (got "${raw}")`);
      return fallback;
    }
    return value;
  };
  const readBool = (name: string, fallback: boolean) => {
    const raw = read(name);
    if (raw === undefined) return fallback;
    if (['1', 'true', 'yes', 'on'].includes(raw.toLowerCase())) return true;
    if (['0', 'false', 'no', 'off'].includes(raw.toLowerCase())) return false;
    problems.push(`${name} must be true or false (got "${raw}")`);
    return fallback;
  };
  const readUrl = (name: string, protocols: string[]) => {
    const raw = read(name);
    if (raw === undefined) return null;
    try {
      const url = new URL(raw);
      if (!protocols.includes(url.protocol)) {
        problems.push(`${name} must start with ${protocols.join(' or ')}`);
        return null;
      }
      return raw;
    } catch {
      problems.push(`${name} is not a valid URL`);
      return null;
    }
  };

  // Relative paths mean relative to where the person ran the command: npm runs workspace scripts
  // inside the workspace folder but keeps the original directory in INIT_CWD.
  const invokedFrom = read('INIT_CWD') ?? process.cwd();
  const resolvePath = (value: string) => path.resolve(invokedFrom, value);

  const port = readInt('PORT', 3000, 0, 65535);
  const host = read('HOST') ?? '127.0.0.1';
  const dataDir = resolvePath(read('DATA_DIR') ?? './data');
  const databaseUrl = readUrl('DATABASE_URL', ['postgres:', 'postgresql:']);
  const smtpUrl = readUrl('SMTP_URL', ['smtp:', 'smtps:']);
  const publicUrl =
    readUrl('PUBLIC_URL', ['http:', 'https:']) ?? describeDefaultPublicUrl(host, port);

  const secretKey = read('SECRET_KEY') ?? null;
  if (secretKey !== null && secretKey.length < 32) {
    problems.push('SECRET_KEY must be at least 32 characters');
  }

  const levels = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;
  const rawLevel = read('LOG_LEVEL') ?? 'info';
  const logLevel = levels.find((l) => l === rawLevel);
  if (!logLevel) problems.push(`LOG_LEVEL must be one of ${levels.join(', ')}`);
  // Readable lines for someone watching a terminal (`npm start`); JSON for log collectors.
  const rawFormat = read('LOG_FORMAT') ?? (process.stdout.isTTY ? 'text' : 'json');
  const logFormat = rawFormat === 'json' || rawFormat === 'text' ? rawFormat : undefined;
  if (!logFormat) problems.push('LOG_FORMAT must be json or text');

  const clientId = read('LOGIN_MARKER_CLIENT_ID') ?? 'admissions';
  if (!/^[A-Za-z0-9_-]{1,64}$/.test(clientId)) {
    problems.push('LOGIN_MARKER_CLIENT_ID may contain only letters, digits, - and _');
  }

  const rawAddressProvider = read('ADDRESS_PROVIDER') ?? 'zipcodes';
  const addressProvider = ADDRESS_PROVIDERS.find((p) => p === rawAddressProvider);
  if (!addressProvider) {
    problems.push(`ADDRESS_PROVIDER must be one of ${ADDRESS_PROVIDERS.join(', ')}`);
  }

  const s3Bucket = read('S3_BUCKET');
  const s3Endpoint = readUrl('S3_ENDPOINT', ['http:', 'https:']);
  const s3 = s3Bucket
    ? {
        bucket: s3Bucket,
        endpoint: s3Endpoint,
        region: read('S3_REGION') ?? 'us-east-1',
        accessKeyId: read('S3_ACCESS_KEY_ID') ?? null,
        secretAccessKey: read('S3_SECRET_ACCESS_KEY') ?? null,
        forcePathStyle: readBool('S3_FORCE_PATH_STYLE', s3Endpoint !== null),
      }
    : null;
  if (!s3Bucket && s3Endpoint) problems.push('S3_ENDPOINT is set but S3_BUCKET is not');
  const cores = Math.max(1, os.availableParallelism());

  const trustProxy = readTrustProxy(read('TRUST_PROXY'), problems);

  const metricsToken = read('METRICS_TOKEN') ?? null;
  if (metricsToken !== null && !/^[\x21-\x7e]{16,256}$/.test(metricsToken)) {
    problems.push('METRICS_TOKEN must be 16 to 256 printable characters without spaces');
  }

  const listOf = (name: string) =>
    (read(name) ?? '')
      .split(',')
      .map((part) => part.trim())
      .filter((part) => part !== '');
  const oidcIssuer = readUrl('STAFF_OIDC_ISSUER', ['https:', 'http:']);
  let staffOidc: StaffOidcConfig | null = null;
  if (oidcIssuer) {
    const issuerHost = new URL(oidcIssuer).hostname;
    if (
      oidcIssuer.startsWith('http:') &&
      !['127.0.0.1', 'localhost', '[::1]'].includes(issuerHost)
    ) {
      problems.push('STAFF_OIDC_ISSUER must use https (plain http only on this machine)');
    }
    const oidcClientId = read('STAFF_OIDC_CLIENT_ID');
    const oidcClientSecret = read('STAFF_OIDC_CLIENT_SECRET');
    if (!oidcClientId) problems.push('STAFF_OIDC_CLIENT_ID is required with STAFF_OIDC_ISSUER');
    if (!oidcClientSecret) {
      problems.push('STAFF_OIDC_CLIENT_SECRET is required with STAFF_OIDC_ISSUER');
    }
    const allowedDomains = listOf('STAFF_OIDC_ALLOWED_DOMAINS').map((d) => d.toLowerCase());
    const groupClaim = read('STAFF_OIDC_GROUP_CLAIM') ?? null;
    const readerGroups = listOf('STAFF_OIDC_READER_GROUPS');
    const exporterGroups = listOf('STAFF_OIDC_EXPORTER_GROUPS');
    if (allowedDomains.length === 0 && groupClaim === null) {
      problems.push(
        'STAFF_OIDC_ISSUER needs STAFF_OIDC_ALLOWED_DOMAINS or STAFF_OIDC_GROUP_CLAIM (who may enter)',
      );
    }
    if (groupClaim !== null && readerGroups.length + exporterGroups.length === 0) {
      problems.push(
        'STAFF_OIDC_GROUP_CLAIM needs STAFF_OIDC_READER_GROUPS or STAFF_OIDC_EXPORTER_GROUPS',
      );
    }
    staffOidc = {
      issuer: oidcIssuer,
      clientId: oidcClientId ?? '',
      clientSecret: oidcClientSecret ?? '',
      allowedDomains,
      groupClaim,
      readerGroups,
      exporterGroups,
    };
  }

  const config: Config = {
    port,
    host,
    invokedFrom,
    dataDir,
    databaseUrl,
    smtpUrl,
    mailFrom: read('MAIL_FROM') ?? 'Example State University Admissions <no-reply@example.edu>',
    publicUrl: publicUrl.replace(/\/+$/, ''),
    secretKey,
    logLevel: logLevel ?? 'info',
    logFormat: logFormat ?? 'json',
    enableDocs: readBool('ENABLE_DOCS', false),
    trustProxy,
    publicRateLimit: readInt('PUBLIC_RATE_LIMIT', 120, 1, 1_000_000),
    globalRateLimit: readInt('GLOBAL_RATE_LIMIT', 3000, 1, 10_000_000),
    accountRateLimit: readInt('ACCOUNT_RATE_LIMIT', 600, 1, 10_000_000),
    loginMarkerClientId: clientId,
    partnerConfigFile: ((file) => (file ? resolvePath(file) : null))(read('PARTNER_CONFIG_FILE')),
    webDist: read('WEB_DIST')
      ? resolvePath(read('WEB_DIST')!)
      : path.join(REPO_ROOT, 'apps/web/dist'),
    runWorkerInProcess: readBool('RUN_WORKER_IN_PROCESS', true),
    jobConcurrency: readInt('JOB_CONCURRENCY', Math.max(1, os.availableParallelism()), 1, 64),
    requestTimeoutMs: readInt('REQUEST_TIMEOUT_MS', 30_000, 1000, 600_000),
    s3,
    conversionTimeoutMs: readInt('CONVERSION_TIMEOUT_MS', 20_000, 500, 600_000),
    officePoolSize: readInt('OFFICE_POOL_SIZE', cores, 1, 32),
    officeRecycleAfter: readInt('OFFICE_RECYCLE_AFTER', 200, 1, 100_000),
    conversionConcurrency: readInt('CONVERSION_CONCURRENCY', cores, 1, 64),
    pdfConcurrency: readInt('PDF_CONCURRENCY', 1, 1, 16),
    lookupRateLimit: readInt('LOOKUP_RATE_LIMIT', 300, 1, 1_000_000),
    addressProvider: addressProvider ?? 'zipcodes',
    redisUrl: readUrl('REDIS_URL', ['redis:', 'rediss:']),
    metricsEnabled: readBool('METRICS_ENABLED', false),
    metricsToken,
    maxEventLoopDelayMs: readInt('MAX_EVENT_LOOP_DELAY_MS', 1000, 0, 60_000),
    maxHeapUsedMb: readInt('MAX_HEAP_USED_MB', 0, 0, 1_048_576),
    busyRetryAfterSeconds: readInt('BUSY_RETRY_AFTER_S', 5, 1, 3600),
    shutdownTimeoutMs: readInt('SHUTDOWN_TIMEOUT_MS', 20_000, 1000, 600_000),
    mailPerAddressBurst: readInt('MAIL_PER_ADDRESS_BURST', 6, 1, 1000),
    mailPerAddressPerHour: readInt('MAIL_PER_ADDRESS_PER_HOUR', 6, 1, 1000),
    // One child per core (at most 4): each holds one task, and a render or a decode uses a core.
    sandboxPoolSize: readInt('SANDBOX_POOL_SIZE', Math.min(cores, 4), 1, 32),
    // A child with the PDF renderer loaded sits near 200 MB; a 1 MB upload's honest decode fits.
    sandboxMemoryMb: readInt('SANDBOX_MEMORY_MB', 768, 128, 65_536),
    sandboxCpuMs: readInt('SANDBOX_CPU_MS', 20_000, 100, 600_000),
    sandboxTimeoutMs: readInt('SANDBOX_TIMEOUT_MS', 60_000, 500, 600_000),
    sandboxRecycleAfter: readInt('SANDBOX_RECYCLE_AFTER', 100, 1, 100_000),
    staffOidc,
    webhooks: {
      allowLoopbackHttp: readBool('WEBHOOK_ALLOW_LOOPBACK_HTTP', false),
      allowPrivateNetworks: readBool('WEBHOOK_ALLOW_PRIVATE_NETWORKS', false),
      timeoutMs: readInt('WEBHOOK_TIMEOUT_MS', 10_000, 100, 60_000),
      retryBaseMs: readInt('WEBHOOK_RETRY_BASE_MS', 30_000, 1, 3_600_000),
    },
  };
  if (problems.length > 0) throw new ConfigError(problems);
  return config;
}

const PROXY_ADDRESS = /^[0-9A-Fa-f.:]+(\/\d{1,3})?$/;

/**
 * TRUST_PROXY: never "trust everything", which would make the leftmost X-Forwarded-For entry —
 * whatever the client wrote there — the address that rate limits and the staff audit see.
 */
function readTrustProxy(raw: string | undefined, problems: string[]): false | number | string[] {
  if (raw === undefined) return false;
  const lower = raw.toLowerCase();
  if (['0', 'false', 'no', 'off'].includes(lower)) return false;
  if (['1', 'true', 'yes', 'on'].includes(lower)) return 1;
  if (/^\d{1,2}$/.test(raw)) return Number(raw);
  const list = raw.split(',').map((item) => item.trim());
  if (
    list.every(
      (item) => PROXY_ADDRESS.test(item) || /^(loopback|linklocal|uniquelocal)$/.test(item),
    )
  ) {
    return list;
  }
  problems.push(
    `TRUST_PROXY must be false, true (one proxy), a number of proxies, or a comma-separated list of proxy addresses (got "${raw}")`,
  );
  return false;
}

/**
 * PUBLIC_URL when it is not set: the one address to open on this machine. localhost reaches a
 * server on a loopback or every-interface address (HOST=127.0.0.1, ::1, 0.0.0.0, ::); a server
 * bound to one other address is reached there only.
 */
function describeDefaultPublicUrl(host: string, port: number): string {
  const local = ['127.0.0.1', 'localhost', '::1', '0.0.0.0', '::'].includes(host);
  if (local) return `http://localhost:${port}`;
  return `http://${host.includes(':') ? `[${host}]` : host}:${port}`;
}

/** Cookies get the Secure flag and the __Host- prefix only where the browser will send them. */
export function isHttps(config: Pick<Config, 'publicUrl'>): boolean {
  return config.publicUrl.startsWith('https:');
}
