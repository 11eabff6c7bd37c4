// The staff module's public entry point: other modules and boot/ import only from here.
export {
  API_KEY_SCOPES,
  createApiKey,
  isApiKeyLive,
  listApiKeys,
  revokeApiKey,
  type ApiKeyScope,
} from './api-keys';
export { registerStaffArea } from './register-staff';
export { STAFF_SETUP_TTL_MS, createStaffAccounts } from './staff-accounts';
export {
  staffMembers,
  staffSessions,
  staffLoginThrottle,
  staffApiKeys,
  staffExports,
  staffListAudit,
} from './schema';
