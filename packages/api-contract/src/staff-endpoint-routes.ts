// The staff area's routes and the campus systems' (see endpoint-routes.ts, which re-exports them).

// The staff area
export const startStaffOidc = 'GET /staff/auth/oidc/start';
export const finishStaffOidc = 'GET /staff/auth/oidc/callback';
export const readStaffMethods = 'GET /staff/auth/methods';
export const readStaffSession = 'GET /staff/auth/session';
export const staffLogin = 'POST /staff/auth/login';
export const staffTotp = 'POST /staff/auth/totp';
export const staffSetup = 'POST /staff/auth/setup';
export const staffLogout = 'POST /staff/auth/logout';
export const readStaffMe = 'GET /staff/api/me';
export const listStaffApplications = 'GET /staff/api/applications';
export const listStaffRounds = 'GET /staff/api/rounds';
export const readStaffApplication = 'GET /staff/api/applications/:id';
export const downloadStaffApplicationPdf = 'GET /staff/api/applications/:id/pdf';
export const readStaffChecklist = 'GET /staff/api/applications/:id/checklist';
export const requestStaffItem = 'POST /staff/api/applications/:id/requests';
export const waiveStaffItem = 'POST /staff/api/applications/:id/waivers';
export const startStaffExport = 'POST /staff/api/exports';
export const listStaffExports = 'GET /staff/api/exports';
export const readStaffExport = 'GET /staff/api/exports/:id';
export const downloadStaffExport = 'GET /staff/api/exports/:id/download';
export const listStaffWebhooks = 'GET /staff/api/webhooks';

// Campus systems, with `Authorization: Bearer <API key>`
export const mintServiceToken = 'POST /service/tokens';
export const listServiceApplications = 'GET /service/applications';
export const setExternalId = 'PUT /service/applications/:id/external-id';
