// The service module's public entry point: other modules and boot/ import only from here.
export { registerReadOnlyGuard } from './read-only-guard';
export { recordServiceRead, recordServiceReads } from './service-audit';
export { serviceRoutes } from './service-routes';
export {
  SERVICE_TOKEN_DEFAULT_TTL_MS,
  SERVICE_TOKEN_MAX_TTL_MS,
  mintServiceToken,
  parseDuration,
} from './service-tokens';
export { serviceAudit } from './schema';
